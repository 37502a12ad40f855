#!/bin/bash
# The process layer (support/proc) against slow fake tools: a signal sent
# to q7cc or q7-run alone, a failing link among eight, a QEMU that
# outlives --timeout. Every fake records its pid, and the pid of the
# process it runs in turn (as g++ runs cc1plus, collect2 and ld), so the
# test can tell that none is left.
#   slow_tools.sh Q7CC WORKDIR CASE [FIXTURE_DIR]
# Cases: link_sigterm link_fails compile_sigint (the driver, host profile),
# qemu_sigterm qemu_parallel_sigterm qemu_timeout qemu_crash (q7-run --target=emulated
# on the emulated fixture images, with Q7CC_QEMU naming the fake).
set -u
q7cc=$1 work=$2 case=$3 fixture=${4:-}
. "$(dirname "$0")/proc_lib.sh"

# interrupt SIG N: once N fakes run, sends SIG to the background job $bg
# alone, which must die by SIG and leave no process, no temporary and
# nothing in $PIDS/finished.
interrupt() {
	await "$2"
	kill "-$1" "$bg"
	ended "$bg"
	local rc=$? want=$((128 + $(kill -l "$1")))
	bg=
	[ $rc = $want ] || fail "status $rc, want $want (died by SIG$1): $(cat err)"
	none_left
	no_temps
	[ ! -e "$PIDS/finished" ] || fail "a stopped tool finished: $(cat "$PIDS/finished")"
}

# A compiler driver that is slow: it records itself, runs its "cc1plus"
# or "ld" (recorded too) in the foreground, then writes -o. With FAIL_ON
# set, the link whose output contains it fails once the seven others
# run their "ld". A plain -c is
# quick unless SLOW_COMPILE is set.
fake_cxx() {
	cat > cxx <<'SH'
#!/bin/sh
out= prev=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
case " $* " in
*" -c "*) [ -n "${SLOW_COMPILE:-}" ] || { : > "$out"; exit 0; } ;;
esac
record() { echo "$2" > "$PIDS/.$1"; mv "$PIDS/.$1" "$PIDS/$1"; }
record driver.$$.pid $$
if [ -n "${FAIL_ON:-}" ]; then
	case $out in *"$FAIL_ON"*)
		# once the seven others are deep in their work
		while [ "$(ls "$PIDS" | grep -c '^sub\..*\.pid$')" -lt 7 ]; do sleep 0.05; done
		echo "fake: $out: failed" >&2
		exit 1 ;;
	esac
fi
sh -c 'echo $$ > "$0.tmp"; mv "$0.tmp" "$0"; exec sleep 60' "$PIDS/sub.$$.pid"
echo "$out" >> "$PIDS/finished"
: > "$out"
SH
	chmod +x cxx
}

kernel_object() {
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile k.cpp"
}

no_outputs() {
	ls libk* 2> /dev/null && fail "outputs left: $(ls libk*)"
	[ ! -e "$PIDS/finished" ] || fail "a stopped tool finished: $(cat "$PIDS/finished")"
}

# A fake qemu-system-xtensa that ignores SIGTERM and SIGINT: only the
# SIGKILL q7-run sends stops it. With CRASH set it dies by SIGSEGV.
fake_qemu() {
	# The fake notes its pid in the test's folder, which a confined QEMU
	# may not write (emu_confine.h); e2e.emulated.semihosting tests the
	# confinement with the real one.
	export Q7CC_SEMIHOSTING_FILES=1
	cat > qemu <<'SH'
#!/bin/sh
trap '' TERM INT HUP
echo $$ > "$PIDS/.qemu.$$"; mv "$PIDS/.qemu.$$" "$PIDS/qemu.$$.pid"
[ -n "${CRASH:-}" ] && kill -SEGV $$
exec sleep 60
SH
	chmod +x qemu
}

