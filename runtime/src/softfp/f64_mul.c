/* f64_mul.c: binary64 multiplication (__muldf3). */
#include "sf_impl.h"

static uint64_t mul64(uint64_t a, uint64_t b);
SF_MUL(64, uint64_t, 52, mul64)

double Q7SF(muldf3)(double a, double b)
{
    return fp_float64(mul64(fp_bits64(a), fp_bits64(b)));
}
