#!/bin/sh
# e2e.meson_build: a Meson project (meson/: cproj's C++ kernel and C
# helper, and a library without kernels) configured, built and run:
#   host  natively, CC=q7cc-host-gcc CXX=q7cc-host-g++; Meson's banner
#         shows the C compiler's own version line for C (cc ...) and the
#         op runs through q7-run --target=host;
#   gnu   with the shipped cross file (share/q7cc/meson/q7cc-gnu.ini,
#         whose compilers are on PATH);
#         the image runs on the emulated core.
# Meson's default debug build packs the library (-g is on no link line).
#   meson_build.sh STAGE SRC_DIR PROFILE WORKDIR
set -eu
stage=$1 src=$2 profile=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v meson > /dev/null || fail "meson is not installed (Debian package meson; scripts/setup-deps)"
command -v ninja > /dev/null || fail "ninja is not installed (Debian package ninja-build; scripts/setup-deps)"
rm -rf "$work"
mkdir -p "$work/p"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true
cp "$src/tests/e2e/meson/"* "$src/tests/e2e/libtool/plain.c" "$src/tests/e2e/cproj/kernel.cpp" \
	"$src/tests/e2e/cproj/helper.c" "$src/tests/e2e/cproj/helper.h" p/
bin=$stage/bin
if [ "$profile" = host ]; then
	CC="$bin/q7cc-host-gcc" CXX="$bin/q7cc-host-g++" meson setup p/b p > setup.log 2>&1 ||
		{ cat setup.log; fail "meson setup (host)"; }
	grep -q '^C compiler for the host machine: .*q7cc-host-gcc (gcc [0-9.]* "cc ' setup.log ||
		{ cat setup.log; fail "Meson's C banner is not the C compiler's"; }
	target=host
else
	export PATH="$bin:$PATH"
	meson setup --cross-file "$stage/share/q7cc/meson/q7cc-gnu.ini" p/b p > setup.log 2>&1 ||
		{ cat setup.log; fail "meson setup --cross-file q7cc-gnu.ini"; }
	target=emulated
fi
meson compile -C p/b > build.log 2>&1 || { cat build.log; fail "meson compile ($profile)"; }
[ -f p/b/libplain.so ] || fail "libplain.so was not built"
# The default build type (debug) has -g on the compile lines only: the
# link packs (docs/driver.md, "Meson").
[ -f p/b/libops.packed.so ] || fail "the debug build did not pack libops.so"
python3 "$src/tests/e2e/npy.py" write x.npy
"$bin/q7-run" --target=$target p/b/libops.so c_affine x.npy -o y.npy || fail "q7-run --target=$target c_affine"
got=$(python3 "$src/tests/e2e/npy.py" read y.npy)
[ "$got" = "-1.5 6 -6.5 12.25" ] || fail "c_affine gave '$got'"
echo "meson $profile: ok"
