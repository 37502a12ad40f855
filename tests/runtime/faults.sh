#!/bin/bash
# q7-run on the host, when a kernel misbehaves: one line that names the
# op, the core, and what happened (the signal, the tensor and the offset
# of a guard page, the offset in the image; an exit and its status; a
# time-out); exit status 1; no output file. In the isolated mode (the
# default) and, for faults, in-process (--in-process). The same kernels
# behaving run fine, so the checks are not blind.
#   faults.sh Q7CC Q7RUN WORKDIR
set -u
q7cc=$1 q7run=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
fail() { echo "FAIL: $*" >&2; exit 1; }

# libf: kernels that fault (8 per-core images, and one); libm: kernels
# that misbehave otherwise (one image, run on 1 or 8 cores); libl: kernels
# whose results lie about their memory.
"$q7cc" --q7-toolchain=host -c "$here/kernels/faults.cpp" -o faults.o || fail "compile faults.cpp"
"$q7cc" --q7-toolchain=host -shared --q7-multicore faults.o -o libf.so || fail "link libf.so"
"$q7cc" --q7-toolchain=host -c "$here/kernels/misbehave.cpp" -o misbehave.o || fail "compile misbehave.cpp"
"$q7cc" --q7-toolchain=host -shared misbehave.o -o libm.so || fail "link libm.so"
"$q7cc" --q7-toolchain=host -c "$here/kernels/lying.cpp" -o lying.o || fail "compile lying.cpp"
"$q7cc" --q7-toolchain=host -shared lying.o -o libl.so || fail "link libl.so"
npy() { PYTHONPATH=$here python3 -c "import sys, npytool; $1" "${@:2}"; }
npy "npytool.write(sys.argv[1], '<i4', (4,), [1, 2, 3, 4])" x.npy || fail "npy"
read_y() { npy "print(*npytool.read(sys.argv[1])[2])" y.npy; }

# ok WANT -- q7-run ARGS: runs, and y.npy holds WANT.
ok() {
	local want=$1
	shift 2
	rm -f y.npy
	"$q7run" "$@" -o y.npy 2> err || fail "$*: $(cat err)"
	local got
	got=$(read_y)
	[ "$got" = "$want" ] || fail "$*: gave $got, want $want"
}

# Controls: the same kernels, behaving.
ok "0 0 0 0" -- libf_cpu0.so bad_store x.npy 5
ok "0 1 1 2" -- libf_cpu0.so divide x.npy 2
ok "4 0 0 0" -- libf_cpu0.so peek x.npy 3
# Each core has its own copy of an image's globals, as on the device: one
# image on 8 cores, each counting its own calls.
ok "1 1 1 1 1 1 1 1" -- --cores=8 --out-shape=8 --out-dtype=int32 libm.so count_calls x.npy
ok "1 1 1 1 1 1 1 1" -- --in-process --cores=8 --out-shape=8 --out-dtype=int32 libm.so count_calls x.npy

# The table: status | what the one line must say (needles, ';'-separated)
# | q7-run's arguments. "-" before the arguments: in-process as well.
mc="--cores=8 --out-shape=4 --out-dtype=int32"
rows=$(cat <<ROWS
1|q7-run: error: bad_store: the kernel crashed: SIGSEGV;address 0x10;, at libf_cpu0.so+0x|- libf_cpu0.so bad_store x.npy -1
1|divide: the kernel crashed: SIGFPE;, at libf_cpu0.so+0x|- libf_cpu0.so divide x.npy 0
1|raise_abort: the kernel crashed: SIGABRT|- libf_cpu0.so raise_abort x.npy -1
1|q7-run: error: give_up: abort() was called (on core 0)|- libf_cpu0.so give_up x.npy -1
1|q7-run: error: core 5: give_up: abort() was called|- $mc libf.so give_up x.npy 5
1|bad_store: the kernel crashed on core 3: SIGSEGV;, at libf_cpu3.so+0x|- $mc libf.so bad_store x.npy 3
1|q7-run: error: poke: the kernel wrote into its input argument 1 (x), at byte offset 12; a kernel never changes its inputs|- libf_cpu0.so poke x.npy 3
1|q7-run: error: poke: the kernel wrote into its input argument 1 (x), at byte offset 0;|- --guard=start libf_cpu0.so poke x.npy 0
1|q7-run: error: poke: the kernel wrote past the end of its input argument 1 (x), at byte offset 16 (it has 16 bytes)|- libf_cpu0.so poke x.npy 4
1|q7-run: error: poke: the kernel wrote past the end of its input argument 1 (x), at byte offset 20 (it has 16 bytes)|- libf_cpu0.so poke x.npy 5
1|peek: the kernel crashed: SIGSEGV;: offset 16 of argument 1 (x), past its end (16 bytes)|libf_cpu0.so peek x.npy 4
1|q7-run: error: poke: the kernel wrote before the start of its input argument 1 (16 bytes), at byte offset -4;|--guard=start libf_cpu0.so poke x.npy -1
1|peek: the kernel crashed: SIGSEGV;: offset -8 of argument 1 (x), before its start|--guard=start libf_cpu0.so peek x.npy -2
1|q7-run: error: poke: the kernel wrote past the end of its input argument 1 (x), at byte offset 8000 (it has 16 bytes)|- libf_cpu0.so poke x.npy 2000
1|q7-run: error: core 3: poke_dst: the kernel wrote past the end of the destination (get_dst_tensor(): 16 bytes), at byte offset 16;|- $mc libf.so poke_dst x.npy 3
1|q7-run: error: call_exit: the kernel exited with status 0 on core 0|libm.so call_exit x.npy 0
1|q7-run: error: call_exit: the kernel exited with status 7 on core 0|libm.so call_exit x.npy 7
1|q7-run: error: call_underscore_exit: the kernel exited with status 3 on core 0|libm.so call_underscore_exit x.npy 3
1|q7-run: error: spin: timed out after 1 s on core 0;--timeout=SECONDS|--timeout=1 libm.so spin x.npy -1
1|q7-run: error: spin: timed out after 1 s on core 6|--timeout=1 $mc libm.so spin x.npy 6
2|q7-run: error: --check-uninit needs a destination, --out-shape=|--check-uninit libm.so spin x.npy -1
2|q7-run: error: --timeout cannot stop a kernel run --in-process|--in-process --timeout=1 libm.so spin x.npy -1
1|q7-run: error: grad_as_256: accessor: index 53 is out of bounds for dimension 1 with size 53|- libm.so grad_as_256 x.npy
1|q7-run: error: grow_dst: the returned tensor does not fit the destination (1 dims, 65536 elements of 4 bytes, where the destination holds 16 bytes)|- --out-shape=4 --out-dtype=int32 libl.so grow_dst x.npy
1|q7-run: error: grow_dst: the returned tensor does not fit the destination|- $mc libl.so grow_dst x.npy
1|q7-run: error: grow_result: the returned tensor's bytes are incomplete (4294836225 elements of 4 bytes|- libl.so grow_result x.npy
1|q7-run: error: close_all: the kernel closed the descriptor its process answers q7-run on (core 0)|libl.so close_all x.npy
ROWS
)

