#!/bin/sh
# e2e.packer.replay: q7-pkg-loadlib against the vendor's recipe replayed with
# GNU Xtensa binutils, on real Xtensa images (docs/vendor-flow.md, "Pack recipe"):
#  - the stripped images are equal (sections, types, flags, addresses,
#    sizes, contents, program headers), with and without -l;
#  - both packed objects hold their stripped image at a GLOBAL lib_func of
#    the same type and size in .rodata;
#  - q7cc's packed object links with ld -r (and into a final image) and the
#    symbol still holds exactly the stripped image's bytes;
#  - the same input gives the same bytes; readelf reads the outputs cleanly;
#  - an image that is not self-contained (a strong undefined symbol through
#    the PLT): with -l equal to the vendor recipe too (-l binds nothing),
#    without -l refused by name (docs/packer.md, "Binding without -l").
. "$(dirname "$0")/lib.sh"

write_kernel
$X-g++ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -c k.cpp -o k.o
$X-g++ -std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -g -c k.cpp -o kg.o
n=0
for variant in default cpu0 single debug undefined; do
	case $variant in
	default) $X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined -o img.so k.o -lgcc ;;
	undefined) $X-g++ -shared -nostdlib -Wl,-Bsymbolic -o img.so k.o ;; # __modsi3
	cpu0) $X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined \
		-Wl,-T,"$LSP/lsp_fll_load_cpu0/ldscripts/elf32xtensa.x" -o img.so k.o -lgcc 2>/dev/null ;;
	single) $X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined \
		-Wl,-T,"$LSP/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x" -o img.so k.o -lgcc 2>/dev/null ;;
	debug) $X-g++ -shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined \
		-Wl,-T,"$LSP/lsp_fll_load_cpu3/ldscripts/elf32xtensa.x" -o img.so kg.o -lgcc 2>/dev/null ;;
	esac
	modes="overlay -l"
	if [ $variant = undefined ]; then
		modes=-l
		rm -f q7.packed.so q7.stripped.so
		if $PACK -o q7.packed.so -s q7.stripped.so img.so 2> err; then fail "undefined: packed"; fi
		grep -q "^q7-pkg-loadlib: error: img.so: undefined symbol '__modsi3' in R_XTENSA_JMP_SLOT" err ||
			{ cat err; fail "undefined: the message does not name __modsi3"; }
		[ ! -e q7.packed.so ] && [ ! -e q7.stripped.so ] || fail "undefined: output left"
	fi
	for mode in $modes; do
		lookup=
		[ $mode = overlay ] || lookup=$mode
		replay img.so vendor.stripped.so vendor.packed.so $lookup
		$PACK $lookup -e lib_func --xtensa-core=ncore2gp --xtensa-system=/opt/x/config \
			-o q7.packed.so -s q7.stripped.so img.so
		echo "== $variant ${lookup:-overlay}"
		$UTIL compare q7.stripped.so vendor.stripped.so || fail "$variant $lookup: stripped images differ"
		$UTIL symbytes vendor.packed.so lib_func vendor.stripped.so || fail "vendor packed"
		$UTIL symbytes q7.packed.so lib_func q7.stripped.so || fail "$variant: packed symbol bytes"
		[ "$($UTIL symbol q7.packed.so lib_func)" = "$($UTIL symbol vendor.packed.so lib_func)" ] ||
			fail "$variant: lib_func differs from ld -r's: $($UTIL symbol q7.packed.so lib_func)"
		[ "$($UTIL symbol q7.packed.so lib_func)" = "1 0 0 .rodata" ] || fail "lib_func not GLOBAL NOTYPE in .rodata"
		# Same input, same bytes.
		$PACK $lookup -o again.packed.so -s again.stripped.so img.so
		cmp q7.packed.so again.packed.so || fail "$variant: packed output not deterministic"
		cmp q7.stripped.so again.stripped.so || fail "$variant: stripped output not deterministic"
		# readelf reads everything without complaint beyond what it says
		# of the vendor's own image (.dynamic's link to the removed .dynstr).
		readelf -a -W q7.packed.so > /dev/null 2> re.err
		[ ! -s re.err ] || { cat re.err; fail "readelf complains about the packed object"; }
		readelf -a -W q7.stripped.so > /dev/null 2> re.q7
		readelf -a -W vendor.stripped.so > /dev/null 2> re.vendor
		sed 's/q7.stripped.so/IMG/' re.q7 > a; sed 's/vendor.stripped.so/IMG/' re.vendor > b
		cmp a b || fail "readelf says different things about the two stripped images"
		# eu-elflint knows no Xtensa: it may only say so (flags, note type).
		need eu-elflint elfutils
		eu-elflint --gnu-ld q7.packed.so > lint.out 2>&1 || true
		grep -v -e 'invalid machine flags' -e "note type 1 with owner name 'Xtensa_Info'" \
			-e '^No errors$' lint.out > lint.rest || true
		[ ! -s lint.rest ] || { cat lint.rest; fail "eu-elflint on the packed object"; }
		n=$((n + 1))
	done
	# The packed object is a normal relocatable: ld -r with another object
	# that uses the symbol, then a final link; the bytes survive both.
	printf 'extern const unsigned char lib_func[];\nconst unsigned char *get_lib(void) { return lib_func; }\n' > use.c
	$X-gcc -Os -fpic -mlongcalls -c use.c -o use.o
	$X-ld -r q7.packed.so use.o -o combined.o || fail "$variant: ld -r of the packed object"
	$UTIL symbytes combined.o lib_func q7.stripped.so || fail "$variant: bytes after ld -r"
	$X-ld -shared -Bsymbolic combined.o -o final.so || fail "$variant: final link"
	$UTIL symbytes final.so lib_func q7.stripped.so || fail "$variant: bytes after the final link"
done
echo "replay: $n image/option pairs equal to the vendor recipe"
