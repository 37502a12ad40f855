/* f64_addsub.c: binary64 addition and subtraction (__adddf3, __subdf3). */
#include "sf_impl.h"

/* a + (b with its sign flipped by flip); the binary64 twin of add32 in
 * f32_addsub.c, with 10 extra low bits. */
static uint64_t add64(uint64_t a, uint64_t b, uint64_t flip)
{
    uint32_t sa, sb;
    uint64_t ma, mb, m;
    int32_t ea, eb;

    if (sf_isnan64(a) || sf_isnan64(b))
        return sf_nan64(a, b);
    b ^= flip;
    sa = (uint32_t)(a >> 63);
    sb = (uint32_t)(b >> 63);
    ea = (int32_t)((a >> 52) & 0x7ff);
    eb = (int32_t)((b >> 52) & 0x7ff);
    if (ea == 0x7ff)
        return (eb == 0x7ff && sa != sb) ? SF64_DEFAULT_NAN : a;
    if (eb == 0x7ff)
        return b;

    ma = a & SF64_FRAC;
    mb = b & SF64_FRAC;
    if (ea == 0) ea = 1; else ma |= SF64_HIDDEN;
    if (eb == 0) eb = 1; else mb |= SF64_HIDDEN;
    ma <<= 10;
    mb <<= 10;

    if (ea < eb || (ea == eb && ma < mb)) {
        uint64_t t = ma; ma = mb; mb = t;
        uint32_t ts = sa; sa = sb; sb = ts;
        int32_t te = ea; ea = eb; eb = te;
    }
    mb = sf_shr_jam64(mb, (uint32_t)(ea - eb));
    if (sa == sb) {
        m = ma + mb;
        if (m & SF64_SIGN) {
            m = (m >> 1) | (m & 1u);
            ea++;
        }
        return sf_round_pack64(sa, ea - 1, m);
    }
    m = ma - mb;
    if (m == 0)
        return 0;
    return sf_norm_round_pack64(sa, ea - 1, m);
}

double Q7SF(adddf3)(double a, double b)
{
    return fp_float64(add64(fp_bits64(a), fp_bits64(b), 0));
}

double Q7SF(subdf3)(double a, double b)
{
    return fp_float64(add64(fp_bits64(a), fp_bits64(b), SF64_SIGN));
}
