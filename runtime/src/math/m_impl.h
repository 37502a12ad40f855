/* m_impl.h: what the q7math functions share: the constants (bit casts: ../fpbits.h), and
 * the binary64 cores e^z and ln(x) (exp_log.c), which powf uses too. */
#ifndef Q7_M_IMPL_H
#define Q7_M_IMPL_H

#include "q7math.h"
#include "../fpbits.h"

#define M32_SIGN 0x80000000u
#define M32_INF 0x7f800000u
#define M32_QUIET 0x00400000u
#define M32_NAN 0x7fc00000u /* the NaN of an invalid operation */

static inline int m_isnan32(uint32_t u) { return (u & ~M32_SIGN) > M32_INF; }

/* 2^k as a binary64, for -1022 <= k <= 1023. */
static inline double m_pow2(int k) { return fp_float64((uint64_t)(k + 1023) << 52); }

/* e^z in binary64, relative error about 2^-52, for -745 < z < 709. */
Q7M_API double q7m_exp_core(double z);
/* ln(x) in binary64 for a positive, finite, nonzero x, split as
 * e * ln 2 + ln(f) with f in [sqrt(1/2), sqrt(2)): *e and the return ln(f). */
Q7M_API double q7m_log_split(double x, int *e);

/* ln 2 in two parts: HI has 32 significant bits, so k * HI is exact for
 * |k| < 2^21. */
#define M_LN2_HI 0x1.62e42fee00000p-1
#define M_LN2_LO 0x1.a39ef35793c76p-33
#define M_LN2 0x1.62e42fefa39efp-1
#define M_INV_LN2 0x1.71547652b82fep+0
#define M_INV_LN10 0x1.bcb7b1526e50ep-2
#define M_LOG10_2 0x1.34413509f79ffp-2
#define M_PIO2 0x1.921fb54442d18p+0

#endif
