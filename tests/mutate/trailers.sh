#!/bin/sh
# e2e.mutate.trailers: the trailer mutation harness (trailmutate.c) on the
# trailer q7cc -E leaves on a real kernel's text (host profile): crafted
# findings and ops, results, profile words, tails, and self-referencing
# response files. A secret file and a FIFO are there for the findings to
# name: neither may be printed nor block.
#   trailers.sh Q7CC_HOST TRAILMUTATE WORKDIR
set -u
q7=$1 mut=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/m" || exit 1
cd "$work" || exit 1
export Q7CC_ANALYSIS_SERVER=0
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
namespace ops {
Q7_KERNEL at::Tensor scale(const at::Tensor &x, long long n, double f) { return x; }
}
CPP
"$q7" -E k.cpp -o base.ii || fail "q7cc -E k.cpp"
"$q7" -c base.ii -o base.o || fail "the unmutated compile"
echo "q7-secret-line" > secret
mkfifo fifo || fail "mkfifo"
"$mut" "$q7" m base.ii "$PWD/secret" "$PWD/fifo" || exit 1
# A record's file field names the secret, then a FIFO:
# a link with the kernel from there and from base.o names both places,
# and prints no line of the file, nor waits on the FIFO.
for f in secret fifo; do
	"$mut" --op-file "$f.ii" base.ii "$PWD/$f" || fail "--op-file $f"
	"$q7" -fPIC -c "$f.ii" -o "$f.o" || fail "compile $f.ii"
	timeout 20 "$q7" -shared base.o "$f.o" -o "lib$f.so" 2> "$f.err"
	rc=$?
	[ "$rc" = 1 ] || { cat "$f.err"; fail "the link of a kernel twice ($f): status $rc"; }
	grep -q "^$PWD/$f:1:1: note: " "$f.err" || { cat "$f.err"; fail "no place in $f"; }
	! grep -q q7-secret-line "$f.err" || { cat "$f.err"; fail "the secret's line printed"; }
done
echo "trailers: ok"
