#!/bin/sh
# emu_check.sh: the table test on an emulated lx106 (qemu-system-xtensa -M
# sim -cpu lx106), with the helpers of libq7softfp.a as the cross compiler
# calls them, must print the checksum the host computes and verifies.
# usage: emu_check.sh ARCHIVE SRCDIR WORKDIR CHECK_SOFTFP N
set -eu
archive=$1 src=$2 work=$3 check=$4 n=$5
mkdir -p "$work"
fail() { echo "emu_check: $*" >&2; exit 1; }

xtensa-lx106-elf-gcc -std=c11 -Os -mlongcalls -ffreestanding -fno-builtin \
    -nostdlib -Wall -Werror -DQ7SF_EMU_RANDOM="$n" -I"$src" -I"$src/emu" -T "$src/emu/emu.ld" \
    "$src/emu/start.S" "$src/emu/emu_main.c" "$src/sf_table.c" "$src/sf_table_ops.c" \
    "$archive" -lgcc -o "$work/table.elf" || fail "cannot build the table test"
want=$("$check" checksum "$n") || fail "the host table test fails: $want"
start=$(date +%s%N)
got=$(timeout 120 qemu-system-xtensa -M sim -cpu lx106 -semihosting -nographic \
      -monitor none -serial none -kernel "$work/table.elf") \
    || fail "qemu failed or timed out (output: $got)"
end=$(date +%s%N)
echo "emu_check: host   q7sf table $n checksum $want"
echo "emu_check: lx106  $got ($(( (end - start) / 1000000 )) ms)"
[ "$got" = "q7sf table $n checksum $want" ] || fail "checksums differ"
echo "emu_check: ok"
