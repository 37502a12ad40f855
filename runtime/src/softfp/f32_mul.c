/* f32_mul.c: binary32 multiplication (__mulsf3). */
#include "sf_impl.h"

/* The common case first (docs/performance.md): both operands normal and
 * the product normal; 0 for anything else, which the general code below
 * does (both round to nearest even: the same bits). The 24-bit
 * significands' product has at most 48 bits; its top 32 (p >> 16) come
 * from three 16-bit pieces' products without a carry out, its low 16 bits
 * are sticky. */
static inline int mul32_fast(uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu, ma, mb, ll, t, sticky, low;
    int32_t e;
    if (ea - 1u >= 0xfeu || eb - 1u >= 0xfeu)
        return 0;
    ma = (a & SF32_FRAC) | 0x00800000u;
    mb = (b & SF32_FRAC) | 0x00800000u;
    ll = (ma & 0xffffu) * (mb & 0xffffu);
    t = ((ma >> 16) * (mb >> 16) << 16) + (ma >> 16) * (mb & 0xffffu) +
        (ma & 0xffffu) * (mb >> 16) + (ll >> 16);
    sticky = ll & 0xffffu;
    e = (int32_t)(ea + eb) - 0x7e;
    if (!(t & 0x80000000u)) { /* the product below 2^47: one more bit */
        t = (t << 1) | ((ll >> 15) & 1u);
        sticky = ll & 0x7fffu;
        e--;
    }
    if ((uint32_t)e - 1u >= 0xfeu)
        return 0;
    low = t & 0xffu;
    t >>= 8;
    t += low > 0x80u || (low == 0x80u && (sticky || (t & 1u)));
    *r = ((a ^ b) & SF32_SIGN) + ((uint32_t)(e - 1) << 23) + t;
    return 1;
}

/* Every other case: zeros, subnormals, inf, NaN, results outside the
 * normal range. Out of line: the fast path then needs no stack frame
 * (on the target it jumps here with a and b as it was given them). */
Q7SF_API uint32_t q7sf_mul32_slow(uint32_t a, uint32_t b);
SF_MUL(32, uint32_t, 23, q7sf_mul32_slow)

#ifdef Q7SF_HOST
float Q7SF(mulsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (mul32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_mul32_slow(a, b));
}
#else
/* mul32_fast's job in Xtensa assembly (call0 ABI: a and b in a2 and a3,
 * the result in a2, a4..a11 free): GCC gives it a stack frame for the call
 * of the general case, a quarter of its instructions; this jumps there
 * instead, a0 untouched. t = p >> 16 from four 16-bit products, as
 * mul32_fast's; then, by where its leading one is (bit 31 or 30), t is
 * rounded at bit 8 or 7 and the exponent taken as ea + eb - 127 or - 128:
 * up when the guard bit is set and anything below it (t's low bits, the
 * product's low 16 bits in a5) or the last kept bit is. The steps give
 * mul32_fast's bits, which the host tests check; unit.softfp_emulated and
 * unit.softfp_stress_emulated check these against the host. */
#define Q7SF_MUL_TAIL(P, X, G, UP) \
    "    addi a4, a4, " X "\n"         /* e - 1 */ \
    "    bltu a11, a4, 9f\n"            /* outside the normal range */ \
    "    bbci a6, " #G ", " P "down\n" \
    "    extui a7, a6, 0, " #G "\n" \
    "    bnez a7, " P "up\n" \
    "    extui a7, a5, 0, 16\n" \
    "    bnez a7, " P "up\n" \
    "    bbci a6, " #G " + 1, " P "down\n" /* a tie: to even */ \
    P "up:\n" \
    UP                                  /* the last kept bit's weight */ \
    P "down:\n" \
    "    srli a6, a6, " #G " + 1\n" \
    "    xor a7, a2, a3\n" \
    "    bgez a7, " P "pack\n" \
    "    addmi a4, a4, 256\n"           /* the sign, above e - 1 */ \
    P "pack:\n" \
    "    slli a4, a4, 23\n" \
    "    add a2, a6, a4\n" \
    "    ret\n"

__asm__(
    Q7SF_ASM_ENTRY("__mulsf3")
    Q7SF_ASM_BOTH_NORMAL
    "    movi a8, 128\n"
    "    extui a9, a2, 16, 7\n"      /* the significands' high bytes, the */
    "    extui a10, a3, 16, 7\n"     /* leading one in; mul16u takes the */
    "    or a9, a9, a8\n"            /* low halves from a2 and a3 */
    "    or a10, a10, a8\n"
    "    add a4, a4, a5\n"
    "    mul16u a5, a2, a3\n"        /* ll */
    "    mul16u a6, a2, a10\n"
    "    mul16u a7, a3, a9\n"
    "    mul16u a9, a9, a10\n"
    "    add a6, a6, a7\n"
    "    slli a9, a9, 16\n"
    "    extui a7, a5, 16, 16\n"
    "    add a6, a6, a9\n"
    "    add a6, a6, a7\n"           /* t = p >> 16 */
    "    bgez a6, 1f\n"
    Q7SF_MUL_TAIL(".Lq7sf_mul8_", "-127", 7, "    addmi a6, a6, 256\n")
    "1:\n"
    Q7SF_MUL_TAIL(".Lq7sf_mul7_", "-128", 6, "    add a6, a6, a8\n")
    "9:  j q7sf_mul32_slow\n"
    "    .size __mulsf3, . - __mulsf3\n");
#endif
