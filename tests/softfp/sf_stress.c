/* sf_stress.c: the operand sequence and checksums of sf_stress.h. No
 * floating-point operator outside the four operations: the pairs are
 * made from bits, so only the helpers under test are reached. */
#include "sf_stress.h"

typedef union { float f; uint32_t u; } cast32;

static float add_f(float a, float b) { return a + b; }
static float sub_f(float a, float b) { return a - b; }
static float mul_f(float a, float b) { return a * b; }
static float div_f(float a, float b) { return a / b; }

const struct q7sf_f32_ops q7sf_f32_c_ops = { { add_f, sub_f, mul_f, div_f } };

static const uint32_t edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00400000,
    0x00800000, 0x80800000, 0x00800001, 0x00ffffff, 0x01000000, 0x3f800000,
    0xbf800000, 0x3f800001, 0x3fffffff, 0x3f7fffff, 0x40000000, 0x33800000,
    0x34000000, 0x4b800000, 0x7f000000, 0x7effffff, 0x7f7fffff, 0xff7fffff,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3e800000,
};
#define N_EDGES (sizeof edges / sizeof edges[0])

unsigned q7sf_stress_edges(void) { return N_EDGES * N_EDGES; }

/* xorshift32 from a seed that depends only on i: any pair can be made
 * alone, in any order. */
static uint32_t mix(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static uint32_t with_exp(uint32_t bits, uint32_t e) { return (bits & 0x807fffffu) | (e << 23); }

void q7sf_stress_pair(unsigned i, uint32_t *a, uint32_t *b)
{
    uint32_t r0, r1, r2, r3, ea;
    if (i < N_EDGES * N_EDGES) {
        *a = edges[i / N_EDGES];
        *b = edges[i % N_EDGES];
        return;
    }
    r0 = mix(i * 2654435761u + 0x9e3779b9u);
    r1 = mix(r0 ^ 0x85ebca6bu);
    r2 = mix(r1 + 0xc2b2ae35u);
    r3 = mix(r2 ^ 0x27d4eb2fu);
    ea = 1u + r2 % 254u;
    switch (i % 6) {
    case 0: /* any bits */
        *a = r0;
        *b = r1;
        break;
    case 1: /* exponents near one's, as kernels' values */
        *a = with_exp(r0, 107u + r2 % 41u);
        *b = with_exp(r1, 107u + r3 % 41u);
        break;
    case 2: /* neighbours: cancellation, ties, a carry into the exponent */
        *a = with_exp(r0, ea);
        *b = (*a ^ (r1 & 0x8000007fu)) + ((r2 >> 9) % 3u == 0 ? 0x00800000u : 0u);
        if (r3 & 1u) /* a run of ones or zeros at the bottom */
            *b = (r3 & 2u) ? *b | 0x0000ffffu : *b & ~0x0000ffffu;
        break;
    case 3: /* exponents 0 to 40 apart, either order */
        *a = with_exp(r0, ea);
        *b = with_exp(r1, ea > r3 % 41u ? ea - r3 % 41u : 1u);
        if (r3 & 0x100u) {
            uint32_t t = *a;
            *a = *b;
            *b = t;
        }
        break;
    case 4: /* both at one end of the range: subnormal results, overflow */
        *a = with_exp(r0, (r2 & 1u) ? r2 % 24u : 254u - r2 % 24u);
        *b = with_exp(r1, (r2 & 1u) ? r3 % 24u : (r2 & 2u) ? 254u - r3 % 24u : 100u + r3 % 56u);
        if ((r2 & 1u) && (r3 & 0x200u))
            *b = with_exp(r1, 127u + r3 % 24u); /* tiny times or over ordinary */
        break;
    default: /* an edge against anything */
        *a = edges[r2 % N_EDGES];
        *b = (r3 & 1u) ? r1 : with_exp(r1, 107u + r3 % 41u);
        if (r3 & 2u) {
            uint32_t t = *a;
            *a = *b;
            *b = t;
        }
        break;
    }
}

void q7sf_stress_run(const struct q7sf_f32_ops *ops, unsigned n,
                     uint32_t sums[Q7SF_STRESS_OPS])
{
    unsigned i, k;
    for (k = 0; k < Q7SF_STRESS_OPS; k++)
        sums[k] = 2166136261u;
    for (i = 0; i < n; i++) {
        cast32 a, b, r;
        q7sf_stress_pair(i, &a.u, &b.u);
        for (k = 0; k < Q7SF_STRESS_OPS; k++) {
            r.f = ops->op[k](a.f, b.f);
            if ((r.u & 0x7fffffffu) > 0x7f800000u)
                r.u = 0x7fc00000u;
            sums[k] = (sums[k] ^ r.u) * 16777619u;
        }
    }
}
