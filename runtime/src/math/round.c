/* ceil and floor by clearing fraction bits: exact, for binary32 and
 * binary64. A NaN comes back quieted; ±0, infinities and integers as they
 * are; ceil of (-1, 0) is -0 and floor of (0, 1) is +0. */
#include "m_impl.h"

/* Rounds toward +inf (up) or -inf: the fraction bits are cleared, after a
 * carry of one unit when that direction is away from zero. */
static float round32(float x, int up)
{
	uint32_t u = fp_bits32(x);
	int e = (int)((u >> 23) & 0xffu) - 127;
	int neg = (u & M32_SIGN) != 0;
	if (e >= 23)
		return m_isnan32(u) ? fp_float32(u | M32_QUIET) : x;
	if (e < 0) { /* |x| < 1 */
		if ((u & ~M32_SIGN) == 0)
			return x;
		if (up)
			return neg ? -0.0f : 1.0f;
		return neg ? -1.0f : 0.0f;
	}
	uint32_t mask = 0x7fffffu >> e;
	if ((u & mask) == 0)
		return x;
	if (neg != up)
		u += mask + 1;
	return fp_float32(u & ~mask);
}

static double round64(double x, int up)
{
	uint64_t u = fp_bits64(x);
	int e = (int)((u >> 52) & 0x7ffu) - 1023;
	int neg = (u >> 63) != 0;
	if (e >= 52) {
		int nan = (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
		return nan ? fp_float64(u | 0x0008000000000000ull) : x;
	}
	if (e < 0) {
		if ((u & 0x7fffffffffffffffull) == 0)
			return x;
		if (up)
			return neg ? -0.0 : 1.0;
		return neg ? -1.0 : 0.0;
	}
	uint64_t mask = 0x000fffffffffffffull >> e;
	if ((u & mask) == 0)
		return x;
	if (neg != up)
		u += mask + 1;
	return fp_float64(u & ~mask);
}

float q7m_floorf(float x) { return round32(x, 0); }
float q7m_ceilf(float x) { return round32(x, 1); }
double q7m_floor(double x) { return round64(x, 0); }
double q7m_ceil(double x) { return round64(x, 1); }
