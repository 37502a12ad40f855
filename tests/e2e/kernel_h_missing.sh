#!/bin/sh
# e2e.kernel_h_missing: a kernel file that marks Q7_KERNEL without
# #include <q7/kernel.h> fails with the compiler's own error and then
# q7cc's note saying which include to add, under each profile; a compile
# that fails otherwise gets no such note.
#   kernel_h_missing.sh Q7CC WORKDIR
set -eu
q7cc=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true
printf '#include <torch/torch.h>\nQ7_KERNEL torch::Tensor f(const torch::Tensor &t) { return t; }\n' > noinc.cpp
printf '#include <torch/torch.h>\n#include <q7/kernel.h>\nQ7_KERNEL torch::Tensor f(const torch::Tensor &t) { return t }\n' > typo.cpp
note="q7cc: note: noinc.cpp: Q7_KERNEL is defined by <q7/kernel.h>: add #include <q7/kernel.h>"
for profile in gnu host; do
	"$q7cc" --q7-toolchain=$profile -c noinc.cpp -o noinc.o 2> noinc.err && fail "$profile: noinc.cpp compiled"
	grep -q "Q7_KERNEL" noinc.err || { cat noinc.err; fail "$profile: no compiler error"; }
	grep -qF "$note" noinc.err || { cat noinc.err; fail "$profile: no note on <q7/kernel.h>"; }
	[ ! -e noinc.o ] || fail "$profile: noinc.o left behind"
	"$q7cc" --q7-toolchain=$profile -c typo.cpp -o typo.o 2> typo.err && fail "$profile: typo.cpp compiled"
	! grep -q "q7/kernel.h>: add" typo.err || { cat typo.err; fail "$profile: a note on another error"; }
done
echo "kernel_h_missing: ok"
