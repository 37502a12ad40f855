/* f32_addsub.c: binary32 addition and subtraction (__addsf3, __subsf3). */
#include "sf_impl.h"

/* The common case first (docs/performance.md): both operands normal and
 * the result normal. Returns 0 for anything else (zeros, subnormals, inf,
 * NaN, an overflow or a result below the normal range), which add32 below
 * then does; both round to nearest even, so the bits are the same. b's
 * sign is already flipped for a subtraction. Significands carry their
 * leading one at bit 29 and six bits below the fraction: a guard bit and
 * the rest sticky, enough for one normalising shift after a difference
 * (a cancellation of more bits happens only when the exponents are at most
 * one apart, where the difference is exact). */
static inline int add32_fast(uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu, ma, mb, m, d, low;
    if (ea - 1u >= 0xfeu || eb - 1u >= 0xfeu)
        return 0;
    if ((a & ~SF32_SIGN) < (b & ~SF32_SIGN)) {
        uint32_t t = a; a = b; b = t;
        t = ea; ea = eb; eb = t;
    }
    ma = ((a & SF32_FRAC) | 0x00800000u) << 6;
    mb = ((b & SF32_FRAC) | 0x00800000u) << 6;
    d = ea - eb;
    mb = d < 32 ? (mb >> d) | ((mb << (31 - d) << 1) != 0) : 1u;
    if ((a ^ b) & SF32_SIGN) {
        m = ma - mb;
        if (m == 0) {
            *r = 0; /* x - x is +0 when rounding to nearest */
            return 1;
        }
        d = (uint32_t)sf_clz32(m) - 2;
        if (d >= ea) /* below the normal range */
            return 0;
        ea -= d;
        m <<= d;
    } else {
        m = ma + mb;
        if (m & 0x40000000u) {
            m = (m >> 1) | (m & 1u);
            if (++ea == 0xffu)
                return 0;
        }
    }
    low = m & 0x3fu;
    m >>= 6;
    m += low > 0x20u || (low == 0x20u && (m & 1u));
    *r = (a & SF32_SIGN) + ((ea - 1u) << 23) + m;
    return 1;
}

/* a + (b with its sign flipped by flip). NaNs are sorted out first, on the
 * operands as given, so that a - NaN returns that NaN's own sign. Out of
 * line: the fast path then needs no stack frame (on the target it jumps
 * here with a, b and flip as it was given them). */
Q7SF_API uint32_t q7sf_add32(uint32_t a, uint32_t b, uint32_t flip);
uint32_t q7sf_add32(uint32_t a, uint32_t b, uint32_t flip)
{
    uint32_t sa, sb, ma, mb, m;
    int32_t ea, eb;

    if (sf_isnan32(a) || sf_isnan32(b))
        return sf_nan32(a, b);
    b ^= flip;
    sa = a >> 31;
    sb = b >> 31;
    ea = (int32_t)((a >> 23) & 0xff);
    eb = (int32_t)((b >> 23) & 0xff);
    if (ea == 0xff)
        return (eb == 0xff && sa != sb) ? SF32_DEFAULT_NAN : a;
    if (eb == 0xff)
        return b;

    /* Subnormals share exponent 1 with the smallest normals; 7 extra bits
     * below the fraction carry guard, round and sticky information. */
    ma = a & SF32_FRAC;
    mb = b & SF32_FRAC;
    if (ea == 0) ea = 1; else ma |= 0x00800000u;
    if (eb == 0) eb = 1; else mb |= 0x00800000u;
    ma <<= 7;
    mb <<= 7;

    /* Order by magnitude: a becomes the larger. */
    if (ea < eb || (ea == eb && ma < mb)) {
        uint32_t t = ma; ma = mb; mb = t;
        t = sa; sa = sb; sb = t;
        int32_t te = ea; ea = eb; eb = te;
    }
    mb = sf_shr_jam32(mb, (uint32_t)(ea - eb));
    if (sa == sb) {
        m = ma + mb;
        if (m & 0x80000000u) {
            m = (m >> 1) | (m & 1u);
            ea++;
        }
        /* Both subnormal: m is below bit 30 but e - 1 == 0 packs it right. */
        return sf_round_pack32(sa, ea - 1, m);
    }
    m = ma - mb;
    if (m == 0)
        return 0; /* x - x is +0 when rounding to nearest */
    return sf_norm_round_pack32(sa, ea - 1, m);
}

#ifdef Q7SF_HOST
float Q7SF(addsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_add32(a, b, 0));
}

