/* check_int.c: the 32- and 64-bit divide and multiply helpers against the
 * host's integer arithmetic; INT_MIN / -1 and division by zero against the
 * documented behaviour (softfp.h), since the host traps on both. */
#include <check.h>
#include <signal.h>

#include "sf_ref.h"

#define FAIL_INT(name, a, b, got, want)                                         \
    ck_abort_msg("%s(0x%llx, 0x%llx) = 0x%llx, host 0x%llx (seed 0x%llx)", name, \
                 (unsigned long long)(a), (unsigned long long)(b),              \
                 (unsigned long long)(got), (unsigned long long)(want),         \
                 (unsigned long long)sf_seed())

/* Operand pairs: every edge pair, then random; a zero divisor becomes 1. */
static void operands(long i, uint64_t *a, uint64_t *b)
{
    long ne = (long)sf_nedges_int;
    if (i < ne * ne) {
        *a = sf_edges_int[i / ne];
        *b = sf_edges_int[i % ne];
    } else {
        *a = sf_gen_int64();
        *b = sf_gen_int64();
        if (sf_below(4) == 0)
            *b >>= 32; /* small divisors, quotients wider than 32 bits */
    }
}

START_TEST(test_div32)
{
    long n = sf_count() + (long)(sf_nedges_int * sf_nedges_int), i;
    sf_begin("int32");
    for (i = 0; i < n; i++) {
        uint64_t a64, b64;
        uint32_t a, b;
        int32_t sa, sb, want;
        operands(i, &a64, &b64);
        if (i >= (long)(sf_nedges_int * sf_nedges_int) && sf_below(2))
            b64 = sf_gen_int32();
        a = (uint32_t)a64;
        b = (uint32_t)b64 ? (uint32_t)b64 : 1;
        sa = (int32_t)a;
        sb = (int32_t)b;
        if (q7_udivsi3(a, b) != a / b)
            FAIL_INT("__udivsi3", a, b, q7_udivsi3(a, b), a / b);
        if (q7_umodsi3(a, b) != a % b)
            FAIL_INT("__umodsi3", a, b, q7_umodsi3(a, b), a % b);
        want = (sa == INT32_MIN && sb == -1) ? INT32_MIN : sa / sb;
        if (q7_divsi3(sa, sb) != want)
            FAIL_INT("__divsi3", a, b, (uint32_t)q7_divsi3(sa, sb), (uint32_t)want);
    }
    sf_report("__udivsi3", n);
    sf_report("__umodsi3", n);
    sf_report("__divsi3", n);
}
END_TEST

START_TEST(test_div64)
{
    long n = sf_count() + (long)(sf_nedges_int * sf_nedges_int), i;
    sf_begin("int64");
    for (i = 0; i < n; i++) {
        uint64_t a, b;
        int64_t sa, sb, want;
        operands(i, &a, &b);
        b = b ? b : 1;
        sa = (int64_t)a;
        sb = (int64_t)b;
        if (q7_udivdi3(a, b) != a / b)
            FAIL_INT("__udivdi3", a, b, q7_udivdi3(a, b), a / b);
        if (q7_umoddi3(a, b) != a % b)
            FAIL_INT("__umoddi3", a, b, q7_umoddi3(a, b), a % b);
        want = (sa == INT64_MIN && sb == -1) ? INT64_MIN : sa / sb;
        if (q7_divdi3(sa, sb) != want)
            FAIL_INT("__divdi3", a, b, q7_divdi3(sa, sb), want);
        want = (sa == INT64_MIN && sb == -1) ? 0 : sa % sb;
        if (q7_moddi3(sa, sb) != want)
            FAIL_INT("__moddi3", a, b, q7_moddi3(sa, sb), want);
    }
    sf_report("__udivdi3", n);
    sf_report("__umoddi3", n);
    sf_report("__divdi3", n);
    sf_report("__moddi3", n);
}
END_TEST

START_TEST(test_mul)
{
    long n = sf_count() + (long)(sf_nedges_int * sf_nedges_int), i;
    sf_begin("mul");
    for (i = 0; i < n; i++) {
        uint64_t a, b, want;
        operands(i, &a, &b);
        want = a * b;
        if ((uint64_t)q7_muldi3((int64_t)a, (int64_t)b) != want)
            FAIL_INT("__muldi3", a, b, q7_muldi3((int64_t)a, (int64_t)b), want);
        want = (uint64_t)(uint32_t)a * (uint32_t)b;
        if (q7_umulsidi3((uint32_t)a, (uint32_t)b) != want)
            FAIL_INT("__umulsidi3", a, b, q7_umulsidi3((uint32_t)a, (uint32_t)b), want);
    }
    sf_report("__muldi3", n);
    sf_report("__umulsidi3", n);
}
END_TEST

START_TEST(test_int_min)
{
    ck_assert_int_eq(q7_divsi3(INT32_MIN, -1), INT32_MIN);
    ck_assert(q7_divdi3(INT64_MIN, -1) == INT64_MIN);
    ck_assert(q7_moddi3(INT64_MIN, -1) == 0);
    ck_assert(q7_moddi3(-7, 2) == -1);
    ck_assert(q7_moddi3(7, -2) == 1);
    ck_assert_int_eq(q7_divsi3(-7, 2), -3);
}
END_TEST

/* Division by zero traps (SIGILL on the host), in every divide helper. */
START_TEST(test_div_by_zero)
{
    volatile uint64_t sink = 0;
    switch (_i) {
    case 0: sink = (uint64_t)q7_divsi3(1, 0); break;
    case 1: sink = q7_udivsi3(1, 0); break;
    case 2: sink = q7_umodsi3(1, 0); break;
    case 3: sink = (uint64_t)q7_divdi3(1, 0); break;
    case 4: sink = (uint64_t)q7_moddi3(1, 0); break;
    case 5: sink = q7_udivdi3(1, 0); break;
    default: sink = q7_umoddi3(1, 0); break;
    }
    ck_abort_msg("helper %d returned 0x%llx on a zero divisor", _i, (unsigned long long)sink);
}
END_TEST

Suite *sf_suite_int(void)
{
    Suite *s = suite_create("softfp_int");
    TCase *tc = tcase_create("int");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_int_min);
    tcase_add_test(tc, test_div32);
    tcase_add_test(tc, test_div64);
    tcase_add_test(tc, test_mul);
    tcase_add_loop_test_raise_signal(tc, test_div_by_zero, SIGILL, 0, 7);
    suite_add_tcase(s, tc);
    return s;
}
