/* start.S: reset vector of the bare table test on qemu-system-xtensa -M sim
 * -cpu lx106 (execution starts at 0x50000000, sysrom0): a stack at the top
 * of the first MiB of sysram0, then emu_main, which ends by semihosting. */
    .section .text.start, "ax"
    .global _start
_start:
    j .Lboot
    .align 4
.Lstack:
    .word 0x60100000
.Lboot:
    l32r a1, .Lstack
    call0 emu_main
1:  j 1b
