#!/bin/sh
# e2e.libtool_build_gnu: examples/ops as an autotools + libtool project,
# generated here, built for the device with the configure line
# docs/driver.md gives ("autotools and libtool"):
#   ./configure --host=xtensa-linux-gnu CC=q7cc-gnu-gcc CXX=q7cc-gnu
#   - --host: configure does not try to run a device program, and libtool
#     knows ELF shared libraries for a linux host (an -elf host has none);
#   - libtool's C++ link (-nostdlib ... -lc -lm -lgcc, from its -shared -v
#     probe) links the image: those libraries come after q7cc's runtime,
#     not before it (else printf and _Unwind_Resume are defined twice);
#   - a C library without kernels beside it (CC=q7cc-gnu-gcc) is linked
#     as the compiler links it, with the no-kernels warning;
#   - the ops run on the emulated core with q7-run, and the numbers are
#     checked; relinked with LDFLAGS=-Wc,--q7-pack the packed image is made
#     and runs too, and with LDFLAGS=-Wc,--q7-multicore the eight images
#     (the split link), whose SPMD op runs on eight cores.
#   libtool_gnu.sh STAGE_BIN SRC_DIR WORKDIR
set -eu
bin=$1 src=$2 work=$3
. "$(dirname "$0")/libtool_start.sh"
ops="relu.cpp relu_tcm.cpp affine.cpp spmd.cpp table.cpp"
for f in $ops; do cp "$src/examples/ops/$f" .; done
cp "$src/tests/e2e/libtool/plain.c" .
cat > configure.ac << 'EOF'
AC_INIT([opsproj], [1])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_PROG_CXX
LT_INIT([disable-static])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
cat > Makefile.am << EOF
lib_LTLIBRARIES = libops.la libplain.la
libops_la_SOURCES = $ops
libplain_la_SOURCES = plain.c
EOF
autoreconf -fi > ../autoreconf.log 2>&1 || { cat ../autoreconf.log; fail "autoreconf"; }
./configure --host=xtensa-linux-gnu CC="$bin/q7cc-gnu-gcc" CXX="$bin/q7cc-gnu" \
	> ../configure.log 2>&1 || { cat ../configure.log; fail "configure"; }
grep -q '^checking whether to build shared libraries... yes$' ../configure.log ||
	{ cat ../configure.log; fail "libtool builds no shared library"; }
make > ../make.log 2>&1 || { cat ../make.log; fail "make"; }
grep -q 'libtool: link: .*q7cc-gnu .*-nostdlib .* -lc -lm -lgcc ' ../make.log ||
	{ cat ../make.log; fail "libtool's link does not name -lc -lm -lgcc: the case is not tested"; }
grep -q 'libplain.so.0.0.0: warning: no kernels in this shared-library link' ../make.log ||
	{ cat ../make.log; fail "libplain: no no-kernels warning"; }
[ "$(od -An -tx1 -j18 -N2 .libs/libops.so.0.0.0 | tr -d ' ')" = 5e00 ] ||
	fail "libops.so.0.0.0 is not an Xtensa image"
python3 "$src/tests/e2e/npy.py" write x.npy
run() { # run LIB OP ARGS... (out y.npy): prints the result
	"$bin/q7-run" --target=emulated "$@" -o y.npy || fail "q7-run $*"
	python3 "$src/tests/e2e/npy.py" read y.npy
}
got=$(run .libs/libops.so affine x.npy 1 2.0 0.5 -4)
[ "$got" = "-0.5 5.5 -4 10.5" ] || fail "affine gave '$got'"
# A global object's constructor fills the table (k * k + 1): the image's
# constructors survive libtool's -nostdlib link.
got=$(run .libs/libops.so scale_by_table x.npy)
[ "$got" = "-1 4 -15 45" ] || fail "scale_by_table gave '$got'"
rm -f libops.la
make LDFLAGS=-Wc,--q7-pack libops.la > ../pack.log 2>&1 ||
	{ cat ../pack.log; fail "make LDFLAGS=-Wc,--q7-pack"; }
[ -e .libs/libops.so.0.0.0.packed.so ] || fail "LDFLAGS=-Wc,--q7-pack: no packed image"
got=$(run .libs/libops.so.0.0.0.packed.so affine x.npy 1 2.0 0.5 -4)
[ "$got" = "-0.5 5.5 -4 10.5" ] || fail "the packed image's affine gave '$got'"
# --q7-multicore: the split 8-core link takes libtool's line too; the SPMD
# op fills each core's rows.
rm -f libops.la
make LDFLAGS=-Wc,--q7-multicore libops.la > ../multicore.log 2>&1 ||
	{ cat ../multicore.log; fail "make LDFLAGS=-Wc,--q7-multicore"; }
[ "$(head -1 .libs/libops.so.0.0.0)" = "q7cc-multicore 1" ] || fail "no multicore manifest"
/usr/bin/python3 -c 'import numpy as np; np.save("rows.npy", np.zeros((16, 3), dtype=np.int32))'
"$bin/q7-run" --target=emulated --cores=8 .libs/libops.so spmd_rows rows.npy -o spmd.npy ||
	fail "q7-run --cores=8 spmd_rows"
/usr/bin/python3 -c '
import numpy as np
r, c = np.meshgrid(np.arange(16), np.arange(3), indexing="ij")
assert np.array_equal(np.load("spmd.npy"), r * 1000 + c * 10 + r % 8), np.load("spmd.npy")' ||
	fail "spmd_rows on 8 cores: wrong rows"
echo "libtool gnu: ok"
