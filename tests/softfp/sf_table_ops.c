/* sf_table_ops.c: the table's operations as plain C operators. Built for
 * the target, each one becomes a call to a libgcc helper; built for the
 * host (with -ffp-contract=off, SSE), each one is the host's arithmetic. */
#include "sf_table.h"

static float add_f(float a, float b) { return a + b; }
static float sub_f(float a, float b) { return a - b; }
static float mul_f(float a, float b) { return a * b; }
static double add_d(double a, double b) { return a + b; }
static double sub_d(double a, double b) { return a - b; }
static double mul_d(double a, double b) { return a * b; }
static double div_d(double a, double b) { return a / b; }
static float si_f(int32_t i) { return (float)i; }
static float ui_f(uint32_t u) { return (float)u; }
static uint32_t f_ui(float a) { return (uint32_t)a; }
static double si_d(int32_t i) { return (double)i; }
static double ui_d(uint32_t u) { return (double)u; }
static int32_t d_si(double a) { return (int32_t)a; }
static uint32_t d_ui(double a) { return (uint32_t)a; }
static double f_d(float a) { return (double)a; }
static float d_f(double a) { return (float)a; }
static int32_t div_i(int32_t a, int32_t b) { return a / b; }
static uint32_t div_u(uint32_t a, uint32_t b) { return a / b; }
static uint32_t mod_u(uint32_t a, uint32_t b) { return a % b; }
static int64_t div_l(int64_t a, int64_t b) { return a / b; }
static int64_t mod_l(int64_t a, int64_t b) { return a % b; }
static uint64_t div_ul(uint64_t a, uint64_t b) { return a / b; }
static uint64_t mod_ul(uint64_t a, uint64_t b) { return a % b; }
/* wraps like __muldi3; signed overflow in C would be undefined */
static int64_t mul_l(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static uint64_t mul_wide(uint32_t a, uint32_t b) { return (uint64_t)a * b; }

const struct q7sf_ops q7sf_c_ops = {
    add_f, sub_f, mul_f, add_d, sub_d, mul_d, div_d,
    si_f, ui_f, f_ui, si_d, ui_d, d_si, d_ui, f_d, d_f,
    div_i, div_u, mod_u, div_l, mod_l, div_ul, mod_ul, mul_l, mul_wide,
};

uint32_t q7sf_table_run(unsigned nrandom)
{
    uint32_t d = q7sf_table_checksum(&q7sf_c_ops, Q7SF_DEFINED, nrandom);
    uint32_t p = q7sf_table_checksum(&q7sf_c_ops, Q7SF_POLICY, nrandom);
    return q7sf_table_fold(d, p);
}