# One row, one way: the status, one line with every needle, no output,
# and within the time-out (q7-run ends within --timeout, plus its start).
check() {
	local want=$1 needles=$2
	shift 2
	rm -f y.npy
	local t0=$SECONDS
	"$q7run" "$@" -o y.npy 2> err
	local rc=$? took=$((SECONDS - t0))
	[ "$rc" = "$want" ] || fail "$*: status $rc, want $want: $(cat err)"
	local IFS=';' needle
	for needle in $needles; do
		grep -qF -- "$needle" err || fail "$*: no '$needle' in: $(cat err)"
	done
	[ "$(wc -l < err)" = 1 ] || fail "$*: more than one line: $(cat err)"
	[ ! -e y.npy ] || fail "$*: an output file was written"
	[ "$took" -le 4 ] || fail "$*: took $took s"
}

n=0
while IFS='|' read -r want needles args; do
	both=false
	case $args in "- "*) both=true; args=${args#- } ;; esac
	# shellcheck disable=SC2086 # the arguments are words
	check "$want" "$needles" $args
	if $both; then
		# shellcheck disable=SC2086
		check "$want" "$needles" --in-process $args
	fi
	n=$((n + 1))
done <<< "$rows"
[ "$n" -ge 23 ] || fail "only $n rows ran"

# The offset is the faulting instruction's, in the library's own
# addresses: addr2line (binutils, beside the host compiler) finds the kernel.
"$q7run" libf_cpu0.so bad_store x.npy -1 -o y.npy 2> err
off=$(sed -n 's/.*libf_cpu0.so+\(0x[0-9a-f]*\).*/\1/p' err)
[ -n "$off" ] || fail "no offset in: $(cat err)"
addr2line -f -C -e libf_cpu0.so "$off" | head -1 | grep -q 'bad_store' ||
	fail "offset $off is not in bad_store: $(addr2line -f -C -e libf_cpu0.so "$off")"

# A thread of the kernel's that rewrites the frame while q7-run reads it:
# the call works (q7-run read the frame first) or fails with
# one line naming the op; never a bigger read or allocation than the
# memory the result may come from. In-process, twenty times: the thread
# runs on after the call, and q7-run crashed unloading the library under
# it in about one run in seven.
for how in "" $(printf -- '--in-process %.0s' $(seq 20)); do
	rm -f y.npy
	"$q7run" $how libl.so rewrite_frame x.npy -o y.npy 2> err
	rc=$?
	if [ $rc = 0 ]; then
		[ "$(read_y)" = "0 0 0 0" ] || fail "rewrite_frame $how: gave $(read_y)"
	else
		[ $rc = 1 ] && [ "$(wc -l < err)" = 1 ] && [ ! -e y.npy ] &&
			grep -q "^q7-run: error: rewrite_frame: the returned tensor's bytes are incomplete" err ||
			fail "rewrite_frame $how: status $rc: $(cat err)"
	fi
done

# A kernel that forks: the parent's result is the output, written once;
# the child (which would sleep for ever, or return as the parent does)
# is gone when q7-run is.
for child_returns in 0 1; do
	ok "1 0 0 0" -- libm.so forks x.npy $child_returns
	left=$(ps -eo pid=,args= | grep -F "libm.so forks x.npy $child_returns" | grep -v grep)
	[ -z "$left" ] || fail "forks $child_returns left processes running: $left"
done
# The child's writes stay its own: the parent, which waits for it, returns
# what it wrote itself.
ok "1 0 0 0" -- libm.so fork_and_wait x.npy
echo "ok: $n kinds of misbehaviour reported"
