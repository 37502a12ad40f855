#!/bin/bash
# Links PIC C++ objects with the generated LSP packages, by the gnu
# profile's device link (docs/lsp.md), and checks the images with readelf.
#
#   link_check.sh MODE GXX READELF LSPDIR FIXTURES WORK [XTENSA_LIBDIR]
#
# each:      every one of the 9 packages: link, then every allocated
#            section and segment inside the core's window, only
#            R_XTENSA_RELATIVE dynamic relocations, entry == _start, the
#            _bss_table pair == [_bss_start, _bss_end).
# multicore: the same objects linked for cpu0..7: each image in its own
#            window, no two images overlap, all eight the same layout
#            shifted by the window base.
# specs:     gcc accepts the package's specs file, which brings crti and
#            crtbegin but no default libraries.
# overflow:  3 MiB of .bss does not fit a core's window (ld says so) but
#            fits the single core's.
# variants:  .xbn and .xn link the same image as .x; an object made with
#            ld -r -T .xr (and -Ur -T .xu) links with .x into an image
#            that passes the same checks.
# libc:      an object calling snprintf links with the C library, in the
#            contract's library order, from XTENSA_LIBDIR/lsp (the copies
#            with writable .rodata) and XTENSA_LIBDIR/libq7softfp.a, and
#            the image passes the same checks.
set -u
mode=$1 gxx=$2 readelf=$3 lspdir=$4 fixtures=$5 work=$6 xtlib=${7:-}

# The contract's memory map, written out again here (docs/vendor-flow.md, "Memory map") so that the
# test does not read the table it checks.
sram_base=$((0x84000000))
core_window=$((0x200000))
single_window=$((0x2000000))
iram_end=$((0x1000))

compile_flags=(-std=c++14 -Os -fpic -mlongcalls -fno-jump-tables -Wall -Werror)
# The gnu profile's link, as docs/vendor-flow.md's "Link matrix" writes it, plus the one flag
# this test found needed: the image is one RWX segment by design.
link_flags=(-shared -nostdlib -Wl,-Bsymbolic -Wl,--no-undefined)
quiet_flags=(-Wl,--no-warn-rwx-segments)

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

rm -rf "$work" && mkdir -p "$work/obj" || exit 1

compile() {
	local src
	for src in "$@"; do
		"$gxx" "${compile_flags[@]}" -c "$fixtures/$src.cpp" -o "$work/obj/$src.o" ||
			{ echo "FAIL: cannot compile $src.cpp" >&2; exit 1; }
	done
}

window_of() { # package -> "lo len"
	case $1 in
	lsp_fll_load_cpu_single) echo "$sram_base $single_window" ;;
	lsp_fll_load_cpu[0-7]) echo "$((sram_base + ${1#lsp_fll_load_cpu} * core_window)) $core_window" ;;
	*) echo "FAIL: unknown package $1" >&2; exit 1 ;;
	esac
}

# link PKG OUT [extra flags]: the gnu profile's link; stderr must be empty.
link() {
	local pkg=$1 out=$2
	shift 2
	local script="$lspdir/$pkg/ldscripts/elf32xtensa.x"
	if ! "$gxx" "${link_flags[@]}" "$@" "-Wl,-T,$script" -o "$out" \
		"$work/obj/table.o" "$work/obj/state.o" "$work/obj/start.o" 2>"$out.err"; then
		fail "$pkg: link failed: $(cat "$out.err")"
		return 1
	fi
	if [ -s "$out.err" ]; then
		fail "$pkg: the link printed: $(cat "$out.err")"
	fi
	return 0
}

# The helpers below read `readelf -aW` text on stdin.
readelf_all() { "$readelf" -aW "$1"; }

# Allocated sections as "name addr size" (hex without 0x), one a line.
alloc_sections() {
	awk '
		/^ *\[ *[0-9]+\]/ {
			sub(/^ *\[ *[0-9]+\] */, "")
			if ($2 == "NULL") next
			flags = (NF == 10) ? $7 : ""
			if (flags ~ /A/) print $1, $3, $5
		}'
}

# Program headers with memory, as "type vaddr memsz".
segments() {
	awk '$1 ~ /^[A-Z_]+$/ && $2 ~ /^0x/ && $6 !~ /^0x0+$/ { print $1, $3, $6 }'
}

symbol_value() { # name -> hex value (no 0x), first match
	awk -v n="$1" '$8 == n { print $2; exit }'
}

