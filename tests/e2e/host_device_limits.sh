#!/bin/sh
# e2e.host_device_limits: a host library is told, as warnings, what the
# device link of the same sources refuses (docs/driver.md, "Device limits
# at the host build"): more than 10 kernels, a kernel's stack (its own
# test: e2e.kernel_stack), and data more than a core's window (a 3 MiB
# table: over 2 MiB with --q7-multicore, within the single core's 32 MiB).
# The host library links; the gnu link fails on the same.
#   host_device_limits.sh Q7CC WORKDIR SRCDIR
set -eu
q7cc=$1
src=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$2" && mkdir -p "$2" && cd "$2"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true
cp "$src"/tests/e2e/limits/table.cpp .
# The data: a warning naming the library, the bytes and the window.
"$q7cc" --q7-toolchain=host --q7-multicore -shared table.cpp -o libtable.so 2> err ||
	{ cat err; fail "host multicore did not link"; }
want="^libtable\.so: warning: the library's objects hold 31[0-9]{5} bytes of data \(\.data, \.rodata, \.bss\), more than a device core's window of 2097152 bytes \(lsp_fll_load_cpu0\): its device link would fail \[-Wq7-image-size\]$"
[ "$(wc -l < err)" = 1 ] && grep -qE "$want" err || { cat err; fail "host multicore: message"; }
[ -e libtable.so ] || fail "libtable.so not written"
"$q7cc" --q7-toolchain=host -shared table.cpp -o libtable1.so 2> err || { cat err; fail "single"; }
[ ! -s err ] || { cat err; fail "single core (32 MiB): a message"; }
"$q7cc" --q7-toolchain=host --q7-multicore -Wno-q7-image-size -shared table.cpp -o libtable.so \
	2> err || { cat err; fail "-Wno-q7-image-size"; }
[ ! -s err ] || { cat err; fail "-Wno-q7-image-size: a message"; }
"$q7cc" --q7-toolchain=gnu --q7-multicore -shared table.cpp -o libtableg.so 2> err &&
	fail "gnu multicore linked"
grep -q "the image does not fit core 0's 2 MiB SRAM window" err || { cat err; fail "gnu: message"; }
# The kernel count: 11 kernels warn on the host and fail the gnu link.
{
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n'
	for i in 00 01 02 03 04 05 06 07 08 09 10; do
		printf 'Q7_KERNEL torch::Tensor k%s(const torch::Tensor &x) { return torch::empty_like(x); }\n' $i
	done
} > many.cpp
"$q7cc" --q7-toolchain=host -shared many.cpp -o libmany.so 2> err || { cat err; fail "host many"; }
grep -qE "^many\.cpp:13:25: warning: the library has 11 kernels; the device runtime registers at most 10 .*\[-Wq7-too-many-kernels\]$" err ||
	{ cat err; fail "host many: message"; }
"$q7cc" --q7-toolchain=gnu -shared many.cpp -o libmanyg.so 2> err && fail "gnu many linked"
grep -q "error: the library has 11 kernels" err || { cat err; fail "gnu many: message"; }
echo "host_device_limits: ok"
