/* sf_ref.h: what the soft-float helpers are compared with: the host's own
 * SSE arithmetic, the documented out-of-range policies (softfp.h), a seeded
 * generator, and operand generators for bit patterns and for values in the
 * ranges where rounding, cancellation, overflow and underflow happen. */
#ifndef Q7_SF_REF_H
#define Q7_SF_REF_H

#include <stdint.h>
#include <string.h>

#include "softfp.h"

#if defined(__x86_64__) && defined(__SSE2__)
/* Inline asm pins the operand order (the compiler may commute a + b), and
 * with it which NaN an SSE instruction returns: then NaN results compare
 * bit for bit too. */
#define SF_EXACT_NAN 1
#define SF_REF_OP(name, type, insn)                                  \
    static inline type name(type a, type b)                          \
    {                                                                \
        __asm__(insn " %1, %0" : "+x"(a) : "x"(b));                  \
        return a;                                                    \
    }
SF_REF_OP(ref_addf, float, "addss")
SF_REF_OP(ref_subf, float, "subss")
SF_REF_OP(ref_mulf, float, "mulss")
SF_REF_OP(ref_divf, float, "divss")
SF_REF_OP(ref_addd, double, "addsd")
SF_REF_OP(ref_subd, double, "subsd")
SF_REF_OP(ref_muld, double, "mulsd")
SF_REF_OP(ref_divd, double, "divsd")
#else
/* Elsewhere only NaN-ness is compared. */
#define SF_EXACT_NAN 0
static inline float ref_addf(float a, float b) { return a + b; }
static inline float ref_subf(float a, float b) { return a - b; }
static inline float ref_mulf(float a, float b) { return a * b; }
static inline float ref_divf(float a, float b) { return a / b; }
static inline double ref_addd(double a, double b) { return a + b; }
static inline double ref_subd(double a, double b) { return a - b; }
static inline double ref_muld(double a, double b) { return a * b; }
static inline double ref_divd(double a, double b) { return a / b; }
#endif

static inline uint32_t bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float float32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t bits64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double float64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

static inline int nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline int nan64(uint64_t u) { return (u & ~(1ull << 63)) > 0x7ff0000000000000ull; }

static inline int same32(uint32_t x, uint32_t y)
{
    return x == y || (!SF_EXACT_NAN && nan32(x) && nan32(y));
}

static inline int same64(uint64_t x, uint64_t y)
{
    return x == y || (!SF_EXACT_NAN && nan64(x) && nan64(y));
}

/* Documented out-of-range conversions (softfp.h); in range the host's C
 * conversion is the reference. */
static inline int32_t expect_fixdfsi(double x)
{
    if (x != x)
        return INT32_MAX;
    if (x > -2147483649.0 && x < 2147483648.0)
        return (int32_t)x;
    return x < 0 ? INT32_MIN : INT32_MAX;
}

static inline uint32_t expect_fixuns(double x)
{
    if (x != x)
        return 0xffffffffu;
    if (x > -1.0 && x < 4294967296.0)
        return (uint32_t)x;
    if (x >= 4294967296.0)
        return 0xffffffffu;
    if (x <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int64_t)x; /* -2^31 < x <= -1: wraps, as via int64 */
}

/* Seeded generator (splitmix64): the seed is printed with every result so
 * a failure can be replayed with Q7_SOFTFP_SEED. */
void sf_rng_seed(uint64_t seed);
uint64_t sf_rng(void);
uint64_t sf_seed(void);
long sf_count(void); /* random operands per helper (Q7_SOFTFP_COUNT) */

static inline uint32_t sf_rng32(void) { return (uint32_t)(sf_rng() >> 32); }
static inline uint32_t sf_below(uint32_t n) { return (uint32_t)(((uint64_t)sf_rng32() * n) >> 32); }

/* Operand generators: mode 0 random bits, otherwise values built from an
 * interesting exponent and a fraction that is random, short (ties), near
 * all-ones or near another operand. */
uint32_t sf_gen32(void);
uint64_t sf_gen64(void);
/* A second operand related to a: same or nearby exponent with a nearby
 * fraction (cancellation), or an exponent that puts a*b or a/b near the
 * overflow and underflow boundaries. */
uint32_t sf_gen32_pair(uint32_t a);
uint64_t sf_gen64_pair(uint64_t a);
/* Integers: random bits, random bit lengths, near powers of two. */
uint32_t sf_gen_int32(void);
uint64_t sf_gen_int64(void);

/* Edge values: zeros, subnormal and normal min/max, one and its
 * neighbours, powers of two at the rounding boundaries, inf, NaNs. */
extern const uint32_t sf_edges32[];
extern const unsigned sf_nedges32;
extern const uint64_t sf_edges64[];
extern const unsigned sf_nedges64;
extern const uint64_t sf_edges_int[];
extern const unsigned sf_nedges_int;

/* One line per helper on stdout: how many operands, which seed. */
void sf_report(const char *helper, long n);
/* Seed the generator for one helper: the base seed (Q7_SOFTFP_SEED, else a
 * fixed one) mixed with the helper's name, so each helper replays alone. */
void sf_begin(const char *helper);

/* The Check suites, one per source file; check_softfp.c runs one by name. */
struct Suite;
struct Suite *sf_suite_float(void);
struct Suite *sf_suite_double(void);
struct Suite *sf_suite_conv(void);
struct Suite *sf_suite_int(void);
struct Suite *sf_suite_table(void);
struct Suite *sf_suite_stress(void);
/* The stress sequence's checksums of the host's arithmetic over n pairs,
 * as the line the emulated core prints (sf_stress.h). */
void sf_stress_print(unsigned n);
/* The table test of nrandom cases: the helpers against the host and the
 * policy; *folded gets the checksum the target must reproduce. */
int sf_table_verify(unsigned nrandom, uint32_t *folded);

#endif
