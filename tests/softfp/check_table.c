/* check_table.c: the freestanding table test (sf_table.c) on the host. The
 * helpers must give the checksum of the host's own arithmetic on the cases
 * C defines, and of the documented policy on the others; the value printed
 * is the one the emulated core must reproduce with q7sf_table_run(N). */
#include <check.h>
#include <stdio.h>

#include "sf_ref.h"
#include "sf_table.h"

static const struct q7sf_ops soft_ops = {
    q7_addsf3, q7_subsf3, q7_mulsf3, q7_adddf3, q7_subdf3, q7_muldf3, q7_divdf3,
    q7_floatsisf, q7_floatunsisf, q7_fixunssfsi, q7_floatsidf, q7_floatunsidf,
    q7_fixdfsi, q7_fixunsdfsi, q7_extendsfdf2, q7_truncdfsf2,
    q7_divsi3, q7_udivsi3, q7_umodsi3, q7_divdi3, q7_moddi3, q7_udivdi3,
    q7_umoddi3, q7_muldi3, q7_umulsidi3,
};

/* The policy cases, decided independently of the helpers. */
static uint32_t policy_fixunssfsi(float a) { return expect_fixuns(a); }
static uint32_t policy_fixunsdfsi(double a) { return expect_fixuns(a); }
static int32_t policy_fixdfsi(double a) { return expect_fixdfsi(a); }
static int32_t policy_divsi3(int32_t a, int32_t b)
{
    return (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
}
static int64_t policy_divdi3(int64_t a, int64_t b)
{
    return (a == INT64_MIN && b == -1) ? INT64_MIN : a / b;
}
static int64_t policy_moddi3(int64_t a, int64_t b)
{
    return (a == INT64_MIN && b == -1) ? 0 : a % b;
}

int sf_table_verify(unsigned nrandom, uint32_t *folded)
{
    struct q7sf_ops policy = q7sf_c_ops;
    uint32_t defined, want_defined, pol, want_pol;

    policy.fixunssfsi = policy_fixunssfsi;
    policy.fixunsdfsi = policy_fixunsdfsi;
    policy.fixdfsi = policy_fixdfsi;
    policy.divsi3 = policy_divsi3;
    policy.divdi3 = policy_divdi3;
    policy.moddi3 = policy_moddi3;

    defined = q7sf_table_checksum(&soft_ops, Q7SF_DEFINED, nrandom);
    want_defined = q7sf_table_checksum(&q7sf_c_ops, Q7SF_DEFINED, nrandom);
    pol = q7sf_table_checksum(&soft_ops, Q7SF_POLICY, nrandom);
    want_pol = q7sf_table_checksum(&policy, Q7SF_POLICY, nrandom);
    if (defined != want_defined)
        fprintf(stderr, "table %u, defined cases: helpers 0x%08x, host 0x%08x\n",
                nrandom, defined, want_defined);
    if (pol != want_pol)
        fprintf(stderr, "table %u, policy cases: helpers 0x%08x, policy 0x%08x\n",
                nrandom, pol, want_pol);
    *folded = q7sf_table_fold(defined, pol);
    return defined == want_defined && pol == want_pol;
}

START_TEST(test_table)
{
    static const unsigned sizes[] = { 600, 5000 };
    uint32_t folded;
    ck_assert_msg(sf_table_verify(sizes[_i], &folded), "table %u differs", sizes[_i]);
    printf("softfp: table %u checksum 0x%08x (q7sf_table_run(%u) on the target must match)\n",
           sizes[_i], folded, sizes[_i]);
}
END_TEST

Suite *sf_suite_table(void)
{
    Suite *s = suite_create("softfp_table");
    TCase *tc = tcase_create("table");
    tcase_add_loop_test(tc, test_table, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
