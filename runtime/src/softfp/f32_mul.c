/* f32_mul.c: binary32 multiplication (__mulsf3). */
#include "sf_impl.h"

float Q7SF(mulsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb);
    uint32_t sign = (a ^ b) >> 31, ma, mb, m;
    uint64_t p;
    int32_t ea, eb, e;

    if (sf_isnan32(a) || sf_isnan32(b))
        return fp_float32(sf_nan32(a, b));
    if ((a & SF32_EXP) == SF32_EXP || (b & SF32_EXP) == SF32_EXP) {
        if ((a & ~SF32_SIGN) == 0 || (b & ~SF32_SIGN) == 0)
            return fp_float32(SF32_DEFAULT_NAN); /* 0 * inf */
        return fp_float32((sign << 31) | SF32_INF);
    }
    if ((a & ~SF32_SIGN) == 0 || (b & ~SF32_SIGN) == 0)
        return fp_float32(sign << 31);

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
    return fp_float32(sf_round_pack32(sign, e, m));
}
