#!/bin/sh
# e2e.packer.host: ELF64 host images pack too; the packed object passes
# eu-elflint, links into a host program that finds the stripped image's
# exact bytes at lib_func; -p lays PT_LOAD segments out page-congruent and
# page-aligns the image in .rodata (ELF32 and ELF64); a big-endian image
# (headers swapped by elfutil.py) packs to the same result in big-endian.
. "$(dirname "$0")/lib.sh"

cat > h.c <<'C'
static int table[16] = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16};
int counter;
int q7_entry(void *p) { counter++; return table[(long)p & 15] + counter; }
C
cc -shared -fPIC -O2 h.c -o host.so
$PACK -e my_image -o host.packed.o -s host.stripped.so host.so
need eu-elflint elfutils
eu-elflint --gnu-ld host.packed.o || fail "eu-elflint on the packed host object"
readelf -a -W host.packed.o > /dev/null 2> err
[ ! -s err ] || { cat err; fail "readelf complains about the packed host object"; }
[ "$($UTIL symbol host.packed.o my_image)" = "1 0 0 .rodata" ] || fail "-e my_image"
cat > main.c <<'C'
#include <stdio.h>
#include <string.h>
extern const unsigned char my_image[];
int main(int argc, char **argv)
{
	static unsigned char buf[1 << 20];
	FILE *f = fopen(argv[1], "rb");
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	(void)argc;
	return n && memcmp(buf, my_image, n) == 0 ? 0 : 1;
}
C
cc -O2 main.c host.packed.o -o main && ./main host.stripped.so || fail "host program: lib bytes differ"
$UTIL symbytes main my_image host.stripped.so || fail "bytes in the linked program"

# -p: the page-mapped layout, on both classes.
write_kernel
$X-g++ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -c k.cpp -o k.o
$X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,-T,"$LSP/lsp_fll_load_cpu2/ldscripts/elf32xtensa.x" \
	-o xt.so k.o -lgcc 2>/dev/null
for img in xt.so host.so; do
	$PACK -p 4096 -o p.o -s p.so $img || fail "$img: -p"
	$UTIL symbytes p.o lib_func p.so || fail "$img -p: bytes"
	$PY -c "
import sys; sys.path.insert(0, '$SRC'); import elfutil
s = elfutil.Elf('p.so'); o = elfutil.Elf('p.o')
bad = [p for p in s.phdrs if p['type'] == 1 and (p['off'] - p['vaddr']) % 4096]
assert not bad, 'PT_LOAD not page-congruent: %r' % bad
assert all(p['align'] >= 4096 for p in s.phdrs if p['type'] == 1), 'PT_LOAD align'
assert o.section('.rodata')[1]['align'] == 4096, '.rodata not page-aligned'
" || fail "$img: -p layout"
done


# Byte order: the Xtensa image with its headers in big-endian packs to the
# same sections and program headers, in big-endian.
$UTIL swap xt.so xt-be.so
$PACK -o be.o -s be.so xt-be.so || fail "big-endian image refused"
$PACK -o le.o -s le.so xt.so
$UTIL compare-endian be.so le.so || fail "big-endian stripped image differs"
[ "$(head -c 6 be.o | tail -c 1 | od -An -tu1 | tr -d ' ')" = 2 ] || fail "packed object not big-endian"
$UTIL symbytes be.o lib_func be.so || fail "big-endian packed bytes"
[ "$($UTIL symbol be.o lib_func)" = "1 0 0 .rodata" ] || fail "big-endian lib_func"
readelf -h -S -l -s -W be.o > /dev/null 2> err
[ ! -s err ] || { cat err; fail "readelf complains about the big-endian packed object"; }
echo "host: big-endian ok"
