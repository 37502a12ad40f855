/* ceil and floor by clearing fraction bits: exact, for binary32 and
 * binary64. A NaN comes back quieted; ±0, infinities and integers as they
 * are; ceil of (-1, 0) is -0 and floor of (0, 1) is +0. */
#include "m_impl.h"

/* Rounds toward +inf (up) or -inf: the fraction bits are cleared, after a
 * carry of one unit when that direction is away from zero. NAME for the
 * floating type FT of N bits, fraction bits F. */
#define ROUND(NAME, FT, N, F) \
static FT NAME(FT x, int up) \
{ \
	uint##N##_t u = fp_bits##N(x), sign = (uint##N##_t)1 << (N - 1); \
	int e = (int)((u >> F) & ((1u << (N - 1 - F)) - 1u)) - ((1 << (N - 2 - F)) - 1); \
	int neg = (u & sign) != 0; \
	if (e >= F) { \
		int nan = (u & ~sign) > (((uint##N##_t)1 << (N - 1 - F)) - 1u) << F; \
		return nan ? fp_float##N(u | (uint##N##_t)1 << (F - 1)) : x; \
	} \
	if (e < 0) { /* |x| < 1 */ \
		if ((u & ~sign) == 0) \
			return x; \
		if (up) \
			return neg ? (FT)-0.0 : (FT)1.0; \
		return neg ? (FT)-1.0 : (FT)0.0; \
	} \
	uint##N##_t mask = (((uint##N##_t)1 << F) - 1u) >> e; \
	if ((u & mask) == 0) \
		return x; \
	if (neg != up) \
		u += mask + 1; \
	return fp_float##N(u & ~mask); \
}
ROUND(round32, float, 32, 23)
ROUND(round64, double, 64, 52)
#undef ROUND

float q7m_floorf(float x) { return round32(x, 0); }
float q7m_ceilf(float x) { return round32(x, 1); }
double q7m_floor(double x) { return round64(x, 0); }
double q7m_ceil(double x) { return round64(x, 1); }
