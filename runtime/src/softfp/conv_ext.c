/* conv_ext.c: binary32 <-> binary64 (__extendsfdf2, __truncdfsf2). */
#include "sf_impl.h"

double Q7SF(extendsfdf2)(float fa)
{
    uint32_t a = fp_bits32(fa), frac = a & SF32_FRAC;
    uint64_t sign = (uint64_t)(a >> 31) << 63;
    int32_t e = (int32_t)((a >> 23) & 0xff);

    if (e == 0xff) {
        if (frac)
            return fp_float64(sign | SF64_INF | SF64_QUIET | ((uint64_t)frac << 29));
        return fp_float64(sign | SF64_INF);
    }
    if (e == 0) {
        if (frac == 0)
            return fp_float64(sign);
        frac = sf_unpack32(a, &e) & SF32_FRAC;
    }
    return fp_float64(sign | ((uint64_t)(uint32_t)(e + 0x380) << 52)
                      | ((uint64_t)frac << 29));
}

float Q7SF(truncdfsf2)(double fa)
{
    uint64_t a = fp_bits64(fa), frac = a & SF64_FRAC;
    uint32_t sign = (uint32_t)(a >> 63);
    int32_t e = (int32_t)((a >> 52) & 0x7ff);

    if (e == 0x7ff) {
        if (frac)
            return fp_float32((sign << 31) | SF32_INF | SF32_QUIET
                              | (uint32_t)(frac >> 29));
        return fp_float32((sign << 31) | SF32_INF);
    }
    /* A binary64 subnormal is far below half the smallest binary32 one. */
    if (e == 0)
        return fp_float32(sign << 31);
    /* Leading one from bit 52 to bit 30; float's biased exponent is
     * e - 0x380, and the working e is one less. */
    return fp_float32(sf_round_pack32(sign, e - 0x381,
                                      (uint32_t)sf_shr_jam64(frac | SF64_HIDDEN, 22)));
}
