/* x^y for binary32, as e^(y ln|x|) in binary64 (q7m_log_split and
 * q7m_exp_core): ln|x| carries about 2^-52 relative error, so y ln|x|
 * (at most about 104 in magnitude before the result overflows or
 * underflows) is off by less than 2^-44, and so is the result, relatively.
 * The special cases are C99's (Annex F.9.4.4). */
#include "m_impl.h"

/* 0: y is not an integer, 1: an odd integer, 2: an even integer. */
static int integer_kind(uint32_t uy)
{
	int e = (int)((uy >> 23) & 0xffu);
	if (e >= 151)
		return 2; /* |y| >= 2^24: every such float is even */
	if (e < 127)
		return (uy & ~M32_SIGN) == 0 ? 2 : 0;
	uint32_t m = (uy & 0x7fffffu) | 0x800000u;
	int frac = 150 - e; /* fraction bits of m */
	if (frac > 0 && (m & ((1u << frac) - 1u)))
		return 0;
	return ((m >> frac) & 1u) ? 1 : 2;
}

float q7m_powf(float x, float y)
{
	uint32_t ux = fp_bits32(x), uy = fp_bits32(y);
	uint32_t ax = ux & ~M32_SIGN, ay = uy & ~M32_SIGN;
	if (ay == 0 || ux == 0x3f800000u)
		return 1.0f;
	if (ax > M32_INF || ay > M32_INF)
		return fp_float32((ax > M32_INF ? ux : uy) | M32_QUIET);
	int yint = integer_kind(uy);
	int yneg = (uy & M32_SIGN) != 0;
	uint32_t sign = (ux & M32_SIGN) && yint == 1 ? M32_SIGN : 0;
	if (ax == 0) /* ±0: ±inf or ±0, the sign only for odd integers */
		return fp_float32(sign | (yneg ? M32_INF : 0));
	if (ax == M32_INF)
		return fp_float32(sign | (yneg ? 0 : M32_INF));
	if (ay == M32_INF) {
		if (ax == 0x3f800000u) /* (-1)^±inf */
			return 1.0f;
		return fp_float32((ax < 0x3f800000u) == yneg ? M32_INF : 0);
	}
	if ((ux & M32_SIGN) && yint == 0)
		return fp_float32(M32_NAN);
	int e;
	double lf = q7m_log_split((double)fp_float32(ax), &e);
	double ln = (e * M_LN2_HI + lf) + e * M_LN2_LO;
	double z = (double)y * ln;
	if (z > 89.0)
		return fp_float32(sign | M32_INF);
	if (z < -104.5)
		return fp_float32(sign);
	float r = (float)q7m_exp_core(z);
	return sign ? -r : r;
}
