/* semihost.h: output and exit for bare programs on qemu-system-xtensa
 * -semihosting (the table test here, bench/softfp/bench.c): the SIMCALL
 * instruction with the call number in a2 (4 write, 1 exit), then arguments. */
#ifndef Q7_SEMIHOST_H
#define Q7_SEMIHOST_H

static inline void sim_write(const char *s, int n)
{
    register int a2 __asm__("a2") = 4;
    register int a3 __asm__("a3") = 1;
    register const char *a4 __asm__("a4") = s;
    register int a5 __asm__("a5") = n;
    __asm__ volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
}

static inline void sim_exit(int code)
{
    register int a2 __asm__("a2") = 1;
    register int a3 __asm__("a3") = code;
    __asm__ volatile("simcall" : : "r"(a2), "r"(a3));
}

/* Copies s (without its NUL) to p; returns its length. */
static inline int sim_put_str(char *p, const char *s)
{
    int n = 0;
    while (s[n]) {
        p[n] = s[n];
        n++;
    }
    return n;
}

#endif
