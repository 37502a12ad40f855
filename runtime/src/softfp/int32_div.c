/* int32_div.c: 32-bit division (__divsi3, __udivsi3, __umodsi3). */
#include "sf_div.h"

#ifdef Q7SF_HOST
#define Q7SF_DIV(name) Q7SF(name)
#else
/* On the target the C functions are the general case that the assembly
 * below jumps to (a zero divisor; for __divsi3 also INT32_MIN). */
#define Q7SF_DIV(name) q7sf_##name##_slow
Q7SF_API int32_t q7sf_divsi3_slow(int32_t a, int32_t b);
Q7SF_API uint32_t q7sf_udivsi3_slow(uint32_t a, uint32_t b);
Q7SF_API uint32_t q7sf_umodsi3_slow(uint32_t a, uint32_t b);
#endif

int32_t Q7SF_DIV(divsi3)(int32_t a, int32_t b)
{
    uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    uint32_t ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
    uint32_t r, q;

    sf_check_divisor(b == 0);
    q = sf_udivmod32(ua, ub, &r);
    /* INT32_MIN / -1 comes out as 2^31 and wraps back to INT32_MIN. */
    return (int32_t)((a ^ b) < 0 ? 0u - q : q);
}

SF_UDIV_UMOD(uint32_t, Q7SF_DIV(udivsi3), Q7SF_DIV(umodsi3), sf_udivmod32)

#ifndef Q7SF_HOST
/* The common case in Xtensa assembly (docs/performance.md): d <= n <
 * 2^31. D = d shifted up to n's leading bit; one register X holds the
 * remainder, shifted up, and the quotient bits below it: each of the k =
 * steps + 1 steps is X >= D ? 2 (X - D) + 1 : 2 X, two or four
 * instructions, one step and then blocks of 16, 8, 4, 2 and 1 taken by
 * the bits of steps. At the end X = (remainder << k) | quotient; X < 2 D <
 * 2^32 throughout. In: a2 = n, a3 = d; out: a2 = X, a4 = steps, a5 = 1 <<
 * steps, a8 = 1; a6 and a7 used.
 * A dividend n from 2^31 (unsigned) is halved first: with n = 2 n' + b,
 * n' = q' d + r' and t = 2 r' + b < 2 d, n / d = 2 q' + (t >= d).
 * Labels: 1 and 2 in a step, 3 to 6 and 10 in the core, 7 to 9 and 11 to
 * 15 in the functions (a forward reference must not meet another's label
 * first). */
__asm__(
    "    .macro q7sf_step\n"
    "    bltu a2, a7, 1f\n"
    "    sub a2, a2, a7\n"
    "    addx2 a2, a2, a8\n"
    "    j 2f\n"
    "1:  slli a2, a2, 1\n"
    "2:\n"
    "    .endm\n"
    "    .macro q7sf_udiv_core\n"
    "    nsau a5, a3\n"
    "    nsau a6, a2\n"
    "    movi a8, 1\n"
    "    sub a4, a5, a6\n"               /* steps */
    "    ssl a4\n"
    "    sll a7, a3\n"                   /* D */
    "    sll a5, a8\n"                   /* 1 << steps, for the mask */
    "    q7sf_step\n"
    "    bbci a4, 4, 3f\n"
    "    .rept 16\n"
    "    q7sf_step\n"
    "    .endr\n"
    "3:  bbci a4, 3, 4f\n"
    "    .rept 8\n"
    "    q7sf_step\n"
    "    .endr\n"
    "4:  bbci a4, 2, 5f\n"
    "    .rept 4\n"
    "    q7sf_step\n"
    "    .endr\n"
    "5:  bbci a4, 1, 6f\n"
    "    q7sf_step\n"
    "    q7sf_step\n"
    "6:  bbci a4, 0, 10f\n"
    "    q7sf_step\n"
    "10:\n"
    "    .endm\n"
    "    .macro q7sf_quotient\n"          /* a2 = X & ((2 << steps) - 1) */
    "    addx2 a5, a5, a8\n"
    "    addi a5, a5, -2\n"
    "    and a2, a2, a5\n"
    "    .endm\n"
    Q7SF_ASM_ENTRY("__udivsi3")
    "    beqz a3, 9f\n"
    "    bltz a2, 11f\n"
    "    bltu a2, a3, 8f\n"
    "    q7sf_udiv_core\n"
    "    q7sf_quotient\n"
    "    ret\n"
    "8:  movi a2, 0\n"
    "    ret\n"
    "9:  j q7sf_udivsi3_slow\n"
    "11: bltz a3, 13f\n"             /* n >= 2^31: halved, b its low bit */
    "    extui a11, a2, 0, 1\n"
    "    srli a2, a2, 1\n"
    "    bltu a2, a3, 14f\n"
    "    q7sf_udiv_core\n"
    "    addi a6, a4, 1\n"
    "    ssr a6\n"
    "    srl a7, a2\n"                  /* r' */
    "    q7sf_quotient\n"                /* q' */
    "    addx2 a7, a7, a11\n"            /* t = 2 r' + b < 2 d */
    "    slli a2, a2, 1\n"
    "    bltu a7, a3, 15f\n"
    "    addi a2, a2, 1\n"
    "15: ret\n"
    "14: addx2 a7, a2, a11\n"            /* q' = 0, t = n */
    "    movi a2, 0\n"
    "    bltu a7, a3, 15b\n"
    "    movi a2, 1\n"
    "    ret\n"
    "13: bltu a2, a3, 8b\n"              /* both from 2^31: n >= d */
    "    movi a2, 1\n"
    "    ret\n"
    "    .size __udivsi3, . - __udivsi3\n"
    Q7SF_ASM_ENTRY("__umodsi3")
    "    beqz a3, 9f\n"
    "    bltz a2, 11f\n"
    "    bltu a2, a3, 8f\n"
    "    q7sf_udiv_core\n"
    "    addi a4, a4, 1\n"               /* k */
    "    ssr a4\n"
    "    srl a2, a2\n"
    "8:  ret\n"
    "9:  j q7sf_umodsi3_slow\n"
    "11: bltz a3, 13f\n"             /* n >= 2^31: halved, b its low bit */
    "    extui a11, a2, 0, 1\n"
    "    srli a2, a2, 1\n"
    "    bltu a2, a3, 14f\n"
    "    q7sf_udiv_core\n"
    "    addi a4, a4, 1\n"
    "    ssr a4\n"
    "    srl a2, a2\n"                  /* r' */
    "14: addx2 a2, a2, a11\n"            /* t = 2 r' + b < 2 d */
    "    bltu a2, a3, 15f\n"
    "    sub a2, a2, a3\n"
    "15: ret\n"
    "13: bltu a2, a3, 15b\n"             /* both from 2^31: n or n - d */
    "    sub a2, a2, a3\n"
    "    ret\n"
    "    .size __umodsi3, . - __umodsi3\n"
    Q7SF_ASM_ENTRY("__divsi3")
    "    beqz a3, 9f\n"
    "    xor a11, a2, a3\n"
    "    abs a2, a2\n"
    "    bltz a2, 9f\n"                   /* INT32_MIN, as given */
    "    abs a3, a3\n"                    /* INT32_MIN: 2^31, above any n */
    "    bltu a2, a3, 8f\n"
    "    q7sf_udiv_core\n"
    "    q7sf_quotient\n"
    "    bgez a11, 7f\n"
    "    neg a2, a2\n"
    "7:  ret\n"
    "8:  movi a2, 0\n"
    "    ret\n"
    "9:  j q7sf_divsi3_slow\n"
    "    .size __divsi3, . - __divsi3\n");
#endif
