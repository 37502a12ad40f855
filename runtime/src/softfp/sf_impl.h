/* sf_impl.h: the pieces every soft-float helper shares (the bit casts are
 * ../fpbits.h): leading zero counts, shifts that keep a sticky bit, wide
 * products from 16-bit pieces, NaN rules and the round-and-pack step of
 * both formats.
 *
 * Everything is static inline so that each helper's object stands alone in
 * the archive and the linker pulls only what an image uses.
 *
 * Working format (both precisions): a result is carried as sign, e and m,
 * where m holds the significand with its leading one at bit 30 (binary32)
 * or bit 62 (binary64) and extra low bits for rounding, bit 0 being sticky;
 * e is the biased exponent minus one, so that packing is (e << F) + (m >> R)
 * and the leading one itself carries into the exponent field. A rounding
 * carry out of the significand then bumps the exponent for free. */
#ifndef Q7_SF_IMPL_H
#define Q7_SF_IMPL_H

#include "softfp.h"
#include "../fpbits.h"

#define SF32_SIGN   0x80000000u
#define SF32_EXP    0x7f800000u
#define SF32_FRAC   0x007fffffu
#define SF32_HIDDEN 0x00800000u
#define SF32_QUIET  0x00400000u
#define SF32_INF    0x7f800000u
#define SF32_DEFAULT_NAN 0xffc00000u

#define SF64_SIGN   0x8000000000000000ull
#define SF64_FRAC   0x000fffffffffffffull
#define SF64_HIDDEN 0x0010000000000000ull
#define SF64_QUIET  0x0008000000000000ull
#define SF64_INF    0x7ff0000000000000ull
#define SF64_DEFAULT_NAN 0xfff8000000000000ull

/* Leading zeros of a nonzero value. GCC's builtin is one instruction on
 * both targets (NSAU on the lx106, BSR/LZCNT on the host), never a call to
 * __clzsi2: unit.softfp_link fails if the archive references any symbol.
 * Elsewhere, halving. */
static inline int sf_clz32(uint32_t x)
{
#if defined(__GNUC__) && (defined(__XTENSA__) || defined(__x86_64__))
    return __builtin_clz(x);
#else
    int n = 0;
    if (!(x & 0xffff0000u)) { n += 16; x <<= 16; }
    if (!(x & 0xff000000u)) { n += 8; x <<= 8; }
    if (!(x & 0xf0000000u)) { n += 4; x <<= 4; }
    if (!(x & 0xc0000000u)) { n += 2; x <<= 2; }
    if (!(x & 0x80000000u)) n += 1;
    return n;
#endif
}

static inline int sf_clz64(uint64_t x)
{
    uint32_t hi = (uint32_t)(x >> 32);
    return hi ? sf_clz32(hi) : 32 + sf_clz32((uint32_t)x);
}

/* Variable 64-bit shifts from 32-bit halves, n < 64: at -Os the compiler
 * would call libgcc's __ashldi3/__lshrdi3, which sit after this archive on
 * the link line; written out, the archive needs nothing from anywhere. */
