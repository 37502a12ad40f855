/* The tensor operations' math (runtime/src/math), compiled for the host
 * and measured against an independent reference: glibc's binary64
 * functions rounded to binary32. Every function must stay within its
 * stated bound (1 ulp) on ~4.3 million inputs spread over all binary32
 * values (every 997th bit pattern, plus the special values), pow on
 * 1.2 million pairs; ceil and floor must match glibc's exactly. NaNs
 * compare as NaNs. The counts of results that differ from the reference
 * at all are printed, so a regression in accuracy shows before it fails.
 * (Loops test with if and ck_abort_msg: each ck_assert costs a write.) */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/q7math.h"

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Distance in ulps between two binary32 values (NaN: 0 with a NaN, else
 * huge). */
static int64_t ulps(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b) ? 0 : INT64_MAX;
	uint32_t ua = bits(a), ub = bits(b);
	int64_t oa = (ua & 0x80000000u) ? -(int64_t)(ua & 0x7fffffffu) : (int64_t)ua;
	int64_t ob = (ub & 0x80000000u) ? -(int64_t)(ub & 0x7fffffffu) : (int64_t)ub;
	return oa > ob ? oa - ob : ob - oa;
}

static const uint32_t specials[] = {
	0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u,
	0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,
	0x7fc00000u, 0xffc00001u, 0x7f800001u, /* NaNs, one signalling */
	0x42b17217u, 0x42b17218u, 0xc2cff1b4u, 0xc2cff1b5u, 0xc2ce8ed0u, /* exp edges */
	0x3f490fdbu, 0x3fc90fdbu, 0x40490fdbu, 0x40c90fdbu, 0x4b000000u, 0x5a000000u,
	0x4cb6c35eu, /* near a multiple of pi/2 */ 0x7e000000u, 0x41200000u, 0x42c80000u,
};

typedef float (*fn32)(float);
typedef double (*fn64)(double);

static void measure(const char *name, fn32 mine, fn64 ref)
{
	int64_t worst = 0;
	uint32_t worst_at = 0;
	unsigned long differ = 0, n = 0;
	for (uint64_t u = 0; u <= 0xffffffffu; u += 997) {
		float x = from_bits((uint32_t)u);
		float got = mine(x), want = (float)ref((double)x);
		int64_t d = ulps(got, want);
		if (d > worst) {
			worst = d;
			worst_at = (uint32_t)u;
		}
		differ += d != 0;
		n++;
	}
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
		float x = from_bits(specials[i]);
		float got = mine(x), want = (float)ref((double)x);
		int64_t d = ulps(got, want);
		ck_assert_msg(d <= 1, "%s(%a): got %a, reference %a", name, (double)x, (double)got,
		              (double)want);
		/* The class of the result is exact: NaN, infinity or zero. */
		ck_assert_msg(isnan(got) == isnan(want) && isinf(got) == isinf(want) &&
		                  (got == 0) == (want == 0),
		              "%s(%a): got %a, reference %a", name, (double)x, (double)got, (double)want);
	}
	printf("%-6s %lu inputs: %lu differ from the reference, worst %lld ulp (at 0x%08x)\n",
	       name, n, differ, (long long)worst, worst_at);
	ck_assert_msg(worst <= 1, "%s: %lld ulps at %a: got %a, reference %a", name, (long long)worst,
	              (double)from_bits(worst_at), (double)mine(from_bits(worst_at)),
	              (double)(float)ref((double)from_bits(worst_at)));
}

START_TEST(exp_) { measure("expf", q7m_expf, exp); }
END_TEST
START_TEST(log_) { measure("logf", q7m_logf, log); }
END_TEST
START_TEST(log2_) { measure("log2f", q7m_log2f, log2); }
END_TEST
START_TEST(log10_) { measure("log10f", q7m_log10f, log10); }
END_TEST
START_TEST(sin_) { measure("sinf", q7m_sinf, sin); }
END_TEST
START_TEST(cos_) { measure("cosf", q7m_cosf, cos); }
END_TEST
START_TEST(tan_) { measure("tanf", q7m_tanf, tan); }
END_TEST

