/* f64_div.c: binary64 division (__divdf3). */
#include "sf_impl.h"

double Q7SF(divdf3)(double fa, double fb)
{
    uint64_t a = fp_bits64(fa), b = fp_bits64(fb);
    uint32_t sign = (uint32_t)((a ^ b) >> 63);
    uint64_t ma, mb, q, r, zero = (uint64_t)sign << 63;
    int32_t ea, eb, e, i;

    if (sf_isnan64(a) || sf_isnan64(b))
        return fp_float64(sf_nan64(a, b));
    if ((a & SF64_INF) == SF64_INF) {
        if ((b & SF64_INF) == SF64_INF)
            return fp_float64(SF64_DEFAULT_NAN); /* inf / inf */
        return fp_float64(zero | SF64_INF);
    }
    if ((b & SF64_INF) == SF64_INF)
        return fp_float64(zero);
    if ((b & ~SF64_SIGN) == 0) {
        if ((a & ~SF64_SIGN) == 0)
            return fp_float64(SF64_DEFAULT_NAN); /* 0 / 0 */
        return fp_float64(zero | SF64_INF);
    }
    if ((a & ~SF64_SIGN) == 0)
        return fp_float64(zero);

    ma = sf_unpack64(a, &ea);
    mb = sf_unpack64(b, &eb);
    e = ea - eb + 0x3fe;
    if (ma < mb) {
        ma <<= 1;
        e--;
    }
    /* Restoring division, one quotient bit per step: 63 bits put the leading
     * one at bit 62 (ma/mb is in [1, 2)); no 64-bit divide is available. */
    q = 0;
    r = ma;
    for (i = 0; i < 63; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1;
        }
        r <<= 1;
    }
    return fp_float64(sf_round_pack64(sign, e, q | (r != 0)));
}
