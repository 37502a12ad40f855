/* f32_addsub.c: binary32 addition and subtraction (__addsf3, __subsf3). */
#include "sf_impl.h"

/* The common case first (docs/performance.md): both operands normal and
 * the result normal. Returns 0 for anything else (zeros, subnormals, inf,
 * NaN, an overflow or a result below the normal range), which add32 below
 * then does; both round to nearest even, so the bits are the same. b's
 * sign is already flipped for a subtraction. Significands carry their
 * leading one at bit 29 and six bits below the fraction: a guard bit and
 * the rest sticky, enough for one normalising shift after a difference
 * (a cancellation of more bits happens only when the exponents are at most
 * one apart, where the difference is exact). */
static inline int add32_fast(uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu, ma, mb, m, d, low;
    if (ea - 1u >= 0xfeu || eb - 1u >= 0xfeu)
        return 0;
    if ((a & ~SF32_SIGN) < (b & ~SF32_SIGN)) {
        uint32_t t = a; a = b; b = t;
        t = ea; ea = eb; eb = t;
    }
    ma = ((a & SF32_FRAC) | 0x00800000u) << 6;
    mb = ((b & SF32_FRAC) | 0x00800000u) << 6;
    d = ea - eb;
    mb = d < 32 ? (mb >> d) | ((mb << (31 - d) << 1) != 0) : 1u;
    if ((a ^ b) & SF32_SIGN) {
        m = ma - mb;
        if (m == 0) {
            *r = 0; /* x - x is +0 when rounding to nearest */
            return 1;
        }
        d = (uint32_t)sf_clz32(m) - 2;
        if (d >= ea) /* below the normal range */
            return 0;
        ea -= d;
        m <<= d;
    } else {
        m = ma + mb;
        if (m & 0x40000000u) {
            m = (m >> 1) | (m & 1u);
            if (++ea == 0xffu)
                return 0;
        }
    }
    low = m & 0x3fu;
    m >>= 6;
    m += low > 0x20u || (low == 0x20u && (m & 1u));
    *r = (a & SF32_SIGN) + ((ea - 1u) << 23) + m;
    return 1;
}

/* a + (b with its sign flipped by flip). NaNs are sorted out first, on the
 * operands as given, so that a - NaN returns that NaN's own sign. Out of
 * line: the fast path then needs no stack frame (on the target it jumps
 * here with a, b and flip as it was given them). */
Q7SF_API uint32_t q7sf_add32(uint32_t a, uint32_t b, uint32_t flip);
SF_ADD(32, uint32_t, 23, q7sf_add32)

#ifdef Q7SF_HOST
float Q7SF(addsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_add32(a, b, 0));
}

float Q7SF(subsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (add32_fast(a, b ^ SF32_SIGN, &r))
        return fp_float32(r);
    return fp_float32(q7sf_add32(a, b, SF32_SIGN));
}
#else
/* add32_fast's job in Xtensa assembly (call0 ABI: a and b in a2 and a3,
 * the result in a2, a4..a11 free), as __mulsf3's in f32_mul.c, jumping to
 * q7sf_add32 with the operands as given for the general case. Four copies
 * of one body: __addsf3 and __subsf3, each with the operand of the larger
 * exponent (A, exponent EA) first or second. Significands carry their
 * leading one at bit 30, the smaller shifted right by d with the shift's
 * amount (10..31, below the guard bit) or'ed in as sticky when bits fell
 * off. The result is A's word plus the rounded change of its significand,
 * so the sign and the exponent come with A (PB: A, or A with its sign
 * flipped when it is the subtrahend); only a carry or a cancellation
 * repacks. EA of 254 (and 255) goes to the general code, so that a carry
 * never overflows here. */
