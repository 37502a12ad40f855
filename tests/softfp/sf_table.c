/* sf_table.c: the table test of sf_table.h. Freestanding: no libc, no
 * floating-point operator (the ranges are decided on the bits), so the
 * only helpers it reaches are those behind the ops it is given. */
#include "sf_table.h"

typedef union { float f; uint32_t u; } cast32;
typedef union { double f; uint64_t u; } cast64;

static uint32_t b32(float f) { cast32 c; c.f = f; return c.u; }
static float f32(uint32_t u) { cast32 c; c.u = u; return c.f; }
static uint64_t b64(double f) { cast64 c; c.f = f; return c.u; }
static double f64(uint64_t u) { cast64 c; c.u = u; return c.f; }

static const uint32_t edges32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
    0x3f800000, 0xbf800001, 0x4b800001, 0x33800000, 0x4f000000, 0xcf000000,
    0x4f800000, 0x7f800000, 0xff800000, 0x7fc00000,
};
static const uint64_t edges64[] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001,
    0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
    0x3ff0000000000000, 0xbff0000000000001, 0x4340000000000001,
    0x3ca0000000000000, 0x41e0000000000000, 0xc1e0000000000000,
    0x41f0000000000000, 0x47efffffe0000000, 0x3690000000000000,
    0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
};
static const uint64_t edges_int[] = {
    0, 1, 3, 10, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000001,
    0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff,
    0xffffffff80000000, 0x123456789abcdef0,
};
#define N_EDGES32 (sizeof edges32 / sizeof edges32[0])
#define N_EDGES64 (sizeof edges64 / sizeof edges64[0])
#define N_EDGES_INT (sizeof edges_int / sizeof edges_int[0])

struct table {
    uint32_t hash, rng;
    unsigned nrandom;
};

static void put32(struct table *t, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++, v >>= 8)
        t->hash = (t->hash ^ (v & 0xffu)) * 16777619u;
}

static void put64(struct table *t, uint64_t v)
{
    put32(t, (uint32_t)v);
    put32(t, (uint32_t)(v >> 32));
}

