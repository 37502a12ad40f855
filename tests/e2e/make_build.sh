#!/bin/sh
# A plain Makefile project (make/Makefile, implicit rules) built with
# `make CXX=q7cc`, from a folder whose path has a space, then run.
#   make_build.sh Q7CC PROFILE WORKDIR
set -eu
q7cc=$1 profile=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
dir="$work/make dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }
unset Q7CC_REAL_CXX Q7CC_ACTIVE || true
export Q7_TOOLCHAIN="$profile"
make -C "$dir" -f "$here/make/Makefile" SRC="$here/proj" CXX="$q7cc" > "$work/make.log" 2>&1 ||
	{ cat "$work/make.log"; fail "make"; }
[ -f "$dir/libops.so" ] && [ -f "$dir/libops.packed.so" ] || fail "libops.so / .packed.so"
got=$("$q7cc" --q7-print-schema "$dir/relu.o" "$dir/scale.o" "$dir/add.o")
want='relu(Tensor x) -> Tensor
scale(Tensor x, float s, int n) -> Tensor
add(Tensor a, Tensor b) -> Tensor'
[ "$got" = "$want" ] || fail "schemas: '$got'"
target=host
[ "$profile" = host ] || target=emulated
"$here/npy.py" write "$work/in.npy"
"$(dirname "$q7cc")/q7-run" --target=$target "$dir/libops.so" add "$work/in.npy" "$work/in.npy" \
	-o "$work/out.npy" || fail "q7-run add"
out=$("$here/npy.py" read "$work/out.npy")
[ "$out" = "-2 4 -6 9" ] || fail "add gave $out"
echo "ok: make $profile"