check_image() {
	local img=$1 pkg=$2 lo=$3 len=$4
	local hi=$((lo + len)) name addr size type n=0 info
	info=$(readelf_all "$img")

	while read -r name addr size; do
		n=$((n + 1))
		addr=$((16#$addr)) size=$((16#$size))
		if [[ $name == *Vector* ]] && [ $((addr + size)) -le $iram_end ]; then
			continue
		fi
		if [ $addr -lt $lo ] || [ $((addr + size)) -gt $hi ]; then
			fail "$pkg: section $name [$(printf %#x $addr), $(printf %#x $((addr + size)))) is outside the window [$(printf %#x $lo), $(printf %#x $hi))"
		fi
	done < <(alloc_sections <<<"$info")
	[ $n -ge 6 ] || fail "$pkg: only $n allocated sections: readelf output not understood"

	n=0
	while read -r type addr size; do
		n=$((n + 1))
		addr=$((addr)) size=$((size))
		if [ $addr -lt $lo ] || [ $((addr + size)) -gt $hi ]; then
			fail "$pkg: segment $type at $(printf %#x $addr) size $(printf %#x $size) is outside the window"
		fi
	done < <(segments <<<"$info")
	[ $n -ge 2 ] || fail "$pkg: expected a LOAD and a DYNAMIC segment, found $n"

	local relocs
	relocs=$(awk '$3 ~ /^R_XTENSA_/ { print $3 }' <<<"$info" | sort | uniq -c)
	if ! grep -q R_XTENSA_RELATIVE <<<"$relocs"; then
		fail "$pkg: no R_XTENSA_RELATIVE relocations at all: $relocs"
	fi
	if grep -v R_XTENSA_RELATIVE <<<"$relocs" | grep -q .; then
		fail "$pkg: dynamic relocations other than R_XTENSA_RELATIVE: $(echo $relocs)"
	fi
	if grep -q '^ *\[ *[0-9]*\] \.rela\.plt ' <<<"$info"; then
		fail "$pkg: the image has a .rela.plt"
	fi

	local entry start
	entry=$(awk '/Entry point address/ { print $4 }' <<<"$info")
	start=$(symbol_value _start <<<"$info")
	if [ -z "$start" ] || [ $((entry)) -ne $((16#$start)) ]; then
		fail "$pkg: entry point $entry is not _start ($start)"
	fi

	# _bss_table: two words at _bss_table_start, in .rodata, holding the
	# link-time [_bss_start, _bss_end).
	local tab bss0 bss1 rod_addr rod_off words
	tab=$(symbol_value _bss_table_start <<<"$info")
	bss0=$(symbol_value _bss_start <<<"$info")
	bss1=$(symbol_value _bss_end <<<"$info")
	read -r rod_addr rod_off < <(awk '
		/^ *\[ *[0-9]+\] \.rodata / { sub(/^ *\[ *[0-9]+\] */, ""); print $3, $4 }' <<<"$info")
	if [ -z "$tab" ] || [ -z "$bss0" ] || [ -z "$bss1" ] || [ -z "$rod_addr" ]; then
		fail "$pkg: _bss_table_start/_bss_start/_bss_end/.rodata missing"
	else
		words=$(od -An -tx4 -j $((16#$rod_off + 16#$tab - 16#$rod_addr)) -N8 "$img")
		if [ "$(echo $words)" != "$bss0 $bss1" ]; then
			fail "$pkg: _bss_table holds '$(echo $words)', expected '$bss0 $bss1'"
		fi
		if [ $((16#$bss1 - 16#$bss0)) -lt 256 ]; then
			fail "$pkg: [_bss_start, _bss_end) is smaller than the fixtures' .bss"
		fi
	fi
}

case $mode in
each)
	compile table state start
	for pkg in lsp_fll_load_cpu{0..7} lsp_fll_load_cpu_single; do
		read -r lo len < <(window_of $pkg)
		# The contract's command exactly (its only output may be ld's
		# RWX warning), then with the quiet flag, checked.
		"$gxx" "${link_flags[@]}" "-Wl,-T,$lspdir/$pkg/ldscripts/elf32xtensa.x" \
			-o "$work/$pkg.plain.so" "$work"/obj/{table,state,start}.o 2>"$work/$pkg.plain.err" ||
			fail "$pkg: the contract's link command failed: $(cat "$work/$pkg.plain.err")"
		if grep -v 'LOAD segment with RWX permissions' "$work/$pkg.plain.err" | grep -q .; then
			fail "$pkg: the contract's link printed: $(cat "$work/$pkg.plain.err")"
		fi
		[ -f "$work/$pkg.plain.so" ] && check_image "$work/$pkg.plain.so" $pkg $lo $len
	done
	# With the quiet flag: nothing printed, the same bytes.
	link lsp_fll_load_cpu1 "$work/quiet.so" "${quiet_flags[@]}" &&
		{ cmp -s "$work/quiet.so" "$work/lsp_fll_load_cpu1.plain.so" ||
			fail "--no-warn-rwx-segments changed the image"; }
	;;
multicore)
	compile table state start
	for i in {0..7}; do
		link lsp_fll_load_cpu$i "$work/cpu$i.so" "${quiet_flags[@]}" || exit 1 &
	done
	wait
	for i in {0..7}; do
		if [ -s "$work/cpu$i.so.err" ]; then
			fail "cpu$i: the link printed: $(cat "$work/cpu$i.so.err")"
		fi
	done
	# "core name addr size" for every allocated section of every image.
	for i in {0..7}; do
		[ -f "$work/cpu$i.so" ] || { fail "cpu$i: no image"; continue; }
		read -r lo len < <(window_of lsp_fll_load_cpu$i)
		check_image "$work/cpu$i.so" cpu$i $lo $len
		readelf_all "$work/cpu$i.so" | alloc_sections | sed "s/^/$i /"
	done >"$work/sections"
	# Each image is cpu0's shifted by i windows; no two cores' sections
	# overlap (sorted by start, each ends before the next one begins).
	problems=$(awk -v w=$core_window '
		function hex(s,  i, v) { v = 0; for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		{ core[NR] = $1; name[NR] = $2; a[NR] = hex($3); z[NR] = hex($4) }
		$1 == 0 { ref[$2] = hex($3) " " hex($4) }
		END {
			for (r = 1; r <= NR; r++) {
				if (ref[name[r]] != (a[r] - core[r] * w) " " z[r])
					print "cpu" core[r] ": " name[r] " is not cpu0'"'"'s shifted by " core[r] " windows"
				for (q = 1; q <= NR; q++)
					if (core[q] != core[r] && z[r] > 0 && z[q] > 0 &&
					    a[r] < a[q] + z[q] && a[q] < a[r] + z[r])
						print "cpu" core[r] ": " name[r] " overlaps cpu" core[q] ": " name[q]
			}
			if (NR < 48) print "only " NR " sections across 8 images"
		}' "$work/sections")
	[ -z "$problems" ] || fail "$problems"
	;;
specs)
	compile table state start
	pkg=lsp_fll_load_cpu0
	"$gxx" "-specs=$lspdir/$pkg/specs" -shared -nodefaultlibs -Wl,-Bsymbolic \
		-Wl,--no-undefined "${quiet_flags[@]}" "-Wl,-T,$lspdir/$pkg/ldscripts/elf32xtensa.x" \
		-v -o "$work/specs.so" "$work"/obj/{table,state,start}.o -lgcc >"$work/specs.log" 2>&1 ||
		fail "gcc -specs=$pkg/specs: $(grep -i 'error\|specs' "$work/specs.log")"
	collect=$(grep 'collect2' "$work/specs.log" | tail -1)
	grep -q 'crti\.o' <<<"$collect" && grep -q 'crtbegin\.o' <<<"$collect" &&
		grep -q 'crtend\.o' <<<"$collect" && grep -q 'crtn\.o' <<<"$collect" ||
		fail "the specs did not bring crti/crtbegin/crtend/crtn: $collect"
	! grep -q 'crt0\.o' <<<"$collect" || fail "the specs kept the default crt0.o"
	! grep -qw -- '-lc' <<<"$collect" || fail "the specs kept the default -lc"
	for pkg in lsp_fll_load_cpu{1..7} lsp_fll_load_cpu_single; do
		cmp -s "$lspdir/lsp_fll_load_cpu0/specs" "$lspdir/$pkg/specs" ||
			fail "$pkg/specs differs from cpu0's"
	done
	;;
overflow)
	compile table state start toobig
	objs=("$work"/obj/{table,state,start,toobig}.o)
	if "$gxx" "${link_flags[@]}" "${quiet_flags[@]}" \
		"-Wl,-T,$lspdir/lsp_fll_load_cpu5/ldscripts/elf32xtensa.x" \
		-o "$work/big5.so" "${objs[@]}" 2>"$work/big5.err"; then
		fail "3 MiB of .bss linked into cpu5's 2 MiB window"
	fi
	grep -q "region \`sram0_0_seg' overflowed" "$work/big5.err" ||
		fail "no region overflow message: $(cat "$work/big5.err")"
	"$gxx" "${link_flags[@]}" "${quiet_flags[@]}" \
		"-Wl,-T,$lspdir/lsp_fll_load_cpu_single/ldscripts/elf32xtensa.x" \
		-o "$work/big.so" "${objs[@]}" || fail "3 MiB of .bss did not fit the single core"
	[ -f "$work/big.so" ] && check_image "$work/big.so" single $sram_base $single_window
	;;
variants)
	compile table state start
	pkg=lsp_fll_load_cpu_single
	scripts=$lspdir/$pkg/ldscripts
	read -r lo len < <(window_of $pkg)
	link $pkg "$work/x.so" "${quiet_flags[@]}" || exit 1
	for v in xbn xn; do
		"$gxx" "${link_flags[@]}" "${quiet_flags[@]}" "-Wl,-T,$scripts/elf32xtensa.$v" \
			-o "$work/$v.so" "$work"/obj/{table,state,start}.o || fail "link with .$v failed"
		cmp -s "$work/x.so" "$work/$v.so" || fail ".$v links a different image from .x"
	done
	ld=$("$gxx" -print-prog-name=ld)
	for v in xr xu; do
		opt=-r
		[ $v = xu ] && opt=-Ur
		if "$ld" $opt -T "$scripts/elf32xtensa.$v" -o "$work/part-$v.o" \
			"$work"/obj/{table,state}.o 2>"$work/part-$v.err" && ! [ -s "$work/part-$v.err" ]; then
			"$gxx" "${link_flags[@]}" "${quiet_flags[@]}" "-Wl,-T,$scripts/elf32xtensa.x" \
				-o "$work/from-$v.so" "$work/part-$v.o" "$work/obj/start.o" ||
				fail "the ld $opt object does not link with .x"
			[ -f "$work/from-$v.so" ] && check_image "$work/from-$v.so" "$pkg(.$v)" $lo $len
		else
			fail "ld $opt -T .$v: $(cat "$work/part-$v.err")"
		fi
		"$readelf" -hW "$work/part-$v.o" | grep -q 'REL (Relocatable' ||
			fail "ld $opt -T .$v did not make a relocatable object"
	done
	;;
libc)
	compile table state start printf
	pkg=lsp_fll_load_cpu2
	read -r lo len < <(window_of $pkg)
	libs=(-lm -lc "$xtlib/libq7softfp.a" -lgcc)
	if "$gxx" "${link_flags[@]}" "${quiet_flags[@]}" "-L$xtlib/lsp" \
		"-Wl,-T,$lspdir/$pkg/ldscripts/elf32xtensa.x" -o "$work/libc.so" \
		"$work"/obj/{table,state,start,printf}.o "${libs[@]}" 2>"$work/libc.err"; then
		[ -s "$work/libc.err" ] && fail "the link printed: $(cat "$work/libc.err")"
		check_image "$work/libc.so" $pkg $lo $len
		"$readelf" -sW "$work/libc.so" | grep -qw vfprintf ||
			fail "vfprintf was not linked: the fixture no longer tests the C library"
	else
		fail "link with -L$xtlib/lsp -lm -lc: $(cat "$work/libc.err")"
	fi
	# Without the copies GNU ld refuses the image (reported, not asserted:
	# a future picolibc may not need them).
	if ! "$gxx" "${link_flags[@]}" "${quiet_flags[@]}" \
		"-Wl,-T,$lspdir/$pkg/ldscripts/elf32xtensa.x" -o "$work/libc-plain.so" \
		"$work"/obj/{table,state,start,printf}.o "${libs[@]}" 2>"$work/libc-plain.err"; then
		echo "note: with the toolchain's own libc.a: $(grep -c 'dangerous relocation' "$work/libc-plain.err") dangerous relocations"
	fi
	;;
*)
	echo "usage: $0 each|multicore|specs|overflow|variants|libc GXX READELF LSPDIR FIXTURES WORK [XTENSA_LIBDIR]" >&2
	exit 2
	;;
esac

if [ $failures -ne 0 ]; then
	echo "$failures failure(s)" >&2
	exit 1
fi
echo "ok: $mode"
