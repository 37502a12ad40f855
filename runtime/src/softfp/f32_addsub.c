/* f32_addsub.c: binary32 addition and subtraction (__addsf3, __subsf3). */
#include "sf_impl.h"

/* a + (b with its sign flipped by flip). NaNs are sorted out first, on the
 * operands as given, so that a - NaN returns that NaN's own sign. */
static uint32_t add32(uint32_t a, uint32_t b, uint32_t flip)
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

float Q7SF(addsf3)(float a, float b)
{
    return fp_float32(add32(fp_bits32(a), fp_bits32(b), 0));
}

float Q7SF(subsf3)(float a, float b)
{
    return fp_float32(add32(fp_bits32(a), fp_bits32(b), SF32_SIGN));
}