float Q7SF(subsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b ^ SF32_SIGN, &r))
        return fp_float32(r);
    return fp_float32(q7sf_add32(a, b, SF32_SIGN));
}
#else
/* add32_fast in Xtensa assembly (call0 ABI: a and b in a2 and a3, the
 * result in a2, a4..a11 free), as __mulsf3's in f32_mul.c: the same steps,
 * jumping to q7sf_add32 for the general case. a11 holds the flip of b's
 * sign, a10 the larger operand, a9 the other (then the two signs' xor). */
__asm__(
    "    .text\n"
    "    .align 4\n"
    "    .global __subsf3\n"
    "    .hidden __subsf3\n"
    "    .type __subsf3, @function\n"
    "__subsf3:\n"
    "    movi a11, 1\n"
    "    slli a11, a11, 31\n"
    "    j 0f\n"
    "    .size __subsf3, . - __subsf3\n"
    "    .align 4\n"
    "    .global __addsf3\n"
    "    .hidden __addsf3\n"
    "    .type __addsf3, @function\n"
    "__addsf3:\n"
    "    movi a11, 0\n"
    "0:  xor a9, a3, a11\n"
    "    extui a4, a2, 23, 8\n"      /* ea */
    "    extui a5, a9, 23, 8\n"      /* eb */
    "    movi a8, 253\n"
    "    addi a6, a4, -1\n"
    "    bltu a8, a6, 9f\n"          /* a zero, subnormal, inf or NaN */
    "    addi a7, a5, -1\n"
    "    bltu a8, a7, 9f\n"
    "    slli a6, a2, 1\n"           /* order by magnitude */
    "    slli a7, a9, 1\n"
    "    mov a10, a2\n"
    "    bgeu a6, a7, 1f\n"
    "    mov a10, a9\n"
    "    mov a9, a2\n"
    "    mov a6, a4\n"
    "    mov a4, a5\n"
    "    mov a5, a6\n"
    "1:  movi a8, 1\n"              /* significands, the leading one at 29 */
    "    slli a8, a8, 29\n"
    "    slli a6, a10, 9\n"
    "    slli a7, a9, 9\n"
    "    srli a6, a6, 3\n"
    "    srli a7, a7, 3\n"
    "    or a6, a6, a8\n"
    "    or a7, a7, a8\n"
    "    xor a9, a9, a10\n"
    "    sub a5, a4, a5\n"           /* the smaller one right by d, sticky */
    "    beqz a5, 3f\n"
    "    bgeui a5, 32, 2f\n"
    "    ssr a5\n"
    "    sll a8, a7\n"
    "    srl a7, a7\n"
    "    beqz a8, 3f\n"
    "    movi a8, 1\n"
    "    or a7, a7, a8\n"
    "    j 3f\n"
    "2:  movi a7, 1\n"
    "3:  bltz a9, 6f\n"
    "    add a6, a6, a7\n"           /* the same signs: a sum */
    "    bbci a6, 30, 7f\n"
    "    extui a8, a6, 0, 1\n"
    "    srli a6, a6, 1\n"
    "    or a6, a6, a8\n"
    "    addi a4, a4, 1\n"
    "    movi a8, 255\n"
    "    beq a4, a8, 9f\n"           /* overflow */
    "    j 7f\n"
    "6:  sub a6, a6, a7\n"           /* a difference */
    "    beqz a6, 8f\n"
    "    nsau a8, a6\n"
    "    addi a8, a8, -2\n"
    "    bgeu a8, a4, 9f\n"          /* below the normal range */
    "    sub a4, a4, a8\n"
    "    ssl a8\n"
    "    sll a6, a6\n"
    "7:  extui a7, a6, 0, 6\n"       /* round to nearest even */
    "    srli a6, a6, 6\n"
    "    movi a8, 32\n"
    "    bltu a8, a7, 71f\n"
    "    bne a7, a8, 72f\n"
    "    bbci a6, 0, 72f\n"
    "71: addi a6, a6, 1\n"
    "72: extui a10, a10, 31, 1\n"
    "    addi a4, a4, -1\n"
    "    slli a10, a10, 31\n"
    "    slli a4, a4, 23\n"
    "    add a2, a10, a4\n"
    "    add a2, a2, a6\n"
    "    ret\n"
    "8:  movi a2, 0\n"              /* x - x is +0 when rounding to nearest */
    "    ret\n"
    "9:  mov a4, a11\n"
    "    j q7sf_add32\n"
    "    .size __addsf3, . - __addsf3\n");
#endif
