/* check_stress.c: the stress sequence (sf_stress.c) through the host build
 * of the helpers, result by result against the host's arithmetic (NaN
 * payloads too), and the checksum line the emulated core must print
 * (emu/emu_check.sh). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sf_ref.h"
#include "sf_stress.h"

/* The stress test's length in CTest: about 3 million pairs a run. */
#define STRESS_PAIRS 3000000u

static const struct q7sf_f32_ops soft_ops = { { q7_addsf3, q7_subsf3, q7_mulsf3, q7_divsf3 } };
static const struct q7sf_f32_ops host_ops = { { ref_addf, ref_subf, ref_mulf, ref_divf } };

void sf_stress_print(unsigned n)
{
    static const char *const names[Q7SF_STRESS_OPS] = { "add", "sub", "mul", "div" };
    uint32_t sums[Q7SF_STRESS_OPS];
    unsigned k;
    q7sf_stress_run(&q7sf_f32_c_ops, n, sums);
    printf("q7sf f32 %u", n);
    for (k = 0; k < Q7SF_STRESS_OPS; k++)
        printf(" %s 0x%08x", names[k], sums[k]);
    printf("\n");
}

START_TEST(test_stress)
{
    static const char *const names[Q7SF_STRESS_OPS] = { "add", "sub", "mul", "div" };
    unsigned i, k, bad = 0;
    for (i = 0; i < STRESS_PAIRS && bad < 10; i++) {
        uint32_t a, b;
        q7sf_stress_pair(i, &a, &b);
        for (k = 0; k < Q7SF_STRESS_OPS; k++) {
            uint32_t got = bits32(soft_ops.op[k](float32(a), float32(b)));
            uint32_t want = bits32(host_ops.op[k](float32(a), float32(b)));
            if (!same32(got, want)) {
                fprintf(stderr, "stress pair %u: %s(0x%08x, 0x%08x) = 0x%08x, host 0x%08x\n", i,
                        names[k], a, b, got, want);
                bad++;
            }
        }
    }
    ck_assert_msg(bad == 0, "%u results differ from the host's", bad);
}
END_TEST

Suite *sf_suite_stress(void)
{
    Suite *s = suite_create("softfp_stress");
    TCase *tc = tcase_create("stress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stress);
    suite_add_tcase(s, tc);
    return s;
}
