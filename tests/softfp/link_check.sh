#!/bin/sh
# link_check.sh: libq7softfp.a as the gnu profile links it.
#  1. the archive is self-contained: it references no symbol at all, so it
#     may sit anywhere on a link line (and be repeated after -lgcc);
#  2. a device image using every float/double/64-bit operation links with
#     -Wl,--no-undefined in the contract's order, and fails without the
#     archive (so the archive is what fills the gap); the helpers stay
#     hidden (not exported by the image);
#  3. libgcc helpers that call ours (complex arithmetic, powi) link when the
#     archive is named again after -lgcc;
#  4. the freestanding table test (sf_table.c) links as a device image.
# usage: link_check.sh ARCHIVE SRCDIR WORKDIR
set -eu
archive=$1 src=$2 work=$3
gcc=xtensa-lx106-elf-gcc gxx=xtensa-lx106-elf-g++ nm=xtensa-lx106-elf-nm
mkdir -p "$work"
fail() { echo "link_check: $*" >&2; exit 1; }

undef=$($nm -u "$archive" | awk 'NF == 2 { print $2 }' | sort -u)
[ -z "$undef" ] || fail "$archive references: $undef"

cflags="-std=c11 -Os -fpic -mlongcalls -fno-jump-tables -Wall -Werror"
$gcc $cflags -c "$src/link_all.c" -o "$work/link_all.o"
$gcc $cflags -c "$src/link_complex.c" -o "$work/link_complex.o"
$gcc $cflags -c "$src/sf_table.c" -o "$work/sf_table.o"
$gcc $cflags -c "$src/sf_table_ops.c" -o "$work/sf_table_ops.o"
link() {
    out=$1; shift
    $gxx -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -o "$out" "$@"
}
link "$work/all.so" "$work/link_all.o" -lm -lc "$archive" -lgcc \
    || fail "image using every operation does not link"
if link "$work/none.so" "$work/link_all.o" -lm -lc -lgcc 2>"$work/none.log"; then
    fail "image links without libq7softfp.a: the test proves nothing"
fi
missing=$(grep -o "undefined reference to \`[^']*'" "$work/none.log" | sort -u | wc -l)
echo "link_check: without the archive $missing helpers are missing"
[ "$missing" -ge 21 ] || fail "expected at least 21 missing helpers, got $missing"
helpers="__addsf3 __subsf3 __mulsf3 __floatsisf __floatunsisf __fixunssfsi
  __extendsfdf2 __truncdfsf2 __adddf3 __subdf3 __muldf3 __divdf3 __floatsidf
  __floatunsidf __fixdfsi __fixunsdfsi __divsi3 __udivsi3 __umodsi3 __divdi3
  __moddi3 __udivdi3 __umoddi3 __muldi3"
$nm "$work/all.so" > "$work/all.syms"
$nm -D --defined-only "$work/all.so" > "$work/all.dynsyms"
for h in $helpers; do
    grep -q " t $h\$" "$work/all.syms" || fail "$h not a local symbol of the image"
    if grep -q " $h\$" "$work/all.dynsyms"; then
        fail "the image exports $h"
    fi
done
link "$work/complex.so" "$work/link_complex.o" -lm -lc "$archive" -lgcc "$archive" \
    || fail "complex arithmetic does not link with the archive after -lgcc"
link "$work/table.so" "$work/sf_table.o" "$work/sf_table_ops.o" -lm -lc "$archive" -lgcc \
    || fail "the table test does not link"
echo "link_check: ok"
