#!/bin/sh
# emu_check.sh: a freestanding test on an emulated lx106 (qemu-system-xtensa
# -M sim -cpu lx106), with the helpers of libq7softfp.a as the cross
# compiler calls them, must print what the host computes and verifies:
#   table   the table test (../sf_table.h), its checksum;
#   stress  the stress sequence (../sf_stress.h), a checksum per operation.
# usage: emu_check.sh ARCHIVE SRCDIR WORKDIR CHECK_SOFTFP N [table|stress]
set -eu
archive=$1 src=$2 work=$3 check=$4 n=$5 kind=${6:-table}
mkdir -p "$work"
fail() { echo "emu_check: $*" >&2; exit 1; }

case $kind in
table) main=emu_main.c srcs="$src/sf_table.c $src/sf_table_ops.c" def=-DQ7SF_EMU_RANDOM="$n"
       want=$("$check" checksum "$n") || fail "the host table test fails: $want"
       want="q7sf table $n checksum $want" ;;
stress) main=stress_main.c srcs="$src/sf_stress.c" def=-DQ7SF_STRESS_N="$n"
        want=$("$check" stress "$n") || fail "the host cannot print its checksums: $want" ;;
*) fail "unknown kind $kind" ;;
esac
# shellcheck disable=SC2086 # srcs: paths without spaces, split on purpose
xtensa-lx106-elf-gcc -std=c11 -Os -mlongcalls -ffreestanding -fno-builtin \
    -nostdlib -Wall -Werror "$def" -I"$src" -I"$src/emu" -T "$src/emu/emu.ld" \
    "$src/emu/start.S" "$src/emu/$main" $srcs \
    "$archive" -lgcc -o "$work/$kind.elf" || fail "cannot build the $kind test"
start=$(date +%s%N)
got=$(timeout 300 qemu-system-xtensa -M sim -cpu lx106 -semihosting -nographic \
      -monitor none -serial none -kernel "$work/$kind.elf") \
    || fail "qemu failed or timed out (output: $got)"
end=$(date +%s%N)
echo "emu_check: host   $want"
echo "emu_check: lx106  $got ($(( (end - start) / 1000000 )) ms)"
[ "$got" = "$want" ] || fail "the results differ"
echo "emu_check: ok"
