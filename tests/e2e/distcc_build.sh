#!/bin/bash
# e2e.distcc_build: examples/ops (deep.cpp has a Q7_KERNEL_STACK kernel)
# built by CMake with CXX=q7cc-gnu under distcc (the compiler launcher),
# against a real distccd that this test starts on 127.0.0.1 and stops.
# distcc runs q7cc -E here and q7cc -c of the .ii on the server, with
# DISTCC_FALLBACK=0 so that nothing compiles here instead. The server's
# log must show every compile, and the packed images and the objects'
# records must be those of a local build, byte for byte.
#   distcc_build.sh STAGE_BIN BUILD_DIR OPS_DIR WORKDIR
set -euo pipefail
bin=$1 build=$2 ops=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
for t in distcc distccd; do
	command -v $t > /dev/null || fail "$t is not installed (Debian package distcc; scripts/setup-deps)"
done
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE CCACHE_DISABLE || true

# distccd's own files, and q7cc when the server's user cannot read the
# stage: a temporary directory that user can read.
srv=$(mktemp -d /tmp/q7cc-distcc.XXXXXX)
dpid=
stop() {
	if [ -n "$dpid" ]; then
		kill "$dpid" 2> /dev/null || true
		wait "$dpid" 2> /dev/null || true
	fi
	cp "$srv/distccd.log" "$work/" 2> /dev/null || true
	rm -rf "$srv"
}
trap stop EXIT
chmod 755 "$srv"

# Started as root, distccd becomes the user --user names.
user=$(id -un) runas=()
if [ "$(id -u)" = 0 ]; then
	user=distccd
	id "$user" > /dev/null 2>&1 || user=nobody
	runas=(--user "$user")
fi
readable() { # PATH: can distccd's user run it?
	[ "$(id -u)" != 0 ] && return 0
	setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups -- test -x "$1"
}
q7="$bin/q7cc-gnu"
if ! readable "$q7"; then
	# The server runs the compiler at the path the client names: install
	# q7cc where that user can read it, and build with that path.
	cmake --install "$build" --prefix "$srv/prefix" > "$work/install.log" 2>&1 ||
		{ cat "$work/install.log"; fail "cmake --install"; }
	chmod -R a+rX "$srv/prefix"
	q7="$srv/prefix/bin/q7cc-gnu"
	readable "$q7" || fail "$user cannot run $q7"
fi

# distccd refuses a compiler named by absolute path unless DISTCC_CMDLIST
# lists it (the last DISTCC_CMDLIST_NUMWORDS words of the path are
# compared, and the listed path is what runs).
echo "$q7" > "$srv/cmdlist"
: > "$srv/distccd.log"
chmod 644 "$srv/cmdlist"
chmod 666 "$srv/distccd.log"
port=
for _ in 1 2 3 4 5; do
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	DISTCC_CMDLIST="$srv/cmdlist" DISTCC_CMDLIST_NUMWORDS=1 \
		distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 --port "$port" \
		--log-file "$srv/distccd.log" --verbose --jobs 2 "${runas[@]}" 2>> distccd.stderr &
	dpid=$!
	for _ in $(seq 50); do
		(exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break
		kill -0 "$dpid" 2> /dev/null || break
		sleep 0.1
	done
	kill -0 "$dpid" 2> /dev/null && break
	wait "$dpid" || true # the port was taken meanwhile: another one
	dpid=
done
[ -n "$dpid" ] || { cat "$srv/distccd.log"; fail "distccd did not start"; }

mkdir distcc-dir
export DISTCC_HOSTS="127.0.0.1:$port" DISTCC_FALLBACK=0 DISTCC_DIR="$work/distcc-dir"
export DISTCC_LOG="$work/client.log" DISTCC_VERBOSE=1
CXX="$q7" cmake -S "$ops" -B remote -DCMAKE_CXX_COMPILER_LAUNCHER=distcc > configure.log 2>&1 ||
	{ cat configure.log; fail "configure under distcc"; }
cmake --build remote -j2 > build.log 2>&1 || { cat build.log; tail -40 "$srv/distccd.log"; fail "build under distcc"; }
CXX="$q7" cmake -S "$ops" -B local > configure-local.log 2>&1 || { cat configure-local.log; fail "configure"; }
cmake --build local -j2 > build-local.log 2>&1 || { cat build-local.log; fail "local build"; }

# Every source compiled on the server, from the .ii distcc sent.
sources=$(cd "$ops" && ls *.cpp)
for s in $sources; do
	grep -q "q7cc-gnu $ops/$s on localhost completed ok" "$srv/distccd.log" ||
		fail "the server's log does not show $s compiled there"
	grep -q "compile $ops/$s on 127.0.0.1:$port completed ok" client.log ||
		fail "the client's log does not show $s compiled on the server"
done
n=$(grep -c "forking to execute: $q7 .*-c /tmp/distccd_[^ ]*\.ii" "$srv/distccd.log" || true)
[ "$n" -ge "$(echo "$sources" | wc -w)" ] || fail "$n compiles of .ii files on the server"

# The same records and images as the local build.
"$here/same_as_local.sh" "$bin" local remote
echo "distcc: ok ($n compiles on 127.0.0.1:$port)"
