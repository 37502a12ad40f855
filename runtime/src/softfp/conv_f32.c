/* conv_f32.c: integer <-> binary32 conversions (__floatsisf, __floatunsisf,
 * __fixunssfsi). */
#include "sf_impl.h"

/* u nonzero: its leading one goes to bit 30; above that (u >= 2^31) one
 * bit is shifted out into the sticky bit. */
static uint32_t from_u32(uint32_t sign, uint32_t u)
{
    int lz = sf_clz32(u);
    if (lz == 0)
        return sf_round_pack32(sign, 0x9d, (u >> 1) | (u & 1u));
    return sf_round_pack32(sign, 0x9d - lz, u << (lz - 1));
}

float Q7SF(floatsisf)(int32_t i)
{
    uint32_t u = (uint32_t)i;
    if (i == 0)
        return fp_float32(0);
    if (i < 0)
        return fp_float32(from_u32(1, 0u - u));
    return fp_float32(from_u32(0, u));
}

float Q7SF(floatunsisf)(uint32_t u)
{
    return fp_float32(u ? from_u32(0, u) : 0);
}

/* Out of range as the Xtensa libgcc does it; see softfp.h. */
uint32_t Q7SF(fixunssfsi)(float fa)
{
    uint32_t a = fp_bits32(fa), m, u;
    int32_t k = (int32_t)((a >> 23) & 0xff) - 0x7f;

    if (sf_isnan32(a))
        return 0xffffffffu;
    if (k < 0)
        return 0;
    if (k >= 32)
        return (a & SF32_SIGN) ? 0x80000000u : 0xffffffffu;
    m = (a & SF32_FRAC) | 0x00800000u;
    u = k >= 23 ? m << (k - 23) : m >> (23 - k);
    if (a & SF32_SIGN)
        return k == 31 ? 0x80000000u : 0u - u;
    return u;
}
