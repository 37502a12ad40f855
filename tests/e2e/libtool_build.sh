#!/bin/sh
# e2e.libtool_build: an autotools + libtool project (libtool/: cproj's C++
# kernel and C helper in libops.la, and libplain.la, an ordinary C shared
# library without kernels) built with CC=q7cc-host CXX=q7cc-host.
#   - libtool's configure probe (`$CXX -shared -v conftest.o`) is the
#     compiler's own link, so its predeps/postdeps are found, and the
#     C++ link libtool then runs under -nostdlib links;
#   - libplain.so is linked as the compiler links it, and exports its symbol;
#   - libops's op runs through q7-run;
#   - autotools' default -g -O2 leaves the image unpacked with a note that
#     names --q7-pack; relinked with LDFLAGS=-Wc,--q7-pack (libtool passes
#     -Wc, flags to the compiler, and drops options it does not know) it
#     is packed.
# One configure: it is most of the test's time.
#   libtool_build.sh STAGE_BIN SRC_DIR WORKDIR
set -eu
bin=$1 src=$2 work=$3
. "$(dirname "$0")/libtool_start.sh"
cp "$src/tests/e2e/libtool/"* "$src/tests/e2e/cproj/kernel.cpp" "$src/tests/e2e/cproj/helper.c" \
	"$src/tests/e2e/cproj/helper.h" .
autoreconf -fi > ../autoreconf.log 2>&1 || { cat ../autoreconf.log; fail "autoreconf"; }
./configure CC="$bin/q7cc-host" CXX="$bin/q7cc-host" > ../configure.log 2>&1 ||
	{ cat ../configure.log; fail "configure"; }
postdeps=$(sed -n '/^# ### BEGIN LIBTOOL TAG CONFIG: CXX$/,$ s/^postdeps="\(.*\)"$/\1/p' libtool)
case $postdeps in
*-lstdc++*) ;;
*) fail "libtool's C++ postdeps are '$postdeps': its -shared -v probe failed" ;;
esac
make > ../make.log 2>&1 || { cat ../make.log; fail "make"; }
nm -D --defined-only .libs/libplain.so | grep -q ' T plain_twice$' ||
	fail "libplain.so does not export plain_twice"
grep -q 'libops.so.0.0.0: -g: this is the image to load .*add --q7-pack' ../make.log ||
	{ cat ../make.log; fail "no note naming --q7-pack for the -g build"; }
[ ! -e .libs/libops.so.0.0.0.packed.so ] || fail "packed under -g without --q7-pack"
python3 "$src/tests/e2e/npy.py" write x.npy
"$bin/q7-run" --target=host .libs/libops.so c_affine x.npy -o y.npy || fail "q7-run c_affine"
got=$(python3 "$src/tests/e2e/npy.py" read y.npy)
[ "$got" = "-1.5 6 -6.5 12.25" ] || fail "c_affine gave '$got'"
rm -f libops.la
make LDFLAGS=-Wc,--q7-pack libops.la > ../pack.log 2>&1 || { cat ../pack.log; fail "make LDFLAGS=-Wc,--q7-pack"; }
readelf -s .libs/libops.so.0.0.0.packed.so | grep -q ' lib_func$' ||
	fail "LDFLAGS=-Wc,--q7-pack: no packed image"
readelf -S .libs/libops.so.0.0.0 | grep -q ' \.debug_info ' || fail "the image lost its -g"
! grep -q 'no packed image' ../pack.log || fail "the note under --q7-pack"
echo "libtool: ok"
