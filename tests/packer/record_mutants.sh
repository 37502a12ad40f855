#!/bin/sh
# e2e.packer.record_mutants: the record mutation harness (recmutate.c) on
# the records of a real object: two kernels (namespaced, every kind, a
# stack size) and a NEURON_LIBRARY request for a function that another,
# unmarked object defines. About a thousand crafted versions, each linked
# by q7cc: each link succeeds, or fails naming the damaged object, and
# none makes the compiler complain about the generated wrapper.
# Usage: record_mutants.sh Q7CC RECMUTATE WORKDIR
set -u
Q7CC=$1 MUT=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"
mkdir -p "$WORK/m" || exit 1
cd "$WORK" || exit 1
# Analysis in-process: no server to outlive the test.
export Q7CC_ANALYSIS_SERVER=0
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <torchneuron/register.h>
#include <q7/kernel.h>
namespace ops {
Q7_KERNEL at::Tensor scale(const at::Tensor &x, long long n, const c10::Scalar &s) { return x; }
}
Q7_KERNEL_STACK(8192) at::Tensor mix(at::Tensor a, double d, const int &i) { return a; }
at::Tensor shape(const at::Tensor &t_in) { return t_in; }
NEURON_LIBRARY(my_ops, m) {
    m.def("plain", &shape, "plain");
}
CPP
printf '#include <torch/torch.h>\nat::Tensor plain(const at::Tensor &t_in) { return t_in; }\n' > c.cpp
"$Q7CC" -c k.cpp -o k.o || fail "compile k.cpp"
"$Q7CC" -c c.cpp -o c.o || fail "compile c.cpp"
[ "$("$Q7CC" --q7-print-schema k.o | wc -l)" -ge 2 ] || fail "k.o lacks its records"
"$Q7CC" -shared k.o c.o -o libbase.so || fail "the unmutated link"
"$MUT" "$Q7CC" m k.o c.o
