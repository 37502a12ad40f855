/* f64_div.c: binary64 division (__divdf3). */
#include "sf_impl.h"

static uint64_t div64(uint64_t a, uint64_t b);
SF_DIV(64, uint64_t, 52, div64)

double Q7SF(divdf3)(double a, double b)
{
    return fp_float64(div64(fp_bits64(a), fp_bits64(b)));
}
