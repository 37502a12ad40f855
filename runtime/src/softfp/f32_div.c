/* f32_div.c: binary32 division (__divsf3), in place of libgcc's bit-by-bit
 * one (174 instructions a call in bench/softfp/run). */
#include "sf_impl.h"

/* q7sf_rcp16[i] = floor(2^31 / (2^15 + (i + 1) * 2^7)): a reciprocal of
 * every 16-bit divisor whose bits below its leading one start with i, from
 * below, to within 2^-8. */
#define RCP(i) (uint16_t)(0x80000000u / (0x8000u + ((i) + 1u) * 0x80u))
#define RCP4(i) RCP(i), RCP(i + 1u), RCP(i + 2u), RCP(i + 3u)
#define RCP16(i) RCP4(i), RCP4(i + 4u), RCP4(i + 8u), RCP4(i + 12u)
#define RCP64(i) RCP16(i), RCP16(i + 16u), RCP16(i + 32u), RCP16(i + 48u)
Q7SF_API extern const uint16_t q7sf_rcp16[256];
const uint16_t q7sf_rcp16[256] = {RCP64(0u), RCP64(64u), RCP64(128u), RCP64(192u)};
#undef RCP64
#undef RCP16
#undef RCP4
#undef RCP

/* The common case first (docs/performance.md): both operands normal and
 * the quotient normal; 0 for anything else, which the general code below
 * does. With n in [d, 2d) (n doubled if need be), the quotient's 25 bits
 * Q = floor(n * 2^24 / d) round to nearest as (Q + 1) >> 1: a quotient of
 * two 24-bit significands never lies halfway. Q comes from a reciprocal
 * (the table and one Newton step, 16 bits), twelve bits at a time, with
 * remainders that are exact modulo 2^32 because they are small, then is
 * corrected against its remainder. The steps are the assembly's below. */
static inline int div32_fast(uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu, n, d, rcp, t, q, rem;
    uint32_t e;
    if (ea - 1u >= 0xfeu || eb - 1u >= 0xfeu)
        return 0;
    n = (a & SF32_FRAC) | 0x00800000u;
    d = (b & SF32_FRAC) | 0x00800000u;
    e = ea - eb + 126u; /* the biased exponent minus one, for n >= d */
    if (n < d) {
        n <<= 1;
        e--;
    }
    if (e >= 0xfeu)
        return 0;
    rcp = q7sf_rcp16[(d >> 15) & 0xffu];      /* <= 2^31 / (d >> 8) */
    t = (0u - (d >> 8) * rcp) >> 8 & 0xffffu; /* (2^31 - (d >> 8) rcp) >> 8 */
    rcp += (rcp * t) >> 23;                   /* about 2^39 / d, +-2^-15 */
    q = (((n >> 9) * rcp) >> 18) - 1u;        /* q 2^12, from below */
    rem = (n << 12) - q * d;                  /* below 4d */
    q = (q << 12) + (((rem >> 10) * rcp) >> 17);
    rem = (n << 24) - q * d;
    while ((int32_t)rem < 0) {
        rem += d;
        q--;
    }
    while (rem >= d) {
        rem -= d;
        q++;
    }
    *r = ((a ^ b) & SF32_SIGN) + (e << 23) + ((q + 1u) >> 1);
    return 1;
}

/* Every other case: NaN, inf, zeros, subnormals, a quotient outside the
 * normal range. Out of line: the fast path jumps here with a and b as it
 * was given them. */
Q7SF_API uint32_t q7sf_div32_slow(uint32_t a, uint32_t b);
SF_DIV(32, uint32_t, 23, q7sf_div32_slow)

#ifdef Q7SF_HOST
float Q7SF(divsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (div32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_div32_slow(a, b));
}
#else
/* div32_fast in Xtensa assembly (call0 ABI: a and b in a2 and a3, the
 * result in a2, a4..a11 free), jumping to q7sf_div32_slow with the
 * operands as given for everything else; unit.softfp_stress_emulated
 * checks it against the host. a6 is n, a7 d, a9 the reciprocal, a10 q,
 * a8 the remainder. */
__asm__(
    Q7SF_ASM_ENTRY("__divsf3")
    Q7SF_ASM_BOTH_NORMAL
    "    sub a4, a4, a5\n"
    "    addi a4, a4, 126\n"         /* e, for n >= d */
    "    movi a10, 0x00800000\n"
    "    slli a6, a2, 9\n"
    "    slli a7, a3, 9\n"
    "    srli a6, a6, 9\n"
    "    srli a7, a7, 9\n"
    "    or a6, a6, a10\n"           /* n */
    "    or a7, a7, a10\n"           /* d */
    "    bgeu a6, a7, 1f\n"
    "    add a6, a6, a6\n"
    "    addi a4, a4, -1\n"
    "1:  bltu a11, a4, 9f\n"         /* the quotient outside the normal range */
    "    extui a8, a7, 15, 8\n"
    "    movi a9, q7sf_rcp16\n"
    "    addx2 a9, a8, a9\n"
    "    l16ui a9, a9, 0\n"          /* rcp */
    "    srli a10, a7, 8\n"
    "    mul16u a10, a10, a9\n"
    "    neg a10, a10\n"
    "    extui a10, a10, 8, 16\n"    /* t */
    "    mul16u a10, a10, a9\n"
    "    srli a10, a10, 23\n"
    "    add a9, a9, a10\n"          /* rcp, Newton-refined */
    "    srli a10, a6, 9\n"
    "    mul16u a10, a10, a9\n"
    "    srli a10, a10, 18\n"
    "    addi a10, a10, -1\n"        /* q 2^12 */
    "    slli a8, a6, 12\n"
    "    mull a5, a10, a7\n"
    "    sub a8, a8, a5\n"           /* rem */
    "    srli a8, a8, 10\n"
    "    mul16u a8, a8, a9\n"
    "    srli a8, a8, 17\n"
    "    slli a10, a10, 12\n"
    "    add a10, a10, a8\n"         /* q */
    "    slli a8, a6, 24\n"
    "    mull a5, a10, a7\n"
    "    sub a8, a8, a5\n"           /* rem */
    "    bgez a8, 3f\n"
    "2:  add a8, a8, a7\n"           /* q too large */
    "    addi a10, a10, -1\n"
    "    bltz a8, 2b\n"
    "3:  bltu a8, a7, 4f\n"
    "    sub a8, a8, a7\n"           /* q too small */
    "    addi a10, a10, 1\n"
    "    j 3b\n"
    "4:  addi a10, a10, 1\n"         /* round to nearest */
    "    srli a10, a10, 1\n"
    "    xor a2, a2, a3\n"
    "    extui a2, a2, 31, 1\n"
    "    slli a4, a4, 23\n"
    "    slli a2, a2, 31\n"
    "    add a10, a10, a4\n"
    "    add a2, a2, a10\n"
    "    ret\n"
    "9:  j q7sf_div32_slow\n"
    "    .size __divsf3, . - __divsf3\n");
#endif
