/* e^x, ln x, log2 x, log10 x for binary32, through binary64 cores.
 *
 * e^z: z = k ln 2 + r with k the nearest integer to z / ln 2 and |r| <=
 * ln(2)/2 (k ln 2 subtracted in two parts, the first exact), e^r by its
 * Taylor series to r^13 (truncation below 2^-57), times 2^k.
 *
 * ln x: x = 2^e f with f in [sqrt(1/2), sqrt(2)), t = (f-1)/(f+1), so
 * |t| <= 0.1716 and ln f = 2 atanh t = 2 (t + t^3/3 + ... + t^23/23)
 * (truncation below 2^-60); then e ln 2 + ln f. An exact power of two
 * gives f = 1, t = 0, so log2 of it is exactly e. */
#include "m_impl.h"

/* 1/n! for n = 2..13. */
static const double inv_fact[12] = {
	0x1.0000000000000p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5, 0x1.1111111111111p-7,
	0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
	0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
};

/* 1/(2k+1) for k = 1..11. */
static const double inv_odd[11] = {
	0x1.5555555555555p-2, 0x1.999999999999ap-3, 0x1.2492492492492p-3, 0x1.c71c71c71c71cp-4,
	0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4, 0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5,
	0x1.af286bca1af28p-5, 0x1.8618618618618p-5, 0x1.642c8590b2164p-5,
};

double q7m_exp_core(double z)
{
	double kd = z * M_INV_LN2;
	int k = (int)(kd < 0 ? kd - 0.5 : kd + 0.5); /* nearest, ties away */
	double r = (z - k * M_LN2_HI) - k * M_LN2_LO;
	double p = inv_fact[11];
	for (int i = 10; i >= 0; i--)
		p = p * r + inv_fact[i];
	p = 1.0 + r * (1.0 + r * p);
	/* 2^k in two steps keeps each factor a normal binary64. */
	if (k < -1000)
		return p * m_pow2(k + 200) * m_pow2(-200);
	return p * m_pow2(k);
}

double q7m_log_split(double x, int *e)
{
	uint64_t u = fp_bits64(x);
	int ex = (int)(u >> 52);
	if (ex == 0) { /* subnormal: scale into the normals first */
		u = fp_bits64(x * m_pow2(64));
		ex = (int)(u >> 52) - 64;
	}
	double f = fp_float64((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
	ex -= 1023;
	if (f > 0x1.6a09e667f3bcdp+0) { /* sqrt(2) */
		f *= 0.5;
		ex++;
	}
	*e = ex;
	double t = (f - 1.0) / (f + 1.0);
	double t2 = t * t;
	double p = inv_odd[10];
	for (int i = 9; i >= 0; i--)
		p = p * t2 + inv_odd[i];
	return 2.0 * t + 2.0 * t * (t2 * p);
}

float q7m_expf(float x)
{
	uint32_t u = fp_bits32(x);
	if (m_isnan32(u))
		return fp_float32(u | M32_QUIET);
	if ((u & M32_SIGN) == 0 && u > 0x42b20000u) /* above 89: overflows */
		return fp_float32(M32_INF);
	if (u > 0xc2d00000u) /* below -104: rounds to +0 */
		return 0.0f;
	return (float)q7m_exp_core((double)x);
}

enum { M_BASE_E, M_BASE_2, M_BASE_10 };

/* log of x in one of the three bases. */
static float log_base(float x, int base)
{
	uint32_t u = fp_bits32(x);
	if (m_isnan32(u))
		return fp_float32(u | M32_QUIET);
	if ((u & ~M32_SIGN) == 0)
		return fp_float32(M32_SIGN | M32_INF); /* -inf */
	if (u & M32_SIGN)
		return fp_float32(M32_NAN);
	if (u == M32_INF)
		return x;
	int e;
	double lf = q7m_log_split((double)x, &e);
	switch (base) {
	case M_BASE_2: return (float)((double)e + lf * M_INV_LN2);
	case M_BASE_10: return (float)(e * M_LOG10_2 + lf * M_INV_LN10);
	default: return (float)((e * M_LN2_HI + lf) + e * M_LN2_LO);
	}
}

float q7m_logf(float x) { return log_base(x, M_BASE_E); }
float q7m_log2f(float x) { return log_base(x, M_BASE_2); }
float q7m_log10f(float x) { return log_base(x, M_BASE_10); }
