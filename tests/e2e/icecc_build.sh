#!/bin/bash
# e2e.icecc_build: examples/ops built by CMake with CXX=q7cc-gnu-g++ under
# icecream (icecc, the compiler launcher), against an icecc-scheduler and
# two iceccd that this test starts and stops: "local", the client's
# (--no-remote), and "remote", which compiles in the environment
# q7cc-icecc-env made. icecc runs q7cc -E here and sends the text; the
# remote iceccd compiles it in its chroot. icecc falls back to a local
# compile on any remote failure, silently: the client's and the remote
# daemon's logs must show every compile done remotely, and the packed
# images and the objects' records must be those of a local build.
# Then cproj (a C++ kernel calling a C helper, extern "C") with
# CC=q7cc-gnu-gcc: icecc sends helper.c as C, the remote compiles it as C
# in the same environment, and the image links and runs on the emulated
# core. q7cc runs from a copy of the stage under a folder whose name has a
# space, a quote and $(...): the environment's scripts quote it.
#
# It all runs in private network, PID and mount namespaces (unshare): the
# daemons listen on that namespace's 127.0.0.1 only, cannot meet a
# system-wide scheduler or iceccd (nor take their ports), and die with the
# test however it ends. iceccd needs root (chroot).
#   icecc_build.sh STAGE_BIN BUILD_DIR OPS_DIR WORKDIR (the C project: cproj/ here)
set -euo pipefail
bin=$1 build=$2 ops=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "${Q7CC_ICECC_NS:-}" != 1 ]; then
	for t in icecc iceccd icecc-scheduler; do
		command -v $t > /dev/null || fail "$t is not installed (Debian package icecc; scripts/setup-deps)"
	done
	for t in unshare ip; do
		command -v $t > /dev/null || fail "$t is not installed (Debian packages util-linux, iproute2)"
	done
	[ "$(id -u)" = 0 ] || fail "iceccd compiles in a chroot and needs root; run as root (CI does)"
	id icecc > /dev/null 2>&1 || fail "no user icecc for iceccd's compiles (the icecc package makes it)"
	# The namespace's init is this script: when it exits, the kernel ends
	# every daemon in the namespace; --kill-child ends it with unshare.
	Q7CC_ICECC_NS=1 exec unshare --net --pid --fork --mount-proc --kill-child "$here/icecc_build.sh" "$@"
fi

ip link set lo up
# The scheduler gives no job to a daemon whose machine looks busy (CPU
# load from /proc/stat), and a shared CI machine often is: in this
# namespace, iceccd reads a /proc/stat that never moves, which it takes
# for an idle machine.
stat=$(mktemp /tmp/q7cc-icecc-stat.XXXXXX)
printf 'cpu  100 0 100 100000 0 0 0 0 0 0\n' > "$stat"
chmod 644 "$stat"
mount --bind "$stat" /proc/stat
rm -f "$stat"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE ICECC ICECC_VERSION ICECC_CC ICECC_CXX ICECC_REMOTE_CPP || true
# (No double quote: CMake cannot take one in a compiler's path.)
odd="$work/q7 'cc \$(touch pwned)"
mkdir -p "$odd"
cp -a "$bin/.." "$odd/stage"
bin=$odd/stage/bin

