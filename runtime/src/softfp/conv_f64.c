/* conv_f64.c: integer <-> binary64 conversions (__floatsidf, __floatunsidf,
 * __fixdfsi, __fixunsdfsi). */
#include "sf_impl.h"

/* Exact: 32 bits always fit in the 53-bit significand. */
static uint64_t from_u32(uint64_t sign, uint32_t u)
{
    int lz;
    if (u == 0)
        return sign;
    lz = sf_clz32(u);
    return sign | ((uint64_t)(uint32_t)(0x3ff + 31 - lz) << 52)
         | (sf_shl64(u, (uint32_t)(21 + lz)) & SF64_FRAC);
}

double Q7SF(floatsidf)(int32_t i)
{
    if (i < 0)
        return fp_float64(from_u32(SF64_SIGN, 0u - (uint32_t)i));
    return fp_float64(from_u32(0, (uint32_t)i));
}

double Q7SF(floatunsidf)(uint32_t u)
{
    return fp_float64(from_u32(0, u));
}

int32_t Q7SF(fixdfsi)(double fa)
{
    uint64_t a = fp_bits64(fa);
    int32_t k = (int32_t)((a >> 52) & 0x7ff) - 0x3ff;
    uint32_t u;

    if (sf_isnan64(a))
        return INT32_MAX;
    if (k < 0)
        return 0;
    if (k >= 31)
        return (a & SF64_SIGN) ? INT32_MIN : INT32_MAX;
    u = (uint32_t)sf_shr64((a & SF64_FRAC) | SF64_HIDDEN, (uint32_t)(52 - k)); /* |a| truncated */
    return (a & SF64_SIGN) ? -(int32_t)u : (int32_t)u;
}

SF_FIXUNS(64, 52, double, Q7SF(fixunsdfsi))