#define Q7SF_ADD_BODY(P, A, B, EA, EB, DIFF, PB, FAR, SLOW) \
    "    addi a6, " EA ", 2\n" \
    "    bbsi a6, 8, " P "slow\n"       /* A inf, NaN or at the top */ \
    "    beqz " EB ", " P "slow\n"      /* B a zero or subnormal */ \
    "    addi a8, a8, 2\n"              /* s = d + 2 */ \
    "    bgeui a8, 32, " P "far\n"      /* B far below half an ulp */ \
    "    movi a9, 1\n" \
    "    slli a6, " A ", 9\n" \
    "    ssai 2\n" \
    "    src a6, a9, a6\n"              /* ma = (1:frac) >> 2 */ \
    "    slli a7, " B ", 9\n" \
    "    ssr a8\n" \
    "    src a9, a9, a7\n"              /* mb >> d = (1:frac) >> s */ \
    "    sll a7, a7\n"                  /* the bits that fell off */ \
    "    beqz a7, 1f\n" \
    "    or a9, a9, a8\n" \
    "1:  xor a10, a2, a3\n" \
    "    " DIFF " a10, " P "diff\n" \
    "    add a7, a6, a9\n"              /* a sum */ \
    "    bltz a7, " P "carry\n" \
    "    extui a7, a7, 7, 1\n"          /* A + round(mb / 2^7), even */ \
    "    add a9, a9, a7\n" \
    "    addi a9, a9, 63\n" \
    "    srli a9, a9, 7\n" \
    "    add a2, " PB ", a9\n" \
    "    ret\n" \
    P "carry:\n"                        /* one more exponent */ \
    "    extui a8, a7, 8, 1\n" \
    "    add a7, a7, a8\n" \
    "    addi a7, a7, 127\n" \
    "    srli a7, a7, 8\n" \
    "    srli a2, " PB ", 23\n" \
    "    slli a2, a2, 23\n" \
    "    add a2, a2, a7\n" \
    "    ret\n" \
    P "diff:\n"                         /* a difference */ \
    "    sub a7, a6, a9\n" \
    "    bltz a7, " P "slow\n"          /* |B| > |A|, the same exponent */ \
    "    bbci a7, 30, " P "norm\n" \
    "    extui a7, a7, 7, 1\n"          /* A - round(mb / 2^7), even */ \
    "    sub a7, a7, a9\n" \
    "    addi a7, a7, 63\n" \
    "    srai a7, a7, 7\n" \
    "    add a2, " PB ", a7\n" \
    "    ret\n" \
    P "norm:\n"                         /* k = the bits lost at the top */ \
    "    beqz a7, " P "zero\n" \
    "    nsau a8, a7\n" \
    "    addi a8, a8, -1\n" \
    "    bge a8, " EA ", " P "slow\n"   /* below the normal range */ \
    "    ssl a8\n" \
    "    sll a7, a7\n" \
    "    extui a9, a7, 7, 1\n" \
    "    add a7, a7, a9\n" \
    "    addi a7, a7, 63\n" \
    "    srli a7, a7, 7\n" \
    "    srli a9, " PB ", 23\n" \
    "    sub a9, a9, a8\n" \
    "    addi a9, a9, -1\n" \
    "    slli a9, a9, 23\n" \
    "    add a2, a9, a7\n" \
    "    ret\n" \
    P "zero:\n"                         /* x - x is +0 */ \
    "    movi a2, 0\n" \
    "    ret\n" \
    P "far:\n" \
    FAR \
    "    ret\n" \
    P "slow:\n" \
    SLOW

/* The general code's third argument: b's sign flip. */
#define Q7SF_ADD_SLOW "    movi a4, 0\n    j q7sf_add32\n"
#define Q7SF_SUB_SLOW "    movi a4, 0x80000000\n    j q7sf_add32\n"

__asm__(
    Q7SF_ASM_ENTRY("__addsf3")
    "    extui a4, a2, 23, 8\n"
    "    extui a5, a3, 23, 8\n"
    "    sub a8, a4, a5\n"
    "    bltz a8, .Lq7sf_addb\n"
    Q7SF_ADD_BODY(".Lq7sf_adda_", "a2", "a3", "a4", "a5", "bltz", "a2", "", Q7SF_ADD_SLOW)
    ".Lq7sf_addb:\n"
    "    neg a8, a8\n"
    Q7SF_ADD_BODY(".Lq7sf_addb_", "a3", "a2", "a5", "a4", "bltz", "a3", "    mov a2, a3\n",
                  Q7SF_ADD_SLOW)
    "    .size __addsf3, . - __addsf3\n"
    Q7SF_ASM_ENTRY("__subsf3")
    "    extui a4, a2, 23, 8\n"
    "    extui a5, a3, 23, 8\n"
    "    sub a8, a4, a5\n"
    "    bltz a8, .Lq7sf_subb\n"
    Q7SF_ADD_BODY(".Lq7sf_suba_", "a2", "a3", "a4", "a5", "bgez", "a2", "", Q7SF_SUB_SLOW)
    ".Lq7sf_subb:\n"
    "    neg a8, a8\n"
    "    movi a11, 0x80000000\n"
    "    xor a11, a11, a3\n"               /* -b: the result's sign */
    Q7SF_ADD_BODY(".Lq7sf_subb_", "a3", "a2", "a5", "a4", "bgez", "a11", "    mov a2, a11\n",
                  Q7SF_SUB_SLOW)
    "    .size __subsf3, . - __subsf3\n");
#endif
