/* f64_mul.c: binary64 multiplication (__muldf3). */
#include "sf_impl.h"

double Q7SF(muldf3)(double fa, double fb)
{
    uint64_t a = fp_bits64(fa), b = fp_bits64(fb);
    uint32_t sign = (uint32_t)((a ^ b) >> 63);
    uint64_t ma, mb, m, lo;
    int32_t ea, eb, e;

    if (sf_isnan64(a) || sf_isnan64(b))
        return fp_float64(sf_nan64(a, b));
    if ((a & SF64_INF) == SF64_INF || (b & SF64_INF) == SF64_INF) {
        if ((a & ~SF64_SIGN) == 0 || (b & ~SF64_SIGN) == 0)
            return fp_float64(SF64_DEFAULT_NAN); /* 0 * inf */
        return fp_float64(((uint64_t)sign << 63) | SF64_INF);
    }
    if ((a & ~SF64_SIGN) == 0 || (b & ~SF64_SIGN) == 0)
        return fp_float64((uint64_t)sign << 63);

    ma = sf_unpack64(a, &ea);
    mb = sf_unpack64(b, &eb);
    /* Leading ones at bits 62 and 63: the 128-bit product has its own at 125
     * or 126, the high half at 61 or 62; the low half becomes sticky. */
    m = sf_mul64x64(ma << 10, mb << 11, &lo);
    m |= (lo != 0);
    e = ea + eb - 0x3ff;
    if (m < 0x4000000000000000ull) {
        m <<= 1;
        e--;
    }
    return fp_float64(sf_round_pack64(sign, e, m));
}
