#!/bin/sh
# e2e.device_cxx_lib: what the device's C++ library lacks (docs/runtime.md,
# "C++ on the device") is said at the include on the gnu profile, naming
# the header, what the device offers instead and the page; the lint still
# reports the kernel rules past it; on the host profile the same headers
# are the compiler's own.
#   device_cxx_lib.sh Q7CC WORKDIR SOURCE_DIR
set -eu
q7cc=$1 src=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$2" && mkdir -p "$2" && cd "$2"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true
cat > vec.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
#include <vector>

Q7_KERNEL torch::Tensor scaled(const torch::Tensor &x, double *p) {
    std::vector<float> v(4);
    return x;
}
CPP
msg='<vector> is not in the device.s C\+\+ library \(no containers\): use std::array \(<array>\), a tensor \(torch::empty\) or new\[\] from the heap arena; docs/runtime.md'
"$q7cc" --q7-toolchain=gnu -c vec.cpp -o vec.o 2> err && fail "vec.cpp compiled"
grep -q '^In file included from vec.cpp:3' err && grep -qE "error: #error \"$msg" err ||
	{ cat err; fail "no message at the include"; }
"$q7cc" --q7-toolchain=gnu --q7-lint vec.cpp 2> err && fail "lint passed"
grep -qE "$msg" err || { cat err; fail "lint: no message at the include"; }
grep -q "^vec.cpp:5:64: error: parameter 'p' of kernel 'scaled' has type 'double \*' (a pointer).*\[-Wq7-unsupported-param\]" err ||
	{ cat err; fail "lint: the kernel rule is not reported past the header"; }
# every such header: the message on gnu, the compiler's own on the host
for h in $(cd "$src/runtime/include" && grep -l '^#error "<' * ); do
	printf '#include <%s>\nint f() { return 1; }\n' "$h" > h.cpp
	"$q7cc" --q7-toolchain=gnu -c h.cpp -o h.o 2> err && fail "<$h> compiled on gnu"
	grep -q "error: #error \"<$h> is not in the device's C++ library" err ||
		{ cat err; fail "<$h>: no message"; }
	"$q7cc" --q7-toolchain=host -c h.cpp -o h.o 2> err || { cat err; fail "<$h> on the host"; }
done
echo "device_cxx_lib: ok"