/* NaNs fold to one value: payloads are checked by the host tests only. */
static void put_f32(struct table *t, float f)
{
    uint32_t u = b32(f);
    put32(t, (u & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : u);
}

static void put_f64(struct table *t, double f)
{
    uint64_t u = b64(f);
    put64(t, (u & ~(1ull << 63)) > 0x7ff0000000000000ull ? 0x7ff8000000000000ull : u);
}

static uint32_t next(struct table *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 17;
    t->rng ^= t->rng << 5;
    return t->rng;
}

/* Random patterns, every other one squeezed toward the exponents around
 * one so that sums and products of two of them interact. */
static uint32_t rand32(struct table *t)
{
    uint32_t r = next(t);
    return (r & 1) ? r : (r & 0x81ffffffu) | 0x3e000000u;
}

static uint64_t rand64(struct table *t)
{
    uint64_t r = ((uint64_t)next(t) << 32) | next(t);
    return (r & 1) ? r : (r & 0x803fffffffffffffull) | 0x3fc0000000000000ull;
}

static uint32_t operand32(struct table *t, unsigned i)
{
    return i < N_EDGES32 ? edges32[i] : rand32(t);
}

static uint64_t operand64(struct table *t, unsigned i)
{
    return i < N_EDGES64 ? edges64[i] : rand64(t);
}

static uint64_t operand_int(struct table *t, unsigned i)
{
    uint64_t r;
    if (i < N_EDGES_INT)
        return edges_int[i];
    r = ((uint64_t)next(t) << 32) | next(t);
    return r >> (next(t) & 63);
}

/* Unbiased exponent of a non-NaN binary32/binary64, and whether C defines
 * the conversion to int32 (|x| < 2^31) or to uint32 (-1 < x < 2^32). */
static int exp32(uint32_t u) { return (int)((u >> 23) & 0xff) - 127; }
static int exp64(uint64_t u) { return (int)((u >> 52) & 0x7ff) - 1023; }
static int nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static int nan64(uint64_t u) { return (u & ~(1ull << 63)) > 0x7ff0000000000000ull; }
static int uint_ok32(uint32_t u) { return !nan32(u) && ((u >> 31) ? exp32(u) < 0 : exp32(u) < 32); }
static int uint_ok64(uint64_t u) { return !nan64(u) && ((u >> 63) ? exp64(u) < 0 : exp64(u) < 32); }
static int int_ok64(uint64_t u) { return !nan64(u) && exp64(u) < 31; }

static void run_float(struct table *t, const struct q7sf_ops *ops, enum q7sf_cases which)
{
    unsigned i, n = N_EDGES32 * N_EDGES32 + t->nrandom;
    for (i = 0; i < n && which == Q7SF_DEFINED; i++) {
        uint32_t a = operand32(t, i < N_EDGES32 * N_EDGES32 ? i / N_EDGES32 : N_EDGES32);
        uint32_t b = operand32(t, i < N_EDGES32 * N_EDGES32 ? i % N_EDGES32 : N_EDGES32);
        put_f32(t, ops->addsf3(f32(a), f32(b)));
        put_f32(t, ops->subsf3(f32(a), f32(b)));
        put_f32(t, ops->mulsf3(f32(a), f32(b)));
        put_f64(t, ops->extendsfdf2(f32(a)));
    }
    for (i = 0; i < N_EDGES32 + t->nrandom; i++) {
        uint32_t a = operand32(t, i);
        if (uint_ok32(a) == (which == Q7SF_DEFINED))
            put32(t, ops->fixunssfsi(f32(a)));
    }
}

/* Pairs aimed at the helpers' fast paths for normal operands
 * (docs/performance.md) and at where they hand over to the general code:
 * a neighbour of a (cancellation in a - b), significands of a few bits
 * (exact products and ties to even), exponents far apart (all of b
 * sticky), and exponents near the ends of the normal range (results that
 * overflow or fall below it). */
static void fast_pair(struct table *t, unsigned i, uint32_t *a, uint32_t *b)
{
    uint32_t r = next(t), x = (next(t) & 0x807fffffu) | ((1u + next(t) % 254u) << 23);
    switch (i % 4) {
    case 0: /* close: the same exponent or one apart, a few low bits off */
        *a = x;
        *b = (x ^ (r & 0x8000003fu)) + ((r >> 8) & 1u ? 0x00800000u : 0u);
        break;
    case 1: { /* significands of k + 1 and about 25 - k bits: products of
               * 25 to 27 bits, ties to even among them */
        uint32_t k = 5u + r % 14u, kb = 23u - k + (r >> 5) % 3u;
        *a = x & ~((1u << (23u - k)) - 1u);
        *b = (next(t) | 0x00400000u) & ~((1u << (23u - (kb > 23u ? 23u : kb))) - 1u);
        *b = (*b & 0x807fffffu) | (((r >> 9) % 200u + 27u) << 23);
        break;
    }
    case 2: /* exponents 0 to 40 apart */
        *a = x;
        *b = (next(t) & 0x807fffffu) | (((x >> 23 & 0xffu) - (r % 41u < (x >> 23 & 0xffu) ?
                                          r % 41u : 0u)) << 23);
        break;
    default: /* both near the top or both near the bottom of the range */
        *a = (x & 0x807fffffu) | (((r & 1u) ? 1u + r % 12u : 253u - r % 12u) << 23);
        *b = (next(t) & 0x807fffffu) | (((r & 1u) ? 1u + (r >> 8) % 12u : 253u - (r >> 8) % 12u)
                                        << 23);
        break;
    }
}

static void run_fast_paths(struct table *t, const struct q7sf_ops *ops, enum q7sf_cases which)
{
    unsigned i;
    for (i = 0; i < t->nrandom && which == Q7SF_DEFINED; i++) {
        uint32_t a, b;
        fast_pair(t, i, &a, &b);
        put_f32(t, ops->addsf3(f32(a), f32(b)));
        put_f32(t, ops->subsf3(f32(a), f32(b)));
        put_f32(t, ops->mulsf3(f32(a), f32(b)));
        put_f32(t, ops->mulsf3(f32(b), f32(a)));
    }
}

static void run_double(struct table *t, const struct q7sf_ops *ops, enum q7sf_cases which)
{
    unsigned i, n = N_EDGES64 * N_EDGES64 + t->nrandom;
    for (i = 0; i < n && which == Q7SF_DEFINED; i++) {
        uint64_t a = operand64(t, i < N_EDGES64 * N_EDGES64 ? i / N_EDGES64 : N_EDGES64);
        uint64_t b = operand64(t, i < N_EDGES64 * N_EDGES64 ? i % N_EDGES64 : N_EDGES64);
        put_f64(t, ops->adddf3(f64(a), f64(b)));
        put_f64(t, ops->subdf3(f64(a), f64(b)));
        put_f64(t, ops->muldf3(f64(a), f64(b)));
        put_f64(t, ops->divdf3(f64(a), f64(b)));
        put_f32(t, ops->truncdfsf2(f64(a)));
    }
    for (i = 0; i < N_EDGES64 + t->nrandom; i++) {
        uint64_t a = operand64(t, i);
        if (int_ok64(a) == (which == Q7SF_DEFINED))
            put32(t, (uint32_t)ops->fixdfsi(f64(a)));
        if (uint_ok64(a) == (which == Q7SF_DEFINED))
            put32(t, ops->fixunsdfsi(f64(a)));
    }
}

static void run_int(struct table *t, const struct q7sf_ops *ops, enum q7sf_cases which)
{
    unsigned i, n = N_EDGES_INT * N_EDGES_INT + t->nrandom;
    for (i = 0; i < n; i++) {
        uint64_t a = operand_int(t, i < N_EDGES_INT * N_EDGES_INT ? i / N_EDGES_INT : N_EDGES_INT);
        uint64_t b = operand_int(t, i < N_EDGES_INT * N_EDGES_INT ? i % N_EDGES_INT : N_EDGES_INT);
        uint32_t a32 = (uint32_t)a, b32v = (uint32_t)b;
        int min32 = a32 == 0x80000000u && b32v == 0xffffffffu;
        int min64 = a == 0x8000000000000000ull && b == ~0ull;
        if (which == Q7SF_POLICY) {
            if (min32)
                put32(t, (uint32_t)ops->divsi3((int32_t)a32, (int32_t)b32v));
            if (min64) {
                put64(t, (uint64_t)ops->divdi3((int64_t)a, (int64_t)b));
                put64(t, (uint64_t)ops->moddi3((int64_t)a, (int64_t)b));
            }
            continue;
        }
        put32(t, b32(ops->floatsisf((int32_t)a32)));
        put32(t, b32(ops->floatunsisf(a32)));
        put64(t, b64(ops->floatsidf((int32_t)a32)));
        put64(t, b64(ops->floatunsidf(a32)));
        put64(t, (uint64_t)ops->muldi3((int64_t)a, (int64_t)b));
        put64(t, ops->umulsidi3(a32, b32v));
        if (b32v != 0) {
            if (!min32)
                put32(t, (uint32_t)ops->divsi3((int32_t)a32, (int32_t)b32v));
            put32(t, ops->udivsi3(a32, b32v));
            put32(t, ops->umodsi3(a32, b32v));
        }
        if (b != 0) {
            if (!min64) {
                put64(t, (uint64_t)ops->divdi3((int64_t)a, (int64_t)b));
                put64(t, (uint64_t)ops->moddi3((int64_t)a, (int64_t)b));
            }
            put64(t, ops->udivdi3(a, b));
            put64(t, ops->umoddi3(a, b));
        }
    }
}

uint32_t q7sf_table_checksum(const struct q7sf_ops *ops, enum q7sf_cases which,
                             unsigned nrandom)
{
    struct table t;
    t.hash = 2166136261u;
    t.rng = 0x2545f491u;
    t.nrandom = nrandom;
    run_float(&t, ops, which);
    run_fast_paths(&t, ops, which);
    run_double(&t, ops, which);
    run_int(&t, ops, which);
    return t.hash;
}

uint32_t q7sf_table_fold(uint32_t defined, uint32_t policy)
{
    return defined ^ ((policy << 16) | (policy >> 16));
}
