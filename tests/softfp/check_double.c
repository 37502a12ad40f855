/* check_double.c: __adddf3, __subdf3, __muldf3, __divdf3 against SSE, bit
 * for bit. */
#include <check.h>

#include "sf_ref.h"

typedef double (*binop64)(double, double);

/* The binary64 twin of run_binop32 in check_float.c. */
static void run_binop64(const char *name, binop64 soft, binop64 ref)
{
    long n = sf_count(), i, total = 0;
    unsigned x, y;
    sf_begin(name);
    for (x = 0; x < sf_nedges64; x++) {
        for (y = 0; y < sf_nedges64; y++, total++) {
            uint64_t a = sf_edges64[x], b = sf_edges64[y];
            uint64_t got = bits64(soft(float64(a), float64(b)));
            uint64_t want = bits64(ref(float64(a), float64(b)));
            if (!same64(got, want))
                ck_abort_msg("%s(%016llx, %016llx) = %016llx, host %016llx", name,
                             (unsigned long long)a, (unsigned long long)b,
                             (unsigned long long)got, (unsigned long long)want);
        }
    }
    for (i = 0; i < n; i++, total++) {
        uint64_t a = sf_gen64(), b = (i & 1) ? sf_gen64_pair(a) : sf_gen64();
        uint64_t got = bits64(soft(float64(a), float64(b)));
        uint64_t want = bits64(ref(float64(a), float64(b)));
        if (!same64(got, want))
            ck_abort_msg("%s(%016llx, %016llx) = %016llx, host %016llx (seed 0x%llx, #%ld)",
                         name, (unsigned long long)a, (unsigned long long)b,
                         (unsigned long long)got, (unsigned long long)want,
                         (unsigned long long)sf_seed(), i);
    }
    sf_report(name, total);
}

START_TEST(test_adddf3) { run_binop64("__adddf3", q7_adddf3, ref_addd); }
END_TEST

START_TEST(test_subdf3) { run_binop64("__subdf3", q7_subdf3, ref_subd); }
END_TEST

START_TEST(test_muldf3) { run_binop64("__muldf3", q7_muldf3, ref_muld); }
END_TEST

START_TEST(test_divdf3) { run_binop64("__divdf3", q7_divdf3, ref_divd); }
END_TEST

START_TEST(test_double_known)
{
    ck_assert_uint_eq(bits64(q7_divdf3(1.0, 3.0)), 0x3fd5555555555555ull);
    ck_assert_uint_eq(bits64(q7_divdf3(float64(0x0000000000000001ull), 2.0)), 0);
    ck_assert_uint_eq(bits64(q7_divdf3(float64(0x0000000000000003ull), 2.0)), 2);
    ck_assert_uint_eq(bits64(q7_divdf3(-1.0, 0.0)), 0xfff0000000000000ull);
    ck_assert_uint_eq(bits64(q7_divdf3(0.0, 0.0)), 0xfff8000000000000ull);
    ck_assert_uint_eq(bits64(q7_muldf3(float64(0x7fefffffffffffffull), 2.0)), 0x7ff0000000000000ull);
    ck_assert_uint_eq(bits64(q7_adddf3(0.1, 0.2)), 0x3fd3333333333334ull);
    ck_assert_uint_eq(bits64(q7_subdf3(-0.0, 0.0)), 0x8000000000000000ull);
}
END_TEST

Suite *sf_suite_double(void)
{
    Suite *s = suite_create("softfp_double");
    TCase *tc = tcase_create("binary64");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_double_known);
    tcase_add_test(tc, test_adddf3);
    tcase_add_test(tc, test_subdf3);
    tcase_add_test(tc, test_muldf3);
    tcase_add_test(tc, test_divdf3);
    suite_add_tcase(s, tc);
    return s;
}
