#!/bin/sh
# e2e.packer.records: .q7.ops in real objects, ELF32 (Xtensa) and ELF64
# (host): attach, replace, read back from objects, ld -r output and ar
# archives; final links drop the section, ld -r and ar keep it; damaged
# objects, payloads and archives are refused with the file's name.
# Usage: records.sh STAGE_BIN SRC_DIR LSP_DIR RECTOOL
. "$(dirname "$0")/lib.sh"
REC=$4

printf 'int f(int x) { return x + 1; }\n' > a.c
printf 'int g(int x) { return x * 2; }\n' > b.c
printf 'int h(int x) { return x - 3; }\n' > c.c
expect_ops() { # FILE COUNT
	$REC read "$1" > ops.txt || fail "read $1"
	[ "$(wc -l < ops.txt)" -eq "$2" ] || { cat ops.txt; fail "$1: expected $2 ops"; }
}
for arch in xtensa host; do
	if [ $arch = xtensa ]; then CC="$X-gcc -mlongcalls -fpic" LD=$X-ld AR=$X-ar; SHARED="$X-ld -shared"
	else CC="cc -fPIC" LD=ld AR=ar SHARED="cc -shared"; fi
	for s in a b c; do $CC -c $s.c -o $s.o; done
	cp c.o c.orig
	$REC attach c.o 0 && cmp c.o c.orig || fail "$arch: attaching no ops changed the object"
	$REC attach a.o 3 || fail "$arch: attach"
	$REC attach b.o 1 && $REC attach b.o 2 || fail "$arch: attach twice"
	[ "$(readelf -W -S b.o | grep -c '\.q7\.ops')" -eq 1 ] || fail "$arch: replaced record not unique"
	readelf -W -S a.o | grep '\.q7\.ops' | grep -q 'PROGBITS.* E ' || fail "$arch: .q7.ops not PROGBITS + SHF_EXCLUDE"
	expect_ops a.o 3
	grep -q '^op2 ns::op2 k.cpp:12:5 stack=8192 Tensor:x long long:k$' ops.txt || { cat ops.txt; fail "$arch: op fields"; }
	expect_ops b.o 2
	expect_ops c.o 0
	# ld -r and ar keep the records; every archive member is read.
	$LD -r a.o b.o -o ab.o
	expect_ops ab.o 5
	echo 'not an object' > notes.txt
	$AR rcs lib.a a.o b.o c.o notes.txt
	expect_ops lib.a 5
	# Final links drop them.
	$SHARED a.o b.o -o ab.so
	if readelf -W -S ab.so | grep -q '\.q7\.ops'; then fail "$arch: a final link kept .q7.ops"; fi
	expect_ops ab.so 0
	# Linker scripts and other text: nothing, no error.
	echo 'INPUT(a.o)' > script.ld
	expect_ops script.ld 0
	# elfutils agrees the host objects are sound.
	if [ $arch = host ]; then
		need eu-elflint elfutils
		eu-elflint --gnu-ld a.o || fail "eu-elflint on an object with records"
		eu-elflint --gnu-ld ab.o || fail "eu-elflint on ld -r output with records"
	fi

	# Damage: a truncated object, a flipped payload byte, a cut archive.
	head -c 100 a.o > trunc.o
	if $REC read trunc.o 2> err; then fail "$arch: truncated object accepted"; fi
	grep -q '^q7cc: error: trunc.o: ' err || { cat err; fail "$arch: message does not name the file"; }
	$PY -c "
import sys; sys.path.insert(0, '$SRC'); import elfutil
e = elfutil.Elf('a.o'); i, s = e.section('.q7.ops'); d = bytearray(e.data)
d[s['off'] + s['size'] - 3] ^= 0x40; open('flip.o', 'wb').write(d)"
	if $REC read flip.o 2> err; then fail "$arch: damaged payload accepted"; fi
	grep -q "^q7cc: error: flip.o: .q7.ops: checksum mismatch" err || { cat err; fail "$arch: payload message"; }
	size=$(wc -c < lib.a)
	head -c $((size - 40)) lib.a > cut.a
	if $REC read cut.a 2> err; then fail "$arch: cut archive accepted"; fi
	grep -q '^q7cc: error: cut.a' err || { cat err; fail "$arch: archive message"; }
	# attach leaves a damaged object alone and no temporary behind.
	cp trunc.o trunc.before
	if $REC attach trunc.o 1 2> err; then fail "$arch: attach to a damaged object"; fi
	cmp trunc.o trunc.before || fail "$arch: damaged object modified"
	[ -z "$(ls -A | grep '^\.')" ] || fail "$arch: temporary left behind: $(ls -A | grep '^\.')"
	if $REC attach notes.txt 1 2> err; then fail "$arch: attach to text"; fi
	echo "records: $arch ok"
done
