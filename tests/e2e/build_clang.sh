#!/bin/sh
# e2e.build_clang: q7cc builds with clang-14 (Release, -Werror, no test
# code) for a packager's /usr prefix, whose GNUInstallDirs library folder
# is lib/<multiarch>; that build's stage (the install layout) gives the
# same gnu device image as this build's, so its link found its own
# libq7rt, softfp and writable-.rodata libc/libgcc under
# lib/<multiarch>/q7cc (the toolchain's own libc.a gives other bytes).
# Only what a gnu compile and link need is built, to keep CI short.
#   build_clang.sh SOURCE_DIR STAGE_BIN WORKDIR
set -eu
src=$1 bin=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v clang-14 >/dev/null || fail "clang-14 is not installed (Debian package clang-14; scripts/setup-deps)"
mkdir -p "$work"
b=$work/build
CC=clang-14 CXX=clang++-14 cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DQ7CC_WERROR=ON \
	-DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX=/usr > "$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log"; fail "configure with clang-14"; }
grep -q "^CMAKE_C_COMPILER:[A-Z]*=.*clang-14$" "$b/CMakeCache.txt" || fail "the C compiler is not clang-14"
cmake --build "$b" --target q7cc q7runtime_headers q7rt_xtensa q7softfp_xtensa q7lsp_libs \
	q7lsp_packages q7analysis-clang > "$work/build.log" 2>&1 ||
	{ grep -E "error|warning" "$work/build.log" | head -40; fail "build with clang-14"; }
multiarch=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$b/CMakeCache.txt")
case $multiarch in lib/*-linux-gnu) ;; *) fail "/usr prefix: libdir is '$multiarch', not lib/<multiarch>" ;; esac
[ -f "$b/stage/$multiarch/q7cc/xtensa/lsp/libc.a" ] || fail "no stage/$multiarch/q7cc/xtensa/lsp/libc.a"
[ ! -e "$b/stage/lib/q7cc" ] || fail "the stage is split: stage/lib/q7cc is there too"
rm -rf "$work/clang" "$work/gcc"
mkdir -p "$work/clang" "$work/gcc"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
(cd "$work/clang" && "$b/stage/bin/q7cc-gnu" -O2 -shared "$src/examples/ops/relu.cpp" -o libk.so) ||
	fail "the clang-built q7cc: compile and link"
(cd "$work/gcc" && "$bin/q7cc-gnu" -O2 -shared "$src/examples/ops/relu.cpp" -o libk.so) ||
	fail "this build's q7cc: compile and link"
cmp "$work/clang/libk.packed.so" "$work/gcc/libk.packed.so" ||
	fail "the clang-built q7cc's image differs from this build's"
echo "clang build: ok"
