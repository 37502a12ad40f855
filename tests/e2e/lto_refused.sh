#!/bin/sh
# e2e.lto_refused: -flto (CMake's INTERPROCEDURAL_OPTIMIZATION) is refused
# only where it would break a device image, with one clear message and no
# output: the compile of a source with kernels, and an image link. A C
# helper and a C++ source without kernels compile with it, and their IR
# objects go into the image link (GCC's LTO plugin); a shared library
# without kernels links with -flto (the compiler's own link). -fno-lto
# after -flto compiles the kernel.
#   lto_refused.sh STAGE_BIN PROFILE WORKDIR
set -eu
bin=$1 profile=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
q7cc="$bin/q7cc-$profile"
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
extern "C" int helper(int);
Q7_KERNEL torch::Tensor ident(const torch::Tensor &x) { (void)helper(1); return x; }
CPP
printf 'int helper(int x);\nint helper(int x) { return x + 1; }\n' > helper.c
printf 'int plain(int x) { return 2 * x; }\n' > plain.cpp
for flag in -flto -flto=auto; do
	rc=0
	"$q7cc" -O2 $flag -c k.cpp -o k.o 2> lto.err || rc=$?
	[ "$rc" = 2 ] || { cat lto.err; fail "$flag: exit $rc, want 2 (a usage error)"; }
	[ ! -e k.o ] || fail "$flag: an object was written"
	[ "$(grep -c "error: k.cpp: $flag: link-time optimisation is not supported" lto.err)" = 1 ] &&
		[ "$(wc -l < lto.err)" = 1 ] || { cat lto.err; fail "$flag: not one clear message"; }
done
"$q7cc" -O2 -flto -fno-lto -c k.cpp -o k.o || fail "-flto -fno-lto"
"$q7cc" -O2 -flto -c helper.c -o helper.o || fail "-flto on a C helper"
"$q7cc" -O2 -flto -c plain.cpp -o plain.o || fail "-flto on C++ without kernels"
"$q7cc" -shared k.o helper.o -o libk.so 2> link.err || { cat link.err; fail "the image link of an LTO helper"; }
[ -f libk.packed.so ] || fail "no packed image"
rc=0
"$q7cc" -flto -shared k.o helper.o -o libl.so 2> link.err || rc=$?
[ "$rc" = 2 ] && grep -q "error: libl.so: -flto: link-time optimisation" link.err || { cat link.err; fail "the -flto image link"; }
[ ! -e libl.so ] || fail "the -flto image link wrote libl.so"
"$q7cc" -O2 -flto -Wno-q7-no-kernels -shared plain.o helper.o -o libp.so 2> link.err ||
	{ cat link.err; fail "the -flto link of a library without kernels"; }
[ ! -s link.err ] || { cat link.err; fail "the -flto link without kernels said something"; }
echo "lto refused only for kernels ($profile): ok"
