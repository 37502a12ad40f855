/* f32_div.c: binary32 division (__divsf3), in place of libgcc's bit-by-bit
 * one (174 instructions a call in bench/softfp/run). */
#include "sf_impl.h"

/* q7sf_rcp16[i] = floor(2^31 / (2^15 + (i + 1) * 2^7)): a reciprocal of
 * every 16-bit divisor whose bits below its leading one start with i, from
 * below, to within 2^-8. */
Q7SF_API extern const uint16_t q7sf_rcp16[256];
const uint16_t q7sf_rcp16[256] = {
    65280, 65027, 64776, 64527, 64280, 64035, 63791, 63550,
    63310, 63072, 62836, 62601, 62368, 62137, 61908, 61680,
    61455, 61230, 61008, 60787, 60567, 60349, 60133, 59918,
    59705, 59493, 59283, 59074, 58867, 58661, 58457, 58254,
    58052, 57852, 57653, 57456, 57260, 57065, 56871, 56679,
    56488, 56299, 56111, 55924, 55738, 55553, 55370, 55188,
    55007, 54827, 54648, 54471, 54295, 54120, 53946, 53773,
    53601, 53430, 53261, 53092, 52924, 52758, 52593, 52428,
    52265, 52103, 51941, 51781, 51622, 51463, 51306, 51150,
    50994, 50840, 50686, 50533, 50382, 50231, 50081, 49932,
    49784, 49636, 49490, 49344, 49200, 49056, 48913, 48770,
    48629, 48489, 48349, 48210, 48072, 47934, 47798, 47662,
    47527, 47393, 47259, 47127, 46995, 46863, 46733, 46603,
    46474, 46345, 46218, 46091, 45964, 45839, 45714, 45590,
    45466, 45343, 45221, 45100, 44979, 44858, 44739, 44620,
    44501, 44384, 44267, 44150, 44034, 43919, 43804, 43690,
    43577, 43464, 43351, 43240, 43129, 43018, 42908, 42799,
    42690, 42581, 42473, 42366, 42259, 42153, 42048, 41943,
    41838, 41734, 41630, 41527, 41425, 41323, 41221, 41120,
    41020, 40920, 40820, 40721, 40622, 40524, 40427, 40329,
    40233, 40136, 40041, 39945, 39850, 39756, 39662, 39568,
    39475, 39383, 39290, 39199, 39107, 39016, 38926, 38836,
    38746, 38657, 38568, 38479, 38391, 38304, 38216, 38130,
    38043, 37957, 37871, 37786, 37701, 37617, 37532, 37449,
    37365, 37282, 37200, 37117, 37035, 36954, 36873, 36792,
    36711, 36631, 36551, 36472, 36393, 36314, 36235, 36157,
    36080, 36002, 35925, 35848, 35772, 35696, 35620, 35544,
    35469, 35394, 35320, 35246, 35172, 35098, 35025, 34952,
    34879, 34807, 34735, 34663, 34592, 34521, 34450, 34379,
    34309, 34239, 34169, 34100, 34030, 33961, 33893, 33825,
    33756, 33689, 33621, 33554, 33487, 33420, 33354, 33288,
    33222, 33156, 33091, 33026, 32961, 32896, 32832, 32768,
};

/* The common case first (docs/performance.md): both operands normal and
 * the quotient normal; 0 for anything else, which the general code below
 * does. With n in [d, 2d) (n doubled if need be), the quotient's 25 bits
 * Q = floor(n * 2^24 / d) round to nearest as (Q + 1) >> 1: a quotient of
 * two 24-bit significands never lies halfway. Q comes from a reciprocal
 * (the table and one Newton step, 16 bits), twelve bits at a time, with
 * remainders that are exact modulo 2^32 because they are small, then is
 * corrected against its remainder. The steps are the assembly's below. */
static inline int div32_fast(uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu, n, d, rcp, t, q, rem;
    uint32_t e;
    if (ea - 1u >= 0xfeu || eb - 1u >= 0xfeu)
        return 0;
    n = (a & SF32_FRAC) | 0x00800000u;
    d = (b & SF32_FRAC) | 0x00800000u;
    e = ea - eb + 126u; /* the biased exponent minus one, for n >= d */
    if (n < d) {
        n <<= 1;
        e--;
    }
    if (e >= 0xfeu)
        return 0;
    rcp = q7sf_rcp16[(d >> 15) & 0xffu];      /* <= 2^31 / (d >> 8) */
    t = (0u - (d >> 8) * rcp) >> 8 & 0xffffu; /* (2^31 - (d >> 8) rcp) >> 8 */
    rcp += (rcp * t) >> 23;                   /* about 2^39 / d, +-2^-15 */
    q = (((n >> 9) * rcp) >> 18) - 1u;        /* q 2^12, from below */
    rem = (n << 12) - q * d;                  /* below 4d */
    q = (q << 12) + (((rem >> 10) * rcp) >> 17);
    rem = (n << 24) - q * d;
    while ((int32_t)rem < 0) {
        rem += d;
        q--;
    }
    while (rem >= d) {
        rem -= d;
        q++;
    }
    *r = ((a ^ b) & SF32_SIGN) + (e << 23) + ((q + 1u) >> 1);
    return 1;
}

