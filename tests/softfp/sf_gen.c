/* sf_gen.c: the seeded generator, operand generators and edge tables of
 * sf_ref.h. */
#include "sf_ref.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state, rng_seed;

void sf_rng_seed(uint64_t seed)
{
    rng_seed = rng_state = seed;
}

uint64_t sf_seed(void)
{
    return rng_seed;
}

uint64_t sf_rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

long sf_count(void)
{
    const char *s = getenv("Q7_SOFTFP_COUNT");
    long n = s ? strtol(s, NULL, 0) : 0;
    return n > 0 ? n : 1100000;
}

void sf_begin(const char *helper)
{
    const char *s = getenv("Q7_SOFTFP_SEED");
    uint64_t seed = s ? strtoull(s, NULL, 0) : 0x51f7c0de20261202ull;
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *helper; helper++)
        h = (h ^ (unsigned char)*helper) * 0x100000001b3ull;
    sf_rng_seed(seed);
    rng_state = seed ^ h;
}

void sf_report(const char *helper, long n)
{
    printf("softfp: %-14s %8ld operands ok (seed 0x%016llx)\n", helper, n,
           (unsigned long long)sf_seed());
    fflush(stdout);
}

/* A fraction of w bits: random, with trailing zeros (exact results and
 * ties), near all-ones (rounding carries), or with one or two bits. */
static uint64_t gen_frac(unsigned w)
{
    uint64_t mask = (1ull << w) - 1, r = sf_rng() & mask;
    switch (sf_below(6)) {
    case 0: return r & (mask << sf_below(w + 1));
    case 1: return mask ^ (r >> sf_below(w + 1));
    case 2: return (1ull << sf_below(w)) | (sf_below(2) ? 1ull << sf_below(w) : 0);
    case 3: return r >> sf_below(w + 1);
    default: return r;
    }
}

/* An exponent (biased, field of w bits) from the interesting ranges. */
static uint32_t gen_exp(unsigned w)
{
    uint32_t max = (1u << w) - 1, bias = max >> 1;
    switch (sf_below(8)) {
    case 0: return 0;
    case 1: return 1 + sf_below(3);
    case 2: return max - 1 - sf_below(3);
    case 3: return sf_below(16) ? sf_below(max) : max;
    default: return bias - 40 + sf_below(81);
    }
}

uint32_t sf_gen32(void)
{
    if (sf_below(2) == 0)
        return sf_rng32();
    return (sf_below(2) << 31) | (gen_exp(8) << 23) | (uint32_t)gen_frac(23);
}

uint64_t sf_gen64(void)
{
    if (sf_below(2) == 0)
        return sf_rng();
    return ((uint64_t)sf_below(2) << 63) | ((uint64_t)gen_exp(11) << 52) | gen_frac(52);
}

/* Exponent clamped into [0, max]. */
static uint32_t clamp_exp(int32_t e, uint32_t max)
{
    return e < 0 ? 0 : e > (int32_t)max ? max : (uint32_t)e;
}

/* One generic pair rule for both widths; w is the exponent width, f the
 * fraction width. */
static uint64_t gen_pair(uint64_t a, unsigned w, unsigned f)
{
    uint32_t max = (1u << w) - 1, bias = max >> 1;
    int32_t ea = (int32_t)((a >> f) & max);
    uint64_t fmask = (1ull << f) - 1, sign = (uint64_t)sf_below(2) << (w + f);
    uint64_t frac;
    int32_t eb;
    switch (sf_below(4)) {
    case 0: /* close to a: the sum cancels down to a few bits */
        eb = ea + (int32_t)sf_below(5) - 2;
        frac = sf_rng() >> (63 - sf_below(f));
        frac = (sf_below(2) ? a + frac : a - frac) & fmask;
        break;
    case 1: /* aligned within the significand width: rounding of sums */
        eb = ea - (int32_t)sf_below(f + 4);
        frac = gen_frac(f);
        break;
    case 2: { /* a*b or a/b near overflow, the normal minimum or below */
        int32_t t = sf_below(3) == 0 ? (int32_t)(2 * bias)
                  : 1 - (int32_t)(sf_below(2) ? 0 : sf_below(f + 2));
        int32_t d = (int32_t)sf_below(7) - 3;
        eb = sf_below(2) ? t - ea + (int32_t)bias + d : ea + (int32_t)bias - t + d;
        frac = gen_frac(f);
        break;
    }
    default:
        /* a shift, not a mask: 1ull << 64 is undefined (and gave 0 on x86) */
        return sf_rng() >> (64 - (w + f + 1));
    }
    return sign | ((uint64_t)clamp_exp(eb, max - 1) << f) | frac;
}

