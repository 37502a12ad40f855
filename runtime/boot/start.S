/* q7boot's first instructions: the reset vector at 0x50000000 and the
 * exception vectors beside it (VECBASE = 0x50000000, the lx106's vector
 * offsets), then the set-up C needs: a processor state with exceptions
 * enabled, a stack at the top of dataram0, and a jump to q7boot_main.
 * Every exception or interrupt goes to q7boot_exception on a stack of its
 * own, which reports it and ends the run. lx106 code is call0 ABI. */

	.section .boot.vectors, "ax"
	.global _q7boot_reset
_q7boot_reset:			/* 0x00: reset (RESET_VECTOR0) */
	j	.Lboot
	.org	0x10
	movi	a5, 4		/* 0x10: level-2 interrupt / debug exception */
	j	.Lexc
	.org	0x20
	movi	a5, 5		/* 0x20: NMI (level 3) */
	j	.Lexc
	.org	0x30
	movi	a5, 2		/* 0x30: kernel exception */
	j	.Lexc
	.org	0x50
	movi	a5, 1		/* 0x50: user exception */
	j	.Lexc
	.org	0x70
	movi	a5, 3		/* 0x70: double exception */
	j	.Lexc

	.text
	.literal_position
	.align	4
.Lboot:
	movi	a2, 0x50000000
	wsr.vecbase a2
	/* PS: user vector mode, exceptions enabled (EXCM 0), interrupts masked. */
	movi	a2, 0x2f
	wsr.ps	a2
	rsync
	movi	a1, __q7boot_stack_top
	movi	a0, 0
	call0	q7boot_main
1:	j	1b

	.align	4
.Lexc:
	rsr.exccause a2
	rsr.epc1 a3
	rsr.excvaddr a4
	movi	a6, 3
	bne	a5, a6, 2f
	rsr.depc a3		/* a double exception's pc is in DEPC */
2:	movi	a6, 4
	bne	a5, a6, 4f
	/* The lx106's debug level is 2 and interrupts are masked, so this is
	 * a debug exception (BREAK: __builtin_trap): its pc is in EPC2, why
	 * in DEBUGCAUSE (EPC1 and EXCCAUSE say nothing of it). */
	rsr.epc2 a3
	rsr.debugcause a2
4:	movi	a1, __q7boot_exc_stack_top
	movi	a6, 0x2f
	wsr.ps	a6
	rsync
	mov	a6, a0		/* the interrupted code's a0: a leaf's return address */
	call0	q7boot_exception
3:	j	3b
