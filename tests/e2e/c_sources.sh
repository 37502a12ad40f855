#!/bin/sh
# e2e.c_sources: a kernel library whose C++ kernel calls a C helper
# (cproj/: helper.c stops at an #error unless compiled as C).
#   1. CC=q7cc-host CXX=q7cc-host: CMake's C and C++ compiler checks pass,
#      helper.c goes to the host's cc, and q7-run --target=host gives the
#      numbers; in the same project find_package(q7cc) and
#      q7_add_custom_op(... helper.c TOOLCHAIN gnu) build the device image,
#      which gives them on the emulated core.
#   2. The toolchain file (-DQ7CC_TOOLCHAIN=gnu) sets both compilers;
#      helper.c's object is Xtensa, and the image gives the numbers on the
#      emulated core.
#   c_sources.sh STAGE WORKDIR
set -eu
stage=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
bin=$stage/bin
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true
python3 "$here/npy.py" write "$work/x.npy"
# helper_affine: x * 2.5 + 1 of [-1, 2, -3, 4.5], exact in float.
want="-1.5 6 -6.5 12.25"
run() { # TARGET IMAGE NAME
	"$bin/q7-run" --target="$1" "$2" c_affine "$work/x.npy" -o "$work/$3.npy" ||
		fail "q7-run --target=$1 $2 c_affine"
	got=$(python3 "$here/npy.py" read "$work/$3.npy")
	[ "$got" = "$want" ] || fail "$3: c_affine gave '$got', not '$want'"
}
compiler() { # BUILD LANG: the compiler CMake chose (and checked)
	sed -n "s/^set(CMAKE_$2_COMPILER \"\(.*\)\")$/\1/p" "$1"/CMakeFiles/*/CMake"$2"Compiler.cmake
}

# 1. CC=q7cc CXX=q7cc, and the package's q7_add_custom_op.
b=$work/host
CC="$bin/q7cc-host" CXX="$bin/q7cc-host" cmake -S "$here/cproj" -B "$b" \
	-DCMAKE_BUILD_TYPE=Release -DE2E_CUSTOM_OP=ON -Dq7cc_DIR="$stage/lib/cmake/q7cc" \
	> "$work/host-configure.log" 2>&1 ||
	{ cat "$work/host-configure.log"; fail "configure with CC=q7cc-host CXX=q7cc-host"; }
grep -q "The C compiler identification is GNU" "$work/host-configure.log" ||
	{ cat "$work/host-configure.log"; fail "CMake did not identify q7cc-host as a C compiler"; }
[ "$(compiler "$b" C)" = "$bin/q7cc-host" ] || fail "CC: $(compiler "$b" C)"
cmake --build "$b" > "$work/host-build.log" 2>&1 ||
	{ cat "$work/host-build.log"; fail "build (host, and the gnu custom op)"; }
readelf -h "$b/CMakeFiles/cops.dir/helper.c.o" | grep -q 'Advanced Micro Devices X86-64' ||
	fail "helper.c.o is not a host object"
run host "$b/libcops.so" host
[ -f "$b/libcops_gnu.packed.so" ] || fail "q7_add_custom_op wrote no libcops_gnu.packed.so"
run emulated "$b/libcops_gnu.so" custom-op-emulated

# 2. The toolchain file, gnu profile.
b=$work/gnu
cmake -S "$here/cproj" -B "$b" -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_TOOLCHAIN_FILE="$stage/share/q7cc/cmake/q7cc-toolchain.cmake" -DQ7CC_TOOLCHAIN=gnu \
	> "$work/gnu-configure.log" 2>&1 ||
	{ cat "$work/gnu-configure.log"; fail "configure with the toolchain file"; }
[ "$(compiler "$b" C)" = "$bin/q7cc-gnu" ] && [ "$(compiler "$b" CXX)" = "$bin/q7cc-gnu" ] ||
	fail "the toolchain file set CC=$(compiler "$b" C) CXX=$(compiler "$b" CXX)"
cmake --build "$b" > "$work/gnu-build.log" 2>&1 ||
	{ cat "$work/gnu-build.log"; fail "build (toolchain file, gnu)"; }
readelf -h "$b/CMakeFiles/cops.dir/helper.c.o" | grep -q 'Tensilica Xtensa' ||
	fail "helper.c.o is not an Xtensa object"
[ -f "$b/libcops.packed.so" ] || fail "no libcops.packed.so"
run emulated "$b/libcops.so" toolchain-emulated
echo "ok: C sources (CC=q7cc-host, q7_add_custom_op gnu, toolchain file gnu)"
