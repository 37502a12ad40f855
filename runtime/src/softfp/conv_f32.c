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

SF_FIXUNS(32, 23, float, Q7SF(fixunssfsi))
