/* f64_addsub.c: binary64 addition and subtraction (__adddf3, __subdf3). */
#include "sf_impl.h"

/* a + (b with its sign flipped by flip), as q7sf_add32 in f32_addsub.c. */
static uint64_t add64(uint64_t a, uint64_t b, uint64_t flip);
SF_ADD(64, uint64_t, 52, add64)

double Q7SF(adddf3)(double a, double b)
{
    return fp_float64(add64(fp_bits64(a), fp_bits64(b), 0));
}

double Q7SF(subdf3)(double a, double b)
{
    return fp_float64(add64(fp_bits64(a), fp_bits64(b), SF64_SIGN));
}