/* Every other case: NaN, inf, zeros, subnormals, a quotient outside the
 * normal range, as the host's divss (softfp.h). Out of line: the fast
 * path jumps here with a and b as it was given them. The quotient's bits
 * one by one, the remainder sticky. */
Q7SF_API uint32_t q7sf_div32_slow(uint32_t a, uint32_t b);
uint32_t q7sf_div32_slow(uint32_t a, uint32_t b)
{
    uint32_t sign = (a ^ b) >> 31, ma, mb, q = 0;
    int32_t ea, eb, e, i;

    if (sf_isnan32(a) || sf_isnan32(b))
        return sf_nan32(a, b);
    if ((a & SF32_EXP) == SF32_EXP)
        return (b & SF32_EXP) == SF32_EXP ? SF32_DEFAULT_NAN : (sign << 31) | SF32_INF;
    if ((b & SF32_EXP) == SF32_EXP)
        return sign << 31;
    if ((b & ~SF32_SIGN) == 0)
        return (a & ~SF32_SIGN) == 0 ? SF32_DEFAULT_NAN : (sign << 31) | SF32_INF;
    if ((a & ~SF32_SIGN) == 0)
        return sign << 31;
    ma = sf_unpack32(a, &ea);
    mb = sf_unpack32(b, &eb);
    e = ea - eb + 126;
    if (ma < mb) {
        ma <<= 1;
        e--;
    }
    for (i = 0; i < 31; i++) { /* q = floor(ma 2^30 / mb): leading one at 30 */
        q <<= 1;
        if (ma >= mb) {
            ma -= mb;
            q |= 1u;
        }
        ma <<= 1;
    }
    return sf_round_pack32(sign, e, q | (ma != 0));
}

#ifdef Q7SF_HOST
float Q7SF(divsf3)(float fa, float fb)
{
    uint32_t a = fp_bits32(fa), b = fp_bits32(fb), r;
    if (div32_fast(a, b, &r))
        return fp_float32(r);
    return fp_float32(q7sf_div32_slow(a, b));
}
#else
/* div32_fast in Xtensa assembly (call0 ABI: a and b in a2 and a3, the
 * result in a2, a4..a11 free), jumping to q7sf_div32_slow with the
 * operands as given for everything else; unit.softfp_stress_emulated
 * checks it against the host. a6 is n, a7 d, a9 the reciprocal, a10 q,
 * a8 the remainder. */
__asm__(
    Q7SF_ASM_ENTRY("__divsf3")
    Q7SF_ASM_BOTH_NORMAL
    "    sub a4, a4, a5\n"
    "    addi a4, a4, 126\n"         /* e, for n >= d */
    "    movi a10, 0x00800000\n"
    "    slli a6, a2, 9\n"
    "    slli a7, a3, 9\n"
    "    srli a6, a6, 9\n"
    "    srli a7, a7, 9\n"
    "    or a6, a6, a10\n"           /* n */
    "    or a7, a7, a10\n"           /* d */
    "    bgeu a6, a7, 1f\n"
    "    add a6, a6, a6\n"
    "    addi a4, a4, -1\n"
    "1:  bltu a11, a4, 9f\n"         /* the quotient outside the normal range */
    "    extui a8, a7, 15, 8\n"
    "    movi a9, q7sf_rcp16\n"
    "    addx2 a9, a8, a9\n"
    "    l16ui a9, a9, 0\n"          /* rcp */
    "    srli a10, a7, 8\n"
    "    mul16u a10, a10, a9\n"
    "    neg a10, a10\n"
    "    extui a10, a10, 8, 16\n"    /* t */
    "    mul16u a10, a10, a9\n"
    "    srli a10, a10, 23\n"
    "    add a9, a9, a10\n"          /* rcp, Newton-refined */
    "    srli a10, a6, 9\n"
    "    mul16u a10, a10, a9\n"
    "    srli a10, a10, 18\n"
    "    addi a10, a10, -1\n"        /* q 2^12 */
    "    slli a8, a6, 12\n"
    "    mull a5, a10, a7\n"
    "    sub a8, a8, a5\n"           /* rem */
    "    srli a8, a8, 10\n"
    "    mul16u a8, a8, a9\n"
    "    srli a8, a8, 17\n"
    "    slli a10, a10, 12\n"
    "    add a10, a10, a8\n"         /* q */
    "    slli a8, a6, 24\n"
    "    mull a5, a10, a7\n"
    "    sub a8, a8, a5\n"           /* rem */
    "    bgez a8, 3f\n"
    "2:  add a8, a8, a7\n"           /* q too large */
    "    addi a10, a10, -1\n"
    "    bltz a8, 2b\n"
    "3:  bltu a8, a7, 4f\n"
    "    sub a8, a8, a7\n"           /* q too small */
    "    addi a10, a10, 1\n"
    "    j 3b\n"
    "4:  addi a10, a10, 1\n"         /* round to nearest */
    "    srli a10, a10, 1\n"
    "    xor a2, a2, a3\n"
    "    extui a2, a2, 31, 1\n"
    "    slli a4, a4, 23\n"
    "    slli a2, a2, 31\n"
    "    add a10, a10, a4\n"
    "    add a2, a2, a10\n"
    "    ret\n"
    "9:  j q7sf_div32_slow\n"
    "    .size __divsf3, . - __divsf3\n");
#endif