static inline uint64_t sf_shl64(uint64_t x, uint32_t n)
{
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (n == 0)
        return x;
    if (n >= 32) {
        hi = lo << (n - 32);
        lo = 0;
    } else {
        hi = (hi << n) | (lo >> (32 - n));
        lo <<= n;
    }
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t sf_shr64(uint64_t x, uint32_t n)
{
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (n == 0)
        return x;
    if (n >= 32) {
        lo = hi >> (n - 32);
        hi = 0;
    } else {
        lo = (lo >> n) | (hi << (32 - n));
        hi >>= n;
    }
    return ((uint64_t)hi << 32) | lo;
}

/* 32x32 -> 64 from four 16x16 products: the lx106 has no high multiply,
 * and a 64-bit '*' here would call __muldi3, which this library defines. */
static inline uint64_t sf_mul32x32(uint32_t a, uint32_t b)
{
    uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
    uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint32_t mid = (ll >> 16) + (lh & 0xffffu) + (hl & 0xffffu);
    uint32_t lo = (mid << 16) | (ll & 0xffffu);
    uint32_t hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
    return ((uint64_t)hi << 32) | lo;
}

/* 64x64 -> 128, as high and low halves. */
static inline uint64_t sf_mul64x64(uint64_t a, uint64_t b, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t p00 = sf_mul32x32(a0, b0), p01 = sf_mul32x32(a0, b1);
    uint64_t p10 = sf_mul32x32(a1, b0), p11 = sf_mul32x32(a1, b1);
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static inline uint32_t sf_shl32(uint32_t x, uint32_t n) { return x << n; }
static inline uint32_t sf_shr32(uint32_t x, uint32_t n) { return x >> n; }

/* Both formats' round-and-pack and unpack, from the word's width N and
 * the fraction's F: the working m has its leading one at bit N - 2, so
 * R = N - 2 - F round bits; the exponent field is N - 1 - F bits wide.
 *
 * sf_nanN: the first operand's NaN wins, else the second's; both get
 * quieted. sf_shr_jamN: x >> n, with every bit shifted out ORed into bit 0.
 * sf_round_packN: round m (leading one at bit N - 2 unless the value is
 * subnormal with e == 0) to nearest even and pack. e < 0 denormalizes
 * first, so a subnormal result is rounded once, on its own grid.
 * sf_norm_round_packN: m nonzero, exact: its leading one brought to bit
 * N - 2, then rounded and packed.
 * sf_unpackN: a finite nonzero value's significand with its leading one
 * at bit F, and an exponent that may go below 1 for subnormals. */
#define SF_FORMAT(N, T, F) \
static inline int sf_isnan##N(T a) { return (a & ~SF##N##_SIGN) > SF##N##_INF; } \
static inline T sf_nan##N(T a, T b) \
{ \
    return (sf_isnan##N(a) ? a : b) | SF##N##_QUIET; \
} \
static inline T sf_shr_jam##N(T x, uint32_t n) \
{ \
    if (n == 0) \
        return x; \
    if (n < N) \
        return sf_shr##N(x, n) | (sf_shl##N(x, N - n) != 0); \
    return x != 0; \
} \
static inline T sf_round_pack##N(uint32_t sign, int32_t e, T m) \
{ \
    uint32_t low; \
    if ((uint32_t)e >= (1u << (N - 1 - F)) - 3u) { \
        if (e < 0) { \
            m = sf_shr_jam##N(m, (uint32_t)-e); \
            e = 0; \
        } else if (e > (1 << (N - 1 - F)) - 3 || m + (1u << (N - 3 - F)) >= (T)1 << (N - 1)) { \
            return ((T)sign << (N - 1)) | SF##N##_INF; \
        } \
    } \
    low = (uint32_t)m & ((1u << (N - 2 - F)) - 1u); \
    m = (m + (1u << (N - 3 - F))) >> (N - 2 - F); \
    if (low == 1u << (N - 3 - F)) \
        m &= ~(T)1; \
    if (m == 0) \
        e = 0; \
    return ((T)sign << (N - 1)) + ((T)(uint32_t)e << F) + m; \
} \
static inline T sf_norm_round_pack##N(uint32_t sign, int32_t e, T m) \
{ \
    int shift = sf_clz##N(m) - 1; \
    return sf_round_pack##N(sign, e - shift, sf_shl##N(m, (uint32_t)shift)); \
} \
static inline T sf_unpack##N(T a, int32_t *e) \
{ \
    T m = a & SF##N##_FRAC; \
    int32_t exp = (int32_t)((a >> F) & ((1u << (N - 1 - F)) - 1u)); \
    int shift; \
    if (exp != 0) { \
        *e = exp; \
        return m | SF##N##_HIDDEN; \
    } \
    shift = sf_clz##N(m) - (N - 1 - F); \
    *e = 1 - shift; \
    return sf_shl##N(m, (uint32_t)shift); \
}
SF_FORMAT(32, uint32_t, 23)
SF_FORMAT(64, uint64_t, 52)
#undef SF_FORMAT

/* Both formats' a + (b with its sign flipped by flip): NAME, from the
 * word's width N and the fraction's F. Subnormals share exponent 1 with
 * the smallest normals; N - 2 - F extra bits below the fraction carry
 * guard, round and sticky information. */
#define SF_ADD(N, T, F, NAME) \
T NAME(T a, T b, T flip) \
{ \
    uint32_t sa, sb; \
    T ma, mb, m; \
    int32_t ea, eb; \
 \
    if (sf_isnan##N(a) || sf_isnan##N(b)) \
        return sf_nan##N(a, b); \
    b ^= flip; \
    sa = (uint32_t)(a >> (N - 1)); \
    sb = (uint32_t)(b >> (N - 1)); \
    ea = (int32_t)((a >> F) & ((1u << (N - 1 - F)) - 1u)); \
    eb = (int32_t)((b >> F) & ((1u << (N - 1 - F)) - 1u)); \
    if (ea == (1 << (N - 1 - F)) - 1) \
        return (eb == ea && sa != sb) ? SF##N##_DEFAULT_NAN : a; \
    if (eb == (1 << (N - 1 - F)) - 1) \
        return b; \
 \
    ma = a & SF##N##_FRAC; \
    mb = b & SF##N##_FRAC; \
    if (ea == 0) ea = 1; else ma |= SF##N##_HIDDEN; \
    if (eb == 0) eb = 1; else mb |= SF##N##_HIDDEN; \
    ma <<= N - 2 - F; \
    mb <<= N - 2 - F; \
 \
    /* Order by magnitude: a becomes the larger. */ \
    if (ea < eb || (ea == eb && ma < mb)) { \
        T t = ma; ma = mb; mb = t; \
        uint32_t ts = sa; sa = sb; sb = ts; \
        int32_t te = ea; ea = eb; eb = te; \
    } \
    mb = sf_shr_jam##N(mb, (uint32_t)(ea - eb)); \
    if (sa == sb) { \
        m = ma + mb; \
        if (m >> (N - 1)) { \
            m = (m >> 1) | (m & 1u); \
            ea++; \
        } \
        /* Both subnormal: m is below bit N - 2 but e - 1 == 0 packs it right. */ \
        return sf_round_pack##N(sa, ea - 1, m); \
    } \
    m = ma - mb; \
    if (m == 0) \
        return 0; /* x - x is +0 when rounding to nearest */ \
    return sf_norm_round_pack##N(sa, ea - 1, m); \
}

/* The high word of a * b, the low word's bits ORed into bit 0. */
static inline uint32_t sf_mul_sticky32(uint32_t a, uint32_t b)
{
    uint64_t p = sf_mul32x32(a, b);
    return (uint32_t)(p >> 32) | ((uint32_t)p != 0);
}

static inline uint64_t sf_mul_sticky64(uint64_t a, uint64_t b)
{
    uint64_t lo, hi = sf_mul64x64(a, b, &lo);
    return hi | (lo != 0);
}

/* Both formats' a * b (NAME), as SF_ADD's. Leading ones at bits N - 2
 * and N - 1: the product's lands at bit 2N - 3 or 2N - 2, so its high
 * word has it at N - 3 or N - 2; the low word becomes sticky. */
#define SF_MUL(N, T, F, NAME) \
T NAME(T a, T b) \
{ \
    uint32_t sign = (uint32_t)((a ^ b) >> (N - 1)); \
    T ma, mb, m; \
    int32_t ea, eb, e; \
 \
    if (sf_isnan##N(a) || sf_isnan##N(b)) \
        return sf_nan##N(a, b); \
    if ((a & SF##N##_INF) == SF##N##_INF || (b & SF##N##_INF) == SF##N##_INF) { \
        if ((a & ~SF##N##_SIGN) == 0 || (b & ~SF##N##_SIGN) == 0) \
            return SF##N##_DEFAULT_NAN; /* 0 * inf */ \
        return ((T)sign << (N - 1)) | SF##N##_INF; \
    } \
    if ((a & ~SF##N##_SIGN) == 0 || (b & ~SF##N##_SIGN) == 0) \
        return (T)sign << (N - 1); \
 \
    ma = sf_unpack##N(a, &ea); \
    mb = sf_unpack##N(b, &eb); \
    m = sf_mul_sticky##N(ma << (N - 2 - F), mb << (N - 1 - F)); \
    e = ea + eb - ((1 << (N - 2 - F)) - 1); \
    if (m < (T)1 << (N - 2)) { \
        m <<= 1; \
        e--; \
    } \
    return sf_round_pack##N(sign, e, m); \
}

/* Both formats' a / b (NAME), as the host's divss and divsd (softfp.h):
 * restoring division, one quotient bit per step (N - 1 steps put the
 * leading one at bit N - 2: ma / mb is in [1, 2)), the remainder sticky. */
#define SF_DIV(N, T, F, NAME) \
T NAME(T a, T b) \
{ \
    uint32_t sign = (uint32_t)((a ^ b) >> (N - 1)); \
    T ma, mb, q = 0, zero = (T)sign << (N - 1); \
    int32_t ea, eb, e, i; \
 \
    if (sf_isnan##N(a) || sf_isnan##N(b)) \
        return sf_nan##N(a, b); \
    if ((a & SF##N##_INF) == SF##N##_INF) \
        return (b & SF##N##_INF) == SF##N##_INF ? SF##N##_DEFAULT_NAN : zero | SF##N##_INF; \
    if ((b & SF##N##_INF) == SF##N##_INF) \
        return zero; \
    if ((b & ~SF##N##_SIGN) == 0) \
        return (a & ~SF##N##_SIGN) == 0 ? SF##N##_DEFAULT_NAN : zero | SF##N##_INF; \
    if ((a & ~SF##N##_SIGN) == 0) \
        return zero; \
    ma = sf_unpack##N(a, &ea); \
    mb = sf_unpack##N(b, &eb); \
    e = ea - eb + (1 << (N - 2 - F)) - 2; \
    if (ma < mb) { \
        ma <<= 1; \
        e--; \
    } \
    for (i = 0; i < N - 1; i++) { \
        q <<= 1; \
        if (ma >= mb) { \
            ma -= mb; \
            q |= 1u; \
        } \
        ma <<= 1; \
    } \
    return sf_round_pack##N(sign, e, q | (ma != 0)); \
}

/* Both formats' conversion to uint32_t, NAME: truncation toward zero;
 * out of range as the Xtensa libgcc does it (see softfp.h). */
#define SF_FIXUNS(N, F, FT, NAME) \
uint32_t NAME(FT fa) \
{ \
    uint##N##_t a = fp_bits##N(fa), m; \
    int32_t k = (int32_t)((a >> F) & ((1u << (N - 1 - F)) - 1u)) - ((1 << (N - 2 - F)) - 1); \
    uint32_t u; \
 \
    if (sf_isnan##N(a)) \
        return 0xffffffffu; \
    if (k < 0) \
        return 0; \
    if (k >= 32) \
        return (a & SF##N##_SIGN) ? 0x80000000u : 0xffffffffu; \
    m = (a & SF##N##_FRAC) | SF##N##_HIDDEN; \
    u = (uint32_t)(k >= F ? sf_shl##N(m, (uint32_t)(k - F)) : sf_shr##N(m, (uint32_t)(F - k))); \
    if (a & SF##N##_SIGN) \
        return k == 31 ? 0x80000000u : 0u - u; \
    return u; \
}

#ifndef Q7SF_HOST
/* The Xtensa helpers' shared opening (call0 ABI: a and b in a2 and a3):
 * the symbol, then ea in a4, eb in a5, 253 in a11, and a jump to 9f when
 * either operand is a zero, a subnormal, an inf or a NaN (f32_mul.c,
 * f32_div.c). */
#define Q7SF_ASM_ENTRY(name) \
    "    .text\n" \
    "    .align 4\n" \
    "    .global " name "\n" \
    "    .hidden " name "\n" \
    "    .type " name ", @function\n" \
    name ":\n"
#define Q7SF_ASM_BOTH_NORMAL \
    "    extui a4, a2, 23, 8\n" \
    "    extui a5, a3, 23, 8\n" \
    "    movi a11, 253\n" \
    "    addi a6, a4, -1\n" \
    "    bltu a11, a6, 9f\n" \
    "    addi a7, a5, -1\n" \
    "    bltu a11, a7, 9f\n"
#endif

#endif
