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
 * line: the fast path above then needs no stack frame. */
__attribute__((noinline)) static uint32_t add32(uint32_t a, uint32_t b, uint32_t flip)
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

float Q7SF(addsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(add32(a, b, 0));
}

float Q7SF(subsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b ^ SF32_SIGN, &r))
        return fp_float32(r);
    return fp_float32(add32(a, b, SF32_SIGN));
}
