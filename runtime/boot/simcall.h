/* QEMU's Xtensa semihosting call (target/xtensa/xtensa-semi.c): a2 the
 * call, a3..a5 its arguments; a2 comes back with the result, a3 with
 * errno (into *err when err is not NULL). For the boot program, and for
 * the test kernel that checks what a kernel may reach with it
 * (tests/emulated/kernels/host_files.cpp). */
#ifndef Q7_SIMCALL_H
#define Q7_SIMCALL_H

static inline int q7_simcall(int nr, int a, int b, int c, int *err)
{
	register int a2 __asm__("a2") = nr;
	register int a3 __asm__("a3") = a;
	register int a4 __asm__("a4") = b;
	register int a5 __asm__("a5") = c;
	__asm__ volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
	if (err)
		*err = a3;
	return a2;
}

#endif
