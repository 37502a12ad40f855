#!/bin/sh
# e2e.analysis.server_fallback: q7cc -c with a server that mistreats it
# (a fake on q7cc's own socket, one mode per row) analyses in-process
# instead: exit 0, never SIGPIPE (141), the object's records the same as
# without any server, well within the 60 s that a stalled server once
# cost. No process is left behind.
# Usage: server_fallback.sh Q7CC SERVER_PEER STAGE WORKDIR
set -u
Q7CC=$1 PEER=$2 STAGE=$3 WORK=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"
mkdir -p "$WORK/xdg" || exit 1
cd "$WORK" || exit 1
export XDG_RUNTIME_DIR="$WORK/xdg"
unset Q7CC_ANALYSIS_SERVER
SOCK=$(Q7CC_PREFIX="$STAGE" "$PEER" path) || fail "no socket path"
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL at::Tensor twice(const at::Tensor &x, long long n, float s) { return x; }
CPP
Q7CC_ANALYSIS_SERVER=0 "$Q7CC" -c k.cpp -o ref.o || fail "reference compile"
"$Q7CC" --q7-print-schema ref.o > ref.txt || fail "reference schema"
grep -q 'twice(Tensor x, int n, float s) -> Tensor' ref.txt || fail "reference: $(cat ref.txt)"
# A request larger than a socket's buffer (40,000 kernel names, which
# only the analysis gets), so that a server that closes early does so
# while q7cc still writes.
NAMES=--q7-kernel=twice$(head -c 20000 /dev/zero | sed 's/\x0/,twice/g')
for mode in accept-close read-close no-ack ack-close ack-garbage result-first ack-cut; do
	rm -f m.o "$SOCK"
	"$PEER" fake $mode "$SOCK" &
	peer=$!
	i=0
	while [ ! -S "$SOCK" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -S "$SOCK" ] || fail "$mode: the fake never listened"
	t0=$(date +%s)
	"$Q7CC" -c k.cpp -o m.o "$NAMES" "$NAMES" 2> err.txt
	rc=$?
	took=$(($(date +%s) - t0))
	rm -f "$SOCK"
	wait $peer || fail "$mode: the fake failed"
	[ $rc -eq 0 ] || fail "$mode: q7cc exited $rc: $(cat err.txt)"
	[ ! -s err.txt ] || fail "$mode: q7cc said: $(cat err.txt)"
	"$Q7CC" --q7-print-schema m.o > m.txt || fail "$mode: no records"
	cmp -s ref.txt m.txt || fail "$mode: records differ: $(cat m.txt)"
	[ $took -lt 30 ] || fail "$mode: took $took s"
	echo "$mode: fell back in $took s"
done
# No server was started for the fakes (one answered), and none is left.
for p in /proc/[0-9]*; do
	if tr '\0' '\n' < $p/cmdline 2>/dev/null | grep -qxF "$SOCK"; then
		fail "left running: $(tr '\0' ' ' < $p/cmdline)"
	fi
done
echo "server_fallback: ok"
