/* check_float.c: __addsf3, __subsf3, __mulsf3, __divsf3 against SSE, bit for
 * bit. */
#include <check.h>

#include "sf_ref.h"

typedef float (*binop32)(float, float);

/* Every edge pair, then random operands: plain, and second operands built
 * to cancel, to round, to overflow or underflow against the first. */
static void run_binop32(const char *name, binop32 soft, binop32 ref)
{
    long n = sf_count(), i, total = 0;
    unsigned x, y;
    sf_begin(name);
    for (x = 0; x < sf_nedges32; x++) {
        for (y = 0; y < sf_nedges32; y++, total++) {
            uint32_t a = sf_edges32[x], b = sf_edges32[y];
            uint32_t got = bits32(soft(float32(a), float32(b)));
            uint32_t want = bits32(ref(float32(a), float32(b)));
            if (!same32(got, want))
                ck_abort_msg("%s(%08x, %08x) = %08x, host %08x", name, a, b, got, want);
        }
    }
    for (i = 0; i < n; i++, total++) {
        uint32_t a = sf_gen32(), b = (i & 1) ? sf_gen32_pair(a) : sf_gen32();
        uint32_t got = bits32(soft(float32(a), float32(b)));
        uint32_t want = bits32(ref(float32(a), float32(b)));
        if (!same32(got, want))
            ck_abort_msg("%s(%08x, %08x) = %08x, host %08x (seed 0x%llx, #%ld)",
                         name, a, b, got, want, (unsigned long long)sf_seed(), i);
    }
    sf_report(name, total);
}

START_TEST(test_addsf3) { run_binop32("__addsf3", q7_addsf3, ref_addf); }
END_TEST

START_TEST(test_subsf3) { run_binop32("__subsf3", q7_subsf3, ref_subf); }
END_TEST

START_TEST(test_mulsf3) { run_binop32("__mulsf3", q7_mulsf3, ref_mulf); }
END_TEST

START_TEST(test_divsf3) { run_binop32("__divsf3", q7_divsf3, ref_divf); }
END_TEST

/* A few results stated outright, so that a host oracle gone wrong (flush
 * to zero, x87) shows up too. */
START_TEST(test_float_known)
{
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x00000001), float32(0x00000001))), 0x00000002);
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x80000000), float32(0x80000000))), 0x80000000);
    ck_assert_uint_eq(bits32(q7_subsf3(float32(0x3f800000), float32(0x3f800000))), 0x00000000);
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x7f7fffff), float32(0x73000000))), 0x7f800000);
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x7f7fffff), float32(0x72ffffff))), 0x7f7fffff);
    ck_assert_uint_eq(bits32(q7_mulsf3(float32(0x00800000), float32(0x3f000000))), 0x00400000);
    ck_assert_uint_eq(bits32(q7_mulsf3(float32(0x7f800000), float32(0x00000000))), 0xffc00000);
    /* 1 + 2^-24 is a tie and stays 1; 1 + 3*2^-24 rounds up to even */
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x3f800000), float32(0x33800000))), 0x3f800000);
    ck_assert_uint_eq(bits32(q7_addsf3(float32(0x3f800001), float32(0x33800000))), 0x3f800002);
    /* 1/3 rounds down, 2/3 up; x/0 is inf, 0/0 the default NaN */
    ck_assert_uint_eq(bits32(q7_divsf3(float32(0x3f800000), float32(0x40400000))), 0x3eaaaaab);
    ck_assert_uint_eq(bits32(q7_divsf3(float32(0x40000000), float32(0x40400000))), 0x3f2aaaab);
    ck_assert_uint_eq(bits32(q7_divsf3(float32(0xbf800000), float32(0x00000000))), 0xff800000);
    ck_assert_uint_eq(bits32(q7_divsf3(float32(0x00000000), float32(0x80000000))), 0xffc00000);
    ck_assert_uint_eq(bits32(q7_divsf3(float32(0x00800000), float32(0x40000000))), 0x00400000);
}
END_TEST

Suite *sf_suite_float(void)
{
    Suite *s = suite_create("softfp_float");
    TCase *tc = tcase_create("binary32");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_float_known);
    tcase_add_test(tc, test_addsf3);
    tcase_add_test(tc, test_subsf3);
    tcase_add_test(tc, test_mulsf3);
    tcase_add_test(tc, test_divsf3);
    suite_add_tcase(s, tc);
    return s;
}
