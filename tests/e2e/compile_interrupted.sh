#!/bin/bash
# An interrupted compile leaves no object: the compiler
# writes into q7cc's temporary folder and q7cc renames the object to -o
# only once the records are in, so make never trusts an object without
# them; a signal stops an analysis at once, however long libclang would
# take. The source includes a FIFO, so both the compiler and libclang wait
# on it until the test writes it: a compile as slow as the test wants.
#   compile_interrupted.sh Q7CC_HOST WORKDIR CASE
# Cases:
#   analysis_sigterm  SIGTERM to q7cc while its analysis (in-process) and
#                     the compiler wait: q7cc dies by it at once, the
#                     compiler with it; no object, no temporary.
#   group_sigkill     SIGKILL to q7cc's whole process group while both
#                     wait: within a second the compiler, which leads a
#                     group of its own, and cc1plus under it are gone
#                     too (q7cc's guard kills their group), and -o is
#                     never written.
#   server_time_limit a source only libclang finds slow (it includes the
#                     FIFO under __clang__), analysed by the analysis
#                     server with a 2 s limit: the compile fails with a
#                     message once the server gives up, and does not
#                     start the analysis again in-process (item 9).
#   make_dep          -MD names the dependency file and its target after
#                     -o, as without q7cc, though the compiler writes a
#                     temporary object.
set -u
q7=$1 work=$2 case=$3
. "$(dirname "$0")/../support/proc_lib.sh"
export TMPDIR=$PWD/tmp Q7CC_ANALYSIS_SERVER=0
xdg=
trap 'cleanup; [ -z "$xdg" ] || rm -rf "$xdg"' EXIT

cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL at::Tensor k(const at::Tensor &x) { return x; }
#include "slow.h"
CPP

# await_line FILE TEXT: until FILE holds TEXT (30 s at most).
await_line() {
	for _ in $(seq 600); do
		grep -q "$2" "$1" 2> /dev/null && return 0
		sleep 0.05
	done
	fail "no '$2' in $1: $(cat "$1")"
}

# release: the FIFO's reader, if any, gets its text (never blocks).
release() { timeout 5 sh -c 'echo "int slow_h;" > slow.h' 2> /dev/null || true; }

case $case in
analysis_sigterm)
	mkfifo slow.h
	"$q7" -v -c k.cpp -o k.o 2> err &
	bg=$!
	await_line err '^# q7cc: analyze k.cpp'
	kill -TERM "$bg"
	ended "$bg"
	rc=$?
	bg=
	release
	[ "$rc" = 143 ] || fail "status $rc, want 143 (died by SIGTERM): $(cat err)"
	[ ! -e k.o ] || fail "an object after SIGTERM"
	no_temps
	;;
group_sigkill)
	mkfifo slow.h
	set -m # the compile leads a process group of its own, as under a shell
	"$q7" -v -c k.cpp -o k.o 2> err &
	bg=$!
	set +m
	await_line err '^# q7cc: analyze k.cpp'
	# The compiler: q7cc's child that is not q7cc (the guard is a fork).
	self=$(readlink "/proc/$bg/exe")
	cxx=
	for p in $(ps -o pid= --ppid "$bg"); do
		[ "$(readlink "/proc/$p/exe")" = "$self" ] || cxx=$p
	done
	[ -n "$cxx" ] || fail "no compiler under q7cc"
	# Its own compiler (cc1plus), waiting on the FIFO too.
	for _ in $(seq 600); do
		[ -n "$(ps -o pid= --ppid "$cxx")" ] && break
		sleep 0.05
	done
	[ -n "$(ps -o pid= --ppid "$cxx")" ] || fail "no cc1plus under the compiler"
	# Every process of the compile, each recorded for the trap to kill.
	tree() {
		local c
		for c in $(ps -o pid= --ppid "$1"); do
			echo "$c"
			tree "$c"
		done
	}
	procs=$(tree "$bg")
	for p in $procs; do echo "$p" > "$PIDS/$p.pid"; done
	kill -KILL -- "-$bg"
	wait "$bg" 2> /dev/null
	bg=
	# Within a second, nothing of the compile runs: no compiler is left
	# to finish k.o after q7cc, nor cc1plus to fill $TMPDIR.
	for _ in $(seq 20); do
		left=
		for p in $procs; do
			alive "$p" && left="$left $p:$(cat "/proc/$p/comm" 2> /dev/null)"
		done
		[ -z "$left" ] && break
		sleep 0.05
	done
	[ -z "$left" ] || { release; fail "still running a second after q7cc's group was killed:$left"; }
	[ ! -e k.o ] || fail "k.o was written after q7cc was killed: an object without its records"
	;;
server_time_limit)
	unset Q7CC_ANALYSIS_SERVER
	# A socket's path has 108 bytes at most: the folder is short.
	xdg=$(mktemp -d /tmp/q7xdg.XXXXXX)
	export XDG_RUNTIME_DIR=$xdg Q7CC_ANALYSIS_TIME_LIMIT=2 Q7CC_ANALYSIS_SERVER_IDLE=3
	echo "int slow_h;" > slow.h
	# The first compile starts the server (and analyses in-process).
	"$q7" -c k.cpp -o first.o || fail "the first compile"
	for _ in $(seq 600); do
		[ -n "$(find "$xdg" -type s)" ] && break
		sleep 0.05
	done
	[ -n "$(find "$xdg" -type s)" ] || fail "no analysis server started"
	rm slow.h
	mkfifo slow.h
	sed 's/^#include "slow.h"$/#ifdef __clang__\n#include "slow.h"\n#endif/' k.cpp > clang_slow.cpp
	"$q7" -c clang_slow.cpp -o slow.o 2> err &
	bg=$!
	ended "$bg"
	rc=$?
	bg=
	release
	[ "$rc" = 1 ] || fail "status $rc, want 1: $(cat err)"
	grep -q "clang_slow.cpp: error: libclang's analysis did not end within 2 s" err ||
		fail "no message: $(cat err)"
	[ ! -e slow.o ] || fail "an object without its analysis"
	# The server ends once idle.
	for _ in $(seq 600); do
		[ -z "$(find "$xdg" -type s)" ] && break
		sleep 0.05
	done
	[ -z "$(find "$xdg" -type s)" ] || fail "the analysis server is still there"
	;;
make_dep)
	echo "int slow_h;" > slow.h
	"$q7" -MD -c k.cpp -o k.o || fail "the compile"
	[ -s k.o ] && [ -s k.d ] || fail "no k.o or k.d"
	head -1 k.d | grep -q '^k\.o: k\.cpp' || fail "k.d's target: $(head -1 k.d)"
	"$q7" --q7-print-schema k.o | grep -q '^k(Tensor x) -> Tensor$' || fail "k.o lacks its record"
	mkdir sub
	"$q7" -MMD -MT custom -c k.cpp -o sub/k.o || fail "the compile with -MT"
	head -1 sub/k.d | grep -q '^custom: k\.cpp' || fail "sub/k.d's target: $(head -1 sub/k.d)"
	no_temps
	;;
*) fail "unknown case $case" ;;
esac
echo "$case: ok"
