#!/bin/sh
# e2e.compile_many: `q7cc -c a.cpp b.cpp` (a hand-written Makefile's
# `$(CXX) -c $(SRCS)`) writes every object, as g++ does, each with its own
# records; a failing second source leaves the first object and no second.
#   compile_many.sh STAGE_BIN PROFILE WORKDIR
set -eu
bin=$1 profile=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/sub"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
for k in ka kb kc; do
	cat > "$k.cpp" <<CPP
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor $k(const torch::Tensor &x) { return x; }
CPP
done
mv kc.cpp sub/kc.cpp
q7cc="$bin/q7cc-$profile"
"$q7cc" -c ka.cpp kb.cpp sub/kc.cpp || fail "q7cc -c with three sources"
for k in ka kb kc; do
	[ -f "$k.o" ] || fail "$k.o was not written"
	[ "$("$bin/q7cc" --q7-print-schema "$k.o")" = "$k(Tensor x) -> Tensor" ] ||
		fail "$k.o has not its own record"
done
# The objects are those of one-by-one compiles.
for k in ka kb; do
	"$q7cc" -c "$k.cpp" -o "one-$k.o" || fail "q7cc -c $k.cpp"
	cmp -s "$k.o" "one-$k.o" || fail "$k.o differs from a compile of $k.cpp alone"
done
# A broken second source: the first object stays, the second is not there.
rm -f ka.o kb.o
printf 'this is not C++\n' > kb.cpp
if "$q7cc" -c ka.cpp kb.cpp 2> broken.err; then fail "a broken source compiled"; fi
[ -f ka.o ] && [ ! -e kb.o ] || fail "after a broken kb.cpp: ka.o and no kb.o wanted"
# -o with several sources is refused, as g++ does.
if "$q7cc" -c ka.cpp kc.cpp -o x.o 2> o.err; then fail "-o with two sources was taken"; fi
grep -q "cannot specify '-o' with '-c'" o.err || { cat o.err; fail "-o with two sources: message"; }
echo "compile many ($profile): ok"
