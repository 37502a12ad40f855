#!/bin/sh
# cmake --install lays out bin/ (q7cc and its names as links), include/q7cc,
# lib/q7cc and share/q7cc; the installed q7cc finds its own files there; a
# cross build through share/q7cc/cmake/q7cc-toolchain.cmake works.
#   install_toolchain.sh BUILD_DIR WORKDIR
set -eu
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
prefix="$work/pre fix"
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "install"; }
[ -x "$prefix/bin/q7cc" ] || fail "bin/q7cc"
for n in xt-clang++ q7-pkg-loadlib xt-pkg-loadlib q7-prelink q7-run; do
	[ "$(readlink "$prefix/bin/$n")" = q7cc ] || fail "bin/$n is not a link to q7cc"
done
[ -f "$prefix/include/q7cc/q7/kernel.h" ] || fail "include/q7cc/q7/kernel.h"
[ -f "$prefix/lib/q7cc/host/libq7rt.a" ] || fail "lib/q7cc/host/libq7rt.a"
[ -f "$prefix/share/q7cc/cmake/q7cc-toolchain.cmake" ] || fail "the toolchain file"

# The installed driver uses the installed tree, not the build tree.
line=$("$prefix/bin/q7cc" --q7-toolchain=host -### -c -x c++ - < /dev/null 2>&1)
case $line in *" -idirafter '$prefix/include/q7cc' "*) ;; *) fail "-### gave: $line" ;; esac

unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
src=$(cd "$(dirname "$0")/proj" && pwd)
cmake -S "$src" -B "$work/build" -DE2E_MULTICORE=OFF -DQ7CC_TOOLCHAIN=host \
	-DCMAKE_TOOLCHAIN_FILE="$prefix/share/q7cc/cmake/q7cc-toolchain.cmake" \
	> "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
nm -D "$work/build/libops.so" | grep -q ' T q7_entry$' || fail "libops.so lacks q7_entry"
echo ok
