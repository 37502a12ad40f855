#!/bin/bash
# e2e.sccache_build: examples/ops built by CMake with CXX=q7cc-gnu under
# sccache (the compiler launcher) with a local-disk cache in the work
# folder, by a server this test starts on its own port and stops. A first
# build misses and fills the cache; a second, in another folder, must hit
# for every source, and its objects' records and packed images must be a
# local build's (without sccache), byte for byte.
#   sccache_build.sh STAGE_BIN OPS_DIR WORKDIR
set -euo pipefail
bin=$1 ops=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sccache > /dev/null || fail "sccache is not installed (Debian package sccache; scripts/setup-deps)"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true

# The cache, the server's port and its configuration are this test's own;
# an idle server stops by itself within a minute should the test be killed.
: > sccache.conf
export SCCACHE_CONF=$work/sccache.conf SCCACHE_DIR=$work/cache SCCACHE_IDLE_TIMEOUT=60
export SCCACHE_ERROR_LOG=$work/server.log
started=
stop() {
	[ -n "$started" ] && sccache --stop-server > /dev/null 2>&1 || true
}
trap stop EXIT
for _ in 1 2 3 4 5; do
	SCCACHE_SERVER_PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	export SCCACHE_SERVER_PORT
	if sccache --start-server > start.log 2>&1; then
		started=1
		break
	fi
done
[ -n "$started" ] || { cat start.log server.log 2> /dev/null; fail "sccache --start-server"; }

hits() { sccache --show-stats | sed -n 's/^Cache hits  *\([0-9][0-9]*\)$/\1/p'; }
misses() { sccache --show-stats | sed -n 's/^Cache misses  *\([0-9][0-9]*\)$/\1/p'; }
q7=$bin/q7cc-gnu
n=$(cd "$ops" && ls *.cpp | wc -l)
for b in first second; do
	CXX="$q7" cmake -S "$ops" -B $b -DCMAKE_CXX_COMPILER_LAUNCHER=sccache > configure-$b.log 2>&1 ||
		{ cat configure-$b.log; fail "configure under sccache ($b)"; }
	cmake --build $b -j2 > build-$b.log 2>&1 || { cat build-$b.log; fail "build under sccache ($b)"; }
	if [ $b = first ]; then
		[ "$(hits)" = 0 ] && [ "$(misses)" = "$n" ] ||
			{ sccache --show-stats; fail "the first build: not $n misses and no hit"; }
	fi
done
[ "$(hits)" = "$n" ] && [ "$(misses)" = "$n" ] ||
	{ sccache --show-stats; fail "the second build: not a hit for each of the $n sources"; }
CXX="$q7" cmake -S "$ops" -B local > configure-local.log 2>&1 || { cat configure-local.log; fail "configure"; }
cmake --build local -j2 > build-local.log 2>&1 || { cat build-local.log; fail "local build"; }

# What the hits gave: the records and images of a build without sccache.
"$here/same_as_local.sh" "$bin" local second
"$here/same_as_local.sh" "$bin" local first
echo "sccache: ok ($n hits of $n)"