uint32_t sf_gen32_pair(uint32_t a)
{
    return sf_below(4) == 0 ? sf_gen32() : (uint32_t)gen_pair(a, 8, 23);
}

uint64_t sf_gen64_pair(uint64_t a)
{
    return sf_below(4) == 0 ? sf_gen64() : gen_pair(a, 11, 52);
}

uint64_t sf_gen_int64(void)
{
    uint64_t r = sf_rng();
    switch (sf_below(4)) {
    case 0: return r;
    case 1: return r >> sf_below(64);
    case 2: return (uint64_t)0 - (r >> sf_below(64));
    default: return (1ull << sf_below(64)) + (uint64_t)(int64_t)((int32_t)sf_below(5) - 2);
    }
}

uint32_t sf_gen_int32(void)
{
    uint32_t r = sf_rng32();
    switch (sf_below(4)) {
    case 0: return r;
    case 1: return r >> sf_below(32);
    case 2: return 0u - (r >> sf_below(32));
    default: return (1u << sf_below(32)) + sf_below(5) - 2;
    }
}

const uint32_t sf_edges32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x00400000,
    0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001, 0x00ffffff,
    0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7effffff, 0x3f800000, 0xbf800000,
    0x3f800001, 0x3f7fffff, 0x3fffffff, 0x40000000, 0x3fc00000, 0x33800000,
    0x34000000, 0x4b800000, 0x4b800001, 0x4b7fffff, 0x4f000000, 0xcf000000,
    0x4f7fffff, 0x4f800000, 0xcf000001, 0x1f800000, 0x5f800000, 0x0c000000,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffa00001,
    0x7fbfffff, 0x7fc12345,
};
const unsigned sf_nedges32 = sizeof sf_edges32 / sizeof sf_edges32[0];

const uint64_t sf_edges64[] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001,
    0x8000000000000001, 0x0000000000000003, 0x0008000000000000,
    0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000,
    0x8010000000000000, 0x0010000000000001, 0x001fffffffffffff,
    0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000,
    0x7fdfffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
    0x3ff0000000000001, 0x3fefffffffffffff, 0x3fffffffffffffff,
    0x4000000000000000, 0x3ff8000000000000, 0x3ca0000000000000,
    0x3cb0000000000000, 0x4340000000000000, 0x4340000000000001,
    0x433fffffffffffff, 0x41e0000000000000, 0xc1e0000000000000,
    0x41dfffffffffffc0, 0xc1e0000000100000, 0xc1e00000001fffff,
    0x41efffffffffffff, 0x41f0000000000000, 0xbff0000000000001,
    0xbfefffffffffffff, 0x47efffffe0000000, 0x47efffff00000000,
    0x3810000000000000, 0x380fffffffffffff, 0x3690000000000000,
    0x36a0000000000001, 0x369fffffffffffff, 0x3e80000000000000,
    0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
    0xfff8000000000000, 0x7ff0000000000001, 0xfff4000000000001,
    0x7ff7ffffffffffff, 0x7ff8123456789abc, 0x7ff0000020000000,
};
const unsigned sf_nedges64 = sizeof sf_edges64 / sizeof sf_edges64[0];

const uint64_t sf_edges_int[] = {
    0, 1, 2, 3, 7, 10, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001,
    0xffffffff, 0x100000000, 0x100000001, 0x7fffffffffffffff,
    0x8000000000000000, 0x8000000000000001, 0xffffffffffffffff,
    0xfffffffffffffffe, 0xfffffffffffffff6, 0xffffffff80000000,
    0xffffffff7fffffff, 0x00ffffff, 0x01000001, 0x0020000000000001,
    0x001fffffffffffff, 0xffffffff00000000, 0x123456789abcdef0,
};
const unsigned sf_nedges_int = sizeof sf_edges_int / sizeof sf_edges_int[0];