case $case in
link_sigterm)
	# SIGTERM to q7cc alone while its eight links run: every link and
	# every process under it stops, q7cc waits for them, removes its
	# outputs and temporaries, and dies by SIGTERM.
	kernel_object
	fake_cxx
	TMPDIR=$PWD/tmp Q7CC_JOBS=8 Q7CC_REAL_CXX=$PWD/cxx \
		"$q7cc" --q7-toolchain=host --q7-multicore -shared k.o -o libk.so 2> err &
	bg=$!
	interrupt TERM 16
	no_outputs
	grep -q 'killed by signal' err && fail "reported its own interrupt: $(cat err)"
	;;
link_fails)
	# One of eight parallel links fails: the seven others are stopped and
	# waited for before the outputs go, and none finishes afterwards.
	kernel_object
	fake_cxx
	TMPDIR=$PWD/tmp Q7CC_JOBS=8 Q7CC_REAL_CXX=$PWD/cxx FAIL_ON=_cpu3.so \
		"$q7cc" --q7-toolchain=host --q7-multicore -shared k.o -o libk.so 2> err
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want the failed link's 1: $(cat err)"
	grep -q 'libk_cpu3.so: failed' err || fail "the link's message is lost: $(cat err)"
	grep -q 'killed by signal' err && fail "reported the links it stopped: $(cat err)"
	[ "$(count)" = 15 ] || fail "not eight links and seven ld: $(ls "$PIDS")"
	none_left
	no_outputs
	no_temps
	;;
compile_sigint)
	# SIGINT to q7cc alone during a compile: the compiler and its cc1plus
	# stop, no object is left, q7cc dies by SIGINT. (Job control, so that
	# q7cc does not start with SIGINT ignored, as a background job would.)
	fake_cxx
	printf 'int f(int x) { return x; }\n' > a.cpp
	set -m
	TMPDIR=$PWD/tmp SLOW_COMPILE=1 Q7CC_REAL_CXX=$PWD/cxx \
		"$q7cc" --q7-toolchain=gnu -c a.cpp -o a.o 2> err &
	bg=$!
	set +m
	interrupt INT 2
	[ ! -e a.o ] || fail "a.o written"
	;;
qemu_sigterm | qemu_parallel_sigterm)
	# SIGTERM to q7-run alone while QEMU runs (one QEMU, or eight at once
	# with Q7CC_EMU_JOBS): no QEMU is left, nor the temporary directory,
	# and q7-run dies by SIGTERM.
	fake_qemu
	n=1
	args=("$fixture/fk.so" spin)
	if [ "$case" = qemu_parallel_sigterm ]; then
		n=8
		args=(--cores=8 --out-shape=2 --out-dtype=int32 "$fixture/fk_mc.so" race)
		export Q7CC_EMU_JOBS=8
	fi
	TMPDIR=$PWD/tmp Q7CC_QEMU=$PWD/qemu "$(dirname "$q7cc")/q7-run" --target=emulated \
		"${args[@]}" -o out.npy 2> err &
	bg=$!
	interrupt TERM $n
	[ ! -e out.npy ] || fail "out.npy written"
	;;
qemu_timeout)
	# --timeout: QEMU is killed and waited for, q7-run says so and fails,
	# nothing is left.
	fake_qemu
	TMPDIR=$PWD/tmp Q7CC_QEMU=$PWD/qemu "$(dirname "$q7cc")/q7-run" --target=emulated \
		--timeout=1 "$fixture/fk.so" spin -o out.npy 2> err
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want 1: $(cat err)"
	grep -q 'spin: timed out after 1 s on the emulated core (QEMU stopped)' err ||
		fail "message: $(cat err)"
	[ "$(count)" = 1 ] || fail "QEMU did not start: $(cat err)"
	none_left
	[ ! -e out.npy ] || fail "out.npy written"
	no_temps
	;;
qemu_crash)
	# QEMU dies by a signal: said by name, nothing left.
	fake_qemu
	TMPDIR=$PWD/tmp CRASH=1 Q7CC_QEMU=$PWD/qemu "$(dirname "$q7cc")/q7-run" \
		--target=emulated "$fixture/fk.so" spin -o out.npy 2> err
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want 1: $(cat err)"
	grep -q 'the emulated core gave no result (qemu-system-xtensa killed by signal SIGSEGV' err ||
		fail "message: $(cat err)"
	none_left
	[ ! -e out.npy ] || fail "out.npy written"
	no_temps
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "ok: $case"