/* Exact: the same bits as glibc's (a NaN only as a NaN). */
static void exact(const char *name, fn32 mine, fn32 ref)
{
	for (uint64_t u = 0; u <= 0xffffffffu; u += 997) {
		float x = from_bits((uint32_t)u);
		float got = mine(x), want = ref(x);
		if (isnan(want) ? !isnan(got) : bits(got) != bits(want))
			ck_abort_msg("%s(%a): got %a, want %a", name, (double)x, (double)got, (double)want);
	}
}

START_TEST(ceil_floor)
{
	exact("ceilf", q7m_ceilf, ceilf);
	exact("floorf", q7m_floorf, floorf);
	static const double d[] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 1e300, -1e-300, 4503599627370495.5,
	                           -4503599627370495.5, 9007199254740993.0, INFINITY, -INFINITY};
	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
		ck_assert(memcmp(&(double){q7m_ceil(d[i])}, &(double){ceil(d[i])}, 8) == 0);
		ck_assert(memcmp(&(double){q7m_floor(d[i])}, &(double){floor(d[i])}, 8) == 0);
	}
	ck_assert(isnan(q7m_ceil(NAN)) && isnan(q7m_floor(NAN)));
}
END_TEST

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

START_TEST(pow_)
{
	int64_t worst = 0;
	float wx = 0, wy = 0;
	unsigned long differ = 0;
	const unsigned long n = 1200000;
	for (unsigned long i = 0; i < n; i++) {
		float x, y;
		switch (i % 4) {
		case 0: /* any bits */
			x = from_bits(next());
			y = from_bits(next());
			break;
		case 1: /* moderate bases and exponents, both signs */
			x = (float)((int32_t)next() % 100000) / 1000.0f;
			y = (float)((int32_t)next() % 20000) / 1000.0f;
			break;
		case 2: /* integer exponents, negative bases */
			x = -(float)(next() % 5000) / 100.0f;
			y = (float)((int32_t)(next() % 61) - 30);
			break;
		default: /* bases near 1, large exponents */
			x = from_bits(0x3f800000u + (next() % 4096) - 2048);
			y = (float)((int32_t)next() % 2000000);
			break;
		}
		float got = q7m_powf(x, y), want = (float)pow((double)x, (double)y);
		int64_t d = ulps(got, want);
		if (d > worst) {
			worst = d;
			wx = x;
			wy = y;
		}
		differ += d != 0;
	}
	printf("powf   %lu inputs: %lu differ from the reference, worst %lld ulp (at %a, %a)\n", n,
	       differ, (long long)worst, (double)wx, (double)wy);
	ck_assert_msg(worst <= 1, "powf(%a, %a): %lld ulps", (double)wx, (double)wy, (long long)worst);
	/* C99 Annex F special cases, against glibc's powf (the same rules). */
	static const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f,
	                          2.5f, -2.5f, INFINITY, -INFINITY, NAN, 1e30f, -1e30f, 16777217.0f};
	size_t nv = sizeof v / sizeof v[0];
	for (size_t a = 0; a < nv; a++)
		for (size_t b = 0; b < nv; b++) {
			float got = q7m_powf(v[a], v[b]), want = powf(v[a], v[b]);
			if (isnan(want) ? !isnan(got) : bits(got) != bits(want))
				ck_abort_msg("powf(%a, %a): got %a, want %a", (double)v[a], (double)v[b],
				             (double)got, (double)want);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("math");
	TCase *tc = tcase_create("math");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, exp_);
	tcase_add_test(tc, log_);
	tcase_add_test(tc, log2_);
	tcase_add_test(tc, log10_);
	tcase_add_test(tc, sin_);
	tcase_add_test(tc, cos_);
	tcase_add_test(tc, tan_);
	tcase_add_test(tc, ceil_floor);
	tcase_add_test(tc, pow_);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
