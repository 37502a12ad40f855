#!/bin/sh
# e2e.kernel_mark_missing: a kernel file whose Q7_KERNEL was forgotten
# (docs/driver.md, "Shared libraries without kernels"). Its link is one
# error on every profile, naming the function that looks like a kernel and
# its source, before any real link (xt: the vendor's compiler, a fake
# here, never runs); with -Wno-error=q7-no-kernels the compiler's own
# link, which q7-run refuses saying the same. An ordinary library (no
# Tensor parameters) links as before.
#   kernel_mark_missing.sh Q7CC WORKDIR
set -eu
q7cc=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$2" && mkdir -p "$2" && cd "$2"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true
cat > rowsum.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
torch::Tensor row_sums(const torch::Tensor &x, float scale) { return x; }
CPP
want='^libr\.so: error: no kernels in this shared-library link, yet 1 function looks like a kernel: row_sums\(const at::Tensor &, float\) in rowsum\.cpp.*; mark each kernel with Q7_KERNEL from <q7/kernel\.h>.*share/doc/q7cc/driver\.md, "Shared libraries without kernels"\) \[-Wq7-no-kernels\]$'
for profile in host gnu; do
	rm -f libr.so
	# From the source on the line and from its object: one line, no link.
	"$q7cc" --q7-toolchain=$profile -shared rowsum.cpp -o libr.so 2> err && fail "$profile: linked"
	[ "$(wc -l < err)" = 1 ] && grep -qE "$want" err || { cat err; fail "$profile: message"; }
	"$q7cc" --q7-toolchain=$profile -c rowsum.cpp -o r$profile.o
	"$q7cc" --q7-toolchain=$profile -shared r$profile.o -o libr.so 2> err && fail "$profile: linked"
	[ "$(wc -l < err)" = 1 ] && grep -qE "$want" err && grep -qF "in rowsum.cpp (r$profile.o)" err ||
		{ cat err; fail "$profile: message for the object"; }
	[ ! -e libr.so ] || fail "$profile: libr.so written"
	# Demoted: the compiler's own link, which q7-run refuses by name.
	"$q7cc" --q7-toolchain=$profile -Wno-error=q7-no-kernels -shared r$profile.o -o libr.so 2> err ||
		{ cat err; fail "$profile: -Wno-error=q7-no-kernels did not link"; }
	grep -q 'warning: no kernels' err || { cat err; fail "$profile: no warning"; }
	mv libr.so libr-$profile.so
done
"$q7cc" --q7-run --list libr-host.so 2> err && fail "q7-run --list of a library without kernels"
grep -qE "^q7-run: error: libr-host\.so: no kernels: .*functions that look like kernels \(row_sums\); mark each kernel with Q7_KERNEL" err ||
	{ cat err; fail "host q7-run: $(cat err)"; }
! grep -q 'undefined symbol' err || fail "the loader's message"
"$q7cc" --q7-run --target=emulated --list libr-gnu.so 2> err && fail "emulated --list"
grep -q 'no entry point: not a custom-op image (a shared library linked without kernels: mark each kernel with Q7_KERNEL' err ||
	{ cat err; fail "emulated q7-run: $(cat err)"; }
# xt: decided from the objects before the vendor's compiler would link.
printf '#!/bin/sh\necho ran > ran\n' > fake-xt
chmod +x fake-xt
Q7CC_REAL_CXX=$PWD/fake-xt "$q7cc" --q7-toolchain=xt -shared rhost.o -o libr.so 2> err &&
	fail "xt: linked"
grep -qE "$want" err || { cat err; fail "xt: message"; }
[ ! -e ran ] || fail "xt: the compiler ran"
# No Tensor parameter: an ordinary library, the compiler's own link.
printf 'int f(int x) { return x; }\n' > plain.cpp
"$q7cc" --q7-toolchain=host -shared plain.cpp -o libp.so 2> err || { cat err; fail "plain"; }
[ ! -s err ] || { cat err; fail "plain: a message"; }
echo "kernel_mark_missing: ok"
