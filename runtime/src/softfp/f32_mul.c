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
uint32_t q7sf_mul32_slow(uint32_t a, uint32_t b)
{
    uint32_t sign = (a ^ b) >> 31, ma, mb, m;
    uint64_t p;
    int32_t ea, eb, e;

    if (sf_isnan32(a) || sf_isnan32(b))
        return sf_nan32(a, b);
    if ((a & SF32_EXP) == SF32_EXP || (b & SF32_EXP) == SF32_EXP) {
        if ((a & ~SF32_SIGN) == 0 || (b & ~SF32_SIGN) == 0)
            return SF32_DEFAULT_NAN; /* 0 * inf */
        return (sign << 31) | SF32_INF;
    }
    if ((a & ~SF32_SIGN) == 0 || (b & ~SF32_SIGN) == 0)
        return sign << 31;

    ma = sf_unpack32(a, &ea);
    mb = sf_unpack32(b, &eb);
    /* Leading ones at bits 30 and 31: the product's lands at bit 61 or 62,
     * so its high word has it at 29 or 30; the low word becomes sticky. */
    p = sf_mul32x32(ma << 7, mb << 8);
    m = (uint32_t)(p >> 32) | ((uint32_t)p != 0);
    e = ea + eb - 0x7f;
    if (m < 0x40000000u) {
        m <<= 1;
        e--;
    }
    return sf_round_pack32(sign, e, m);
}

#ifdef Q7SF_HOST
float Q7SF(mulsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (mul32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_mul32_slow(a, b));
}
#else
/* mul32_fast in Xtensa assembly (call0 ABI: a and b in a2 and a3, the
 * result in a2, a4..a11 free): GCC gives it a stack frame for the call of
 * the general case, a quarter of its instructions; this jumps there
 * instead, a0 untouched. The same steps as mul32_fast, which the host
 * tests check; unit.softfp_emulated checks this against the host. */
__asm__(
    "    .text\n"
    "    .align 4\n"
    "    .global __mulsf3\n"
    "    .hidden __mulsf3\n"
    "    .type __mulsf3, @function\n"
    "__mulsf3:\n"
    "    extui a4, a2, 23, 8\n"      /* ea */
    "    extui a5, a3, 23, 8\n"      /* eb */
    "    movi a11, 253\n"
    "    addi a6, a4, -1\n"
    "    bltu a11, a6, 9f\n"         /* a zero, subnormal, inf or NaN */
    "    addi a7, a5, -1\n"
    "    bltu a11, a7, 9f\n"
    "    movi a8, 128\n"
    "    extui a9, a2, 16, 7\n"      /* the significands' high bytes, the */
    "    extui a10, a3, 16, 7\n"     /* leading one in; mul16u takes the */
    "    or a9, a9, a8\n"            /* low halves from a2 and a3 */
    "    or a10, a10, a8\n"
    "    mul16u a8, a2, a3\n"        /* ll */
    "    mul16u a6, a2, a10\n"
    "    mul16u a7, a3, a9\n"
    "    mul16u a9, a9, a10\n"
    "    add a6, a6, a7\n"
    "    slli a9, a9, 16\n"
    "    extui a7, a8, 16, 16\n"
    "    add a6, a6, a9\n"
    "    add a4, a4, a5\n"
    "    add a6, a6, a7\n"           /* t = p >> 16 */
    "    bltz a6, 1f\n"
    "    extui a7, a8, 15, 1\n"      /* below 2^47: one more bit */
    "    add a6, a6, a6\n"
    "    extui a8, a8, 0, 15\n"
    "    or a6, a6, a7\n"
    "    addi a4, a4, -128\n"        /* e - 1 */
    "    j 2f\n"
    "1:  extui a8, a8, 0, 16\n"
    "    addi a4, a4, -127\n"
    "2:  bltu a11, a4, 9f\n"         /* outside the normal range */
    "    extui a7, a6, 0, 8\n"       /* round to nearest even */
    "    srli a6, a6, 8\n"
    "    movi a9, 128\n"
    "    bltu a9, a7, 3f\n"
    "    bne a7, a9, 4f\n"
    "    bnez a8, 3f\n"
    "    bbci a6, 0, 4f\n"
    "3:  addi a6, a6, 1\n"
    "4:  xor a2, a2, a3\n"
    "    extui a2, a2, 31, 1\n"
    "    slli a4, a4, 23\n"
    "    slli a2, a2, 31\n"
    "    add a6, a6, a4\n"
    "    add a2, a2, a6\n"
    "    ret\n"
    "9:  j q7sf_mul32_slow\n"
    "    .size __mulsf3, . - __mulsf3\n");
#endif
