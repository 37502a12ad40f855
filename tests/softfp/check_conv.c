/* check_conv.c: conversions between integers, binary32 and binary64,
 * against the host's C conversions in range and the documented policy out
 * of range (softfp.h). */
#include <check.h>

#include "sf_ref.h"

#define FAIL_CONV(name, in, got, want)                                        \
    ck_abort_msg("%s(0x%llx) = 0x%llx, expected 0x%llx (seed 0x%llx)", name,  \
                 (unsigned long long)(in), (unsigned long long)(got),         \
                 (unsigned long long)(want), (unsigned long long)sf_seed())

/* An integer operand: edges (and their negations) first, then random. */
static uint32_t int_operand(long i)
{
    if (i < (long)sf_nedges_int)
        return (uint32_t)sf_edges_int[i];
    if (i < 2 * (long)sf_nedges_int)
        return 0u - (uint32_t)sf_edges_int[i - (long)sf_nedges_int];
    return sf_gen_int32();
}

START_TEST(test_from_int)
{
    long n = sf_count() + 2 * (long)sf_nedges_int, i;
    sf_begin("int->float");
    for (i = 0; i < n; i++) {
        uint32_t u = int_operand(i);
        int32_t s = (int32_t)u;
        if (bits32(q7_floatsisf(s)) != bits32((float)s))
            FAIL_CONV("__floatsisf", u, bits32(q7_floatsisf(s)), bits32((float)s));
        if (bits32(q7_floatunsisf(u)) != bits32((float)u))
            FAIL_CONV("__floatunsisf", u, bits32(q7_floatunsisf(u)), bits32((float)u));
        if (bits64(q7_floatsidf(s)) != bits64((double)s))
            FAIL_CONV("__floatsidf", u, bits64(q7_floatsidf(s)), bits64((double)s));
        if (bits64(q7_floatunsidf(u)) != bits64((double)u))
            FAIL_CONV("__floatunsidf", u, bits64(q7_floatunsidf(u)), bits64((double)u));
    }
    sf_report("__floatsisf", n);
    sf_report("__floatunsisf", n);
    sf_report("__floatsidf", n);
    sf_report("__floatunsidf", n);
}
END_TEST

/* A binary32 operand: edges, random patterns, and values whose magnitude
 * is within a few powers of two of the 32-bit integer range. */
static uint32_t f32_operand(long i)
{
    if (i < (long)sf_nedges32)
        return sf_edges32[i];
    if (sf_below(2))
        return sf_gen32();
    return (sf_below(2) << 31) | ((0x7du + sf_below(38)) << 23) | (sf_gen32() & 0x7fffffu);
}

static uint64_t f64_operand(long i, uint32_t elo, uint32_t ehi)
{
    if (i < (long)sf_nedges64)
        return sf_edges64[i];
    if (sf_below(2))
        return sf_gen64();
    return ((uint64_t)sf_below(2) << 63) | ((uint64_t)(elo + sf_below(ehi - elo + 1)) << 52)
         | (sf_gen64() & 0xfffffffffffffull);
}

START_TEST(test_to_int)
{
    long n = sf_count() + (long)sf_nedges64, i;
    sf_begin("float->int");
    for (i = 0; i < n; i++) {
        uint32_t a = f32_operand(i);
        uint64_t d = f64_operand(i, 0x3fd, 0x422);
        float f = float32(a);
        double x = float64(d);
        if (q7_fixunssfsi(f) != expect_fixuns(f))
            FAIL_CONV("__fixunssfsi", a, q7_fixunssfsi(f), expect_fixuns(f));
        if (q7_fixdfsi(x) != expect_fixdfsi(x))
            FAIL_CONV("__fixdfsi", d, (uint32_t)q7_fixdfsi(x), (uint32_t)expect_fixdfsi(x));
        if (q7_fixunsdfsi(x) != expect_fixuns(x))
            FAIL_CONV("__fixunsdfsi", d, q7_fixunsdfsi(x), expect_fixuns(x));
    }
    sf_report("__fixunssfsi", n);
    sf_report("__fixdfsi", n);
    sf_report("__fixunsdfsi", n);
}
END_TEST