# The daemons' files: the icecc user writes its logs and unpacks the
# environment there.
srv=$(mktemp -d /tmp/q7cc-icecc.XXXXXX)
chmod 777 "$srv"
pids=()
stop() {
	for p in "${pids[@]}"; do
		kill "$p" 2> /dev/null || true
	done
	for p in "${pids[@]}"; do
		wait "$p" 2> /dev/null || true
	done
	cp "$srv"/*.log "$work/" 2> /dev/null || true
	rm -rf "$srv"
}
trap stop EXIT
# As the namespace's init, this shell would ignore these signals.
trap 'exit 143' TERM INT HUP

# Refused: a profile icecream cannot distribute, a folder that is none.
! "$bin/q7cc-icecc-env" xt "$work" 2> err.txt || fail "q7cc-icecc-env xt succeeded"
grep -q '^q7cc-icecc-env: xt: no such profile for icecream' err.txt || fail "q7cc-icecc-env xt: $(cat err.txt)"
! "$bin/q7cc-icecc-env" gnu "$work/none" 2> err.txt || fail "q7cc-icecc-env gnu none succeeded"
grep -q "^q7cc-icecc-env: $work/none: not a folder" err.txt || fail "q7cc-icecc-env gnu none: $(cat err.txt)"
env=$("$bin/q7cc-icecc-env" gnu "$work") || fail "q7cc-icecc-env gnu"
[ "$(ls -A "$work" | grep -c 'q7cc-icecc-env')" = 0 ] || fail "q7cc-icecc-env left a temporary in $work"
tar tzf "$env" > env.list || fail "$env: not a tarball"
grep -qx 'usr/bin/g++' env.list && grep -qx 'usr/bin/gcc' env.list || fail "$env has no usr/bin/g++ or gcc"

net=q7cc-test sched=8765
touch "$srv/scheduler.log" "$srv/local.log" "$srv/remote.log"
chmod 666 "$srv"/*.log
icecc-scheduler -p $sched -n $net -l "$srv/scheduler.log" -vvv 2>> "$work/daemons.stderr" &
pids+=($!)
# daemon NAME PORT [ARG...]: an iceccd that finds the scheduler at once
# (-s) and takes its clients on its own socket.
daemon() {
	local name=$1 port=$2
	shift 2
	ICECC_TEST_SOCKET=$srv/$name.sock iceccd -b "$srv/envs-$name" -l "$srv/$name.log" -n $net -N $name \
		-s 127.0.0.1:$sched -p "$port" -m 2 -vvv "$@" 2>> "$work/daemons.stderr" &
	pids+=($!)
}
daemon local 10246 --no-remote
daemon remote 10247

# Ready when the scheduler lists both daemons (its text port, 8766).
listcs() {
	(exec 3<> /dev/tcp/127.0.0.1/$((sched + 1)) && printf 'listcs\nquit\n' >&3 && timeout 5 cat <&3) 2> /dev/null || true
}
ready=
for _ in $(seq 300); do
	hosts=$(listcs)
	if grep -q '^ *remote (127.0.0.1:10247)' <<< "$hosts" && grep -q '^ *local ' <<< "$hosts"; then
		ready=1
		break
	fi
	for p in "${pids[@]}"; do
		kill -0 "$p" 2> /dev/null || { cat "$work/daemons.stderr" "$srv"/*.log; fail "a daemon exited"; }
	done
	sleep 0.1
done
[ -n "$ready" ] || { echo "$hosts"; cat "$srv"/*.log; fail "the daemons did not log in to the scheduler"; }

# ICECC_TEST_REMOTEBUILD and ICECC_PREFERRED_HOST: icecream's own test
# knobs, so that the one machine's compiles go to "remote".
export ICECC_VERSION=$env ICECC_TEST_SOCKET=$srv/local.sock ICECC_TEST_REMOTEBUILD=1
export ICECC_PREFERRED_HOST=remote ICECC_DEBUG=debug ICECC_LOGFILE=$work/icecc.log
q7=$bin/q7cc-gnu-g++
CXX="$q7" cmake -S "$ops" -B remote -DCMAKE_CXX_COMPILER_LAUNCHER=icecc > configure.log 2>&1 ||
	{ cat configure.log; fail "configure under icecc"; }
: > icecc.log
cmake --build remote -j2 > build.log 2>&1 || { cat build.log; tail -40 icecc.log; fail "build under icecc"; }
unset ICECC_VERSION ICECC_TEST_SOCKET ICECC_TEST_REMOTEBUILD ICECC_PREFERRED_HOST ICECC_DEBUG ICECC_LOGFILE
CXX="$q7" cmake -S "$ops" -B local > configure-local.log 2>&1 || { cat configure-local.log; fail "configure"; }
cmake --build local -j2 > build-local.log 2>&1 || { cat build-local.log; fail "local build"; }

# Every source preprocessed by q7cc here and compiled by "remote".
sources=$(cd "$ops" && ls *.cpp)
n=$(echo "$sources" | wc -w)
! grep -n 'building_local\|local build forced\|got exception' icecc.log ||
	fail "icecc compiled here instead (icecc.log above)"
for s in $sources; do
	grep -q "preparing source to send: $q7 .* -E $ops/$s" icecc.log ||
		fail "icecc.log: $s was not preprocessed by q7cc -E for a remote compile"
done
r=$(grep -c 'Have to use host 127.0.0.1:10247' icecc.log || true)
[ "$r" -eq "$n" ] || fail "icecc.log: $r of $n compiles sent to remote"
# iceccd writes its log as it goes; SIGHUP makes it flush.
kill -HUP "${pids[2]}"
done_=0
for _ in $(seq 100); do
	done_=$(grep -c 'Remote compilation completed with exit code 0' "$srv/remote.log" || true)
	[ "$done_" -ge "$n" ] && break
	sleep 0.1
done
[ "$done_" -eq "$n" ] || { tail -40 "$srv/remote.log"; fail "remote.log: $done_ of $n compiles done there"; }

# The same records and images as the local build.
"$here/same_as_local.sh" "$bin" local remote

# C through icecream: helper.c preprocessed here as C and compiled there
# as C (as C++ it stops at an #error, and its extern "C" function would
# be mangled), then the image runs.
export ICECC_VERSION=$env ICECC_TEST_SOCKET=$srv/local.sock ICECC_TEST_REMOTEBUILD=1
export ICECC_PREFERRED_HOST=remote ICECC_DEBUG=debug ICECC_LOGFILE=$work/icecc-c.log
CC="$bin/q7cc-gnu-gcc" CXX="$q7" cmake -S "$here/cproj" -B cproj -DCMAKE_C_COMPILER_LAUNCHER=icecc \
	-DCMAKE_CXX_COMPILER_LAUNCHER=icecc > configure-c.log 2>&1 || { cat configure-c.log; fail "configure cproj"; }
: > icecc-c.log
cmake --build cproj > build-c.log 2>&1 || { cat build-c.log; tail -40 icecc-c.log; fail "build cproj under icecc"; }
unset ICECC_VERSION ICECC_TEST_SOCKET ICECC_TEST_REMOTEBUILD ICECC_PREFERRED_HOST ICECC_DEBUG ICECC_LOGFILE
! grep -n 'building_local\|local build forced\|got exception' icecc-c.log ||
	fail "icecc compiled cproj here instead (icecc-c.log above)"
grep -q "preparing source to send: $bin/q7cc-gnu-gcc .* -E .*helper.c" icecc-c.log ||
	fail "icecc-c.log: helper.c was not preprocessed by q7cc-gnu-gcc for a remote compile"
r=$(grep -c 'Have to use host 127.0.0.1:10247' icecc-c.log || true)
[ "$r" -eq 2 ] || fail "icecc-c.log: $r of 2 compiles sent to remote"
kill -HUP "${pids[2]}"
for _ in $(seq 100); do
	done_=$(grep -c 'Remote compilation completed with exit code 0' "$srv/remote.log" || true)
	[ "$done_" -ge $((n + 2)) ] && break
	sleep 0.1
done
[ "$done_" -eq $((n + 2)) ] || { tail -40 "$srv/remote.log"; fail "remote.log: cproj's compiles not done there"; }
xtensa-lx106-elf-nm cproj/CMakeFiles/cops.dir/helper.c.o | grep -q ' T helper_affine$' ||
	fail "helper.c's function is not helper_affine (compiled as C++?)"
python3 "$here/npy.py" write x.npy
"$bin/q7-run" --target=emulated cproj/libcops.so c_affine x.npy -o y.npy || fail "q7-run c_affine"
got=$(python3 "$here/npy.py" read y.npy)
[ "$got" = "-1.5 6 -6.5 12.25" ] || fail "c_affine gave '$got'"
[ -z "$(find "$work" "$srv" -name pwned)" ] || fail "a command in the install's name ran"
echo "icecc: ok ($n C++ compiles and cproj's C and C++ on remote, 127.0.0.1:10247)"
