/* sin, cos, tan for binary32.
 *
 * Argument reduction: |x| = q pi/2 + r with |r| <= pi/4. Below pi/4 r is x
 * itself. Above, exactly (Payne and Hanek): with |x| = m 2^s (m a 24-bit
 * integer), the bits of 2/pi that would only add multiples of 4 to
 * |x| 2/pi are skipped, the next 160 bits W are multiplied by m as
 * integers, and the product's integer part gives q mod 4 and its next 128
 * bits the fraction, which is normalised and turned into r in binary64.
 * The closest a binary32 comes to a multiple of pi/2 leaves r with well
 * over 53 exact bits, so r carries about 2^-52 relative error.
 *
 * sin r and cos r by their Taylor series to r^17 and r^18 (truncation
 * below 2^-57), tan r as their quotient, then the quadrant. */
#include "m_impl.h"

/* 2/pi = 0.a2f9836e 4e441529 ... in hex: 320 bits, of which the widest
 * binary32 needs 262. */
static const uint32_t two_over_pi[10] = {
	0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
	0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u,
};

/* Bits p .. p+31 of 2/pi, counting the first bit after the point as 1. */
static uint32_t tpi_bits(int p)
{
	int w = (p - 1) / 32, b = (p - 1) % 32;
	uint32_t hi = w < 10 ? two_over_pi[w] : 0;
	uint32_t lo = w + 1 < 10 ? two_over_pi[w + 1] : 0;
	return b == 0 ? hi : (hi << b) | (lo >> (32 - b));
}

/* Bits lo .. lo+31 of the 192-bit number in p[0..5] (p[0] least). */
static uint32_t bits_at(const uint32_t p[6], int lo)
{
	int w = lo / 32, b = lo % 32;
	uint32_t a = p[w];
	uint32_t c = w + 1 < 6 ? p[w + 1] : 0;
	return b == 0 ? a : (a >> b) | (c << (32 - b));
}

/* |x| = q pi/2 + r for a finite |x| >= pi/4 (given as its bits); q mod 4. */
static double reduce(uint32_t ax, int *q)
{
	int s = (int)(ax >> 23) - 150;
	uint32_t m = (ax & 0x7fffffu) | 0x800000u;
	int k0 = s >= 2 ? s - 1 : 1;
	int frac_bits = s >= 2 ? 158 : 160 - s;
	uint32_t p[6];
	uint64_t carry = 0;
	for (int i = 4; i >= 0; i--) { /* m times W, W's word 0 most significant */
		uint64_t t = (uint64_t)m * tpi_bits(k0 + 32 * i) + carry;
		p[4 - i] = (uint32_t)t;
		carry = t >> 32;
	}
	p[5] = (uint32_t)carry;
	int quad = (int)(bits_at(p, frac_bits) & 3u);
	uint32_t f[4]; /* the fraction's top 128 bits, f[0] most significant */
	for (int i = 0; i < 4; i++)
		f[i] = bits_at(p, frac_bits - 32 * (i + 1));
	int neg = 0;
	if (f[0] & 0x80000000u) { /* past one half: round q up, r = fraction - 1 */
		quad++;
		neg = 1;
		uint32_t c = 1;
		for (int i = 3; i >= 0; i--) {
			f[i] = ~f[i] + c;
			c = c && f[i] == 0;
		}
	}
	*q = quad & 3;
	int lz = 0;
	while (f[0] == 0 && lz < 128) {
		f[0] = f[1];
		f[1] = f[2];
		f[2] = f[3];
		f[3] = 0;
		lz += 32;
	}
	if (lz >= 128)
		return 0.0;
	int b = __builtin_clz(f[0]); /* f[0] != 0 here */
	uint32_t hi = b ? (f[0] << b) | (f[1] >> (32 - b)) : f[0];
	uint32_t lo = b ? (f[1] << b) | (f[2] >> (32 - b)) : f[1];
	lz += b;
	double r = ((double)hi * 4294967296.0 + (double)lo) * m_pow2(-64 - lz) * M_PIO2;
	return neg ? -r : r;
}

/* (-1)^k / (2k+1)! for k = 1..8 and (-1)^k / (2k)! for k = 1..9. */
static const double sin_c[8] = {
	-0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13,
	0x1.71de3a556c734p-19, -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
	-0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
};
static const double cos_c[9] = {
	-0x1.0000000000000p-1, 0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10,
	0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
	-0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53,
};

static double sin_poly(double r)
{
	double r2 = r * r, p = sin_c[7];
	for (int i = 6; i >= 0; i--)
		p = p * r2 + sin_c[i];
	return r * (1.0 + r2 * p);
}

static double cos_poly(double r)
{
	double r2 = r * r, p = cos_c[8];
	for (int i = 7; i >= 0; i--)
		p = p * r2 + cos_c[i];
	return 1.0 + r2 * p;
}

enum { M_SIN, M_COS, M_TAN };

static float trig(float x, int which)
{
	uint32_t u = fp_bits32(x);
	uint32_t ax = u & ~M32_SIGN;
	if (ax > M32_INF)
		return fp_float32(u | M32_QUIET);
	if (ax == M32_INF)
		return fp_float32(M32_NAN);
	int q = 0;
	double r = ax < 0x3f490fdbu ? (double)fp_float32(ax) : reduce(ax, &q);
	double v;
	switch (which) {
	case M_SIN:
		v = (q & 1) ? cos_poly(r) : sin_poly(r);
		if (q & 2)
			v = -v;
		break;
	case M_COS:
		v = (q & 1) ? sin_poly(r) : cos_poly(r);
		if (q == 1 || q == 2)
			v = -v;
		break;
	default:
		v = (q & 1) ? -cos_poly(r) / sin_poly(r) : sin_poly(r) / cos_poly(r);
		break;
	}
	/* sin and tan are odd, cos is even. */
	if (which != M_COS && (u & M32_SIGN))
		v = -v;
	return (float)v;
}

float q7m_sinf(float x) { return trig(x, M_SIN); }
float q7m_cosf(float x) { return trig(x, M_COS); }
float q7m_tanf(float x) { return trig(x, M_TAN); }