/* The policy at its boundaries, stated outright. */
START_TEST(test_to_int_policy)
{
    ck_assert_int_eq(q7_fixdfsi(2147483647.9), INT32_MAX);
    ck_assert_int_eq(q7_fixdfsi(2147483648.0), INT32_MAX);
    ck_assert_int_eq(q7_fixdfsi(-2147483648.9), INT32_MIN);
    ck_assert_int_eq(q7_fixdfsi(-1e300), INT32_MIN);
    ck_assert_int_eq(q7_fixdfsi(float64(0xfff8000000000000ull)), INT32_MAX);
    ck_assert_int_eq(q7_fixdfsi(-0.99), 0);
    ck_assert_uint_eq(q7_fixunsdfsi(4294967295.5), 0xffffffffu);
    ck_assert_uint_eq(q7_fixunsdfsi(4294967296.0), 0xffffffffu);
    ck_assert_uint_eq(q7_fixunsdfsi(-1.5), 0xffffffffu);
    ck_assert_uint_eq(q7_fixunsdfsi(-2147483647.0), 0x80000001u);
    ck_assert_uint_eq(q7_fixunsdfsi(-2147483648.0), 0x80000000u);
    ck_assert_uint_eq(q7_fixunsdfsi(-3e9), 0x80000000u);
    ck_assert_uint_eq(q7_fixunssfsi(float32(0xff800000)), 0x80000000u);
    ck_assert_uint_eq(q7_fixunssfsi(float32(0x7f800000)), 0xffffffffu);
    ck_assert_uint_eq(q7_fixunssfsi(float32(0xffc00000)), 0xffffffffu);
    ck_assert_uint_eq(q7_fixunssfsi(-0.5f), 0);
}
END_TEST

START_TEST(test_extend)
{
    long n = sf_count() + (long)sf_nedges32, i;
    sf_begin("__extendsfdf2");
    for (i = 0; i < n; i++) {
        uint32_t a = i < (long)sf_nedges32 ? sf_edges32[i] : sf_gen32();
        uint64_t got = bits64(q7_extendsfdf2(float32(a)));
        uint64_t want = bits64((double)float32(a));
        if (!same64(got, want))
            FAIL_CONV("__extendsfdf2", a, got, want);
    }
    sf_report("__extendsfdf2", n);
}
END_TEST

/* binary64 operands around binary32's range, the low 29 bits (the ones
 * rounded away) often a tie or next to one. */
START_TEST(test_trunc)
{
    static const uint64_t low[] = { 0x10000000, 0x10000001, 0x0fffffff, 0, 1 };
    long n = sf_count() + (long)sf_nedges64, i;
    sf_begin("__truncdfsf2");
    for (i = 0; i < n; i++) {
        uint64_t d = f64_operand(i, 0x380 - 30, 0x47f + 2);
        uint32_t got, want;
        if (i >= (long)sf_nedges64 && sf_below(2))
            d = (d & ~0x1fffffffull) | low[sf_below(5)];
        got = bits32(q7_truncdfsf2(float64(d)));
        want = bits32((float)float64(d));
        if (!same32(got, want))
            FAIL_CONV("__truncdfsf2", d, got, want);
    }
    sf_report("__truncdfsf2", n);
}
END_TEST

Suite *sf_suite_conv(void)
{
    Suite *s = suite_create("softfp_conv");
    TCase *tc = tcase_create("conv");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_from_int);
    tcase_add_test(tc, test_to_int);
    tcase_add_test(tc, test_to_int_policy);
    tcase_add_test(tc, test_extend);
    tcase_add_test(tc, test_trunc);
    suite_add_tcase(s, tc);
    return s;
}
