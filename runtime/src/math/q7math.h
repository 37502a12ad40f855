/* q7math.h: the math behind the tensor operations, one implementation
 * built for the host and for the Xtensa target, so that an op gives the
 * same bits on both (the C libraries' own expf, logf, ... differ by an ulp
 * between glibc and picolibc).
 *
 * How the same bits come out: every function works in binary64 with the
 * four basic operations only (no FMA contraction, no libm call), and ends
 * with one rounding to binary32. The host's SSE arithmetic and the lx106's
 * soft-float helpers (runtime/src/softfp, checked bit for bit against SSE)
 * are both IEEE-754 round-to-nearest-even, so the two targets agree.
 *
 * Accuracy (binary32 results, every finite input): at most 1 ulp from the
 * exact result; the binary64 work carries about 2^-50 relative error, so
 * results are the correctly rounded ones except where the exact value lies
 * within about 2^-26 ulp of a midpoint between two floats.
 * tests/runtime/check_math.c measures it against glibc's binary64
 * functions (unit.runtime.math).
 *
 * Special values follow C99 Annex F: NaN in gives a quiet NaN out (the
 * input's, quieted); an invalid operation (log of a negative number, sin
 * of an infinity, a negative base to a non-integer power) gives the quiet
 * NaN 0x7fc00000; overflow gives infinity, underflow rounds into the
 * subnormals and to zero. ceil/floor/fabs are exact bit operations.
 *
 * Hidden C symbols: each is linked into the kernel library that uses it. */
#ifndef Q7_MATH_H
#define Q7_MATH_H

#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define Q7M_API __attribute__((visibility("hidden")))

Q7M_API float q7m_expf(float x);
Q7M_API float q7m_logf(float x);
Q7M_API float q7m_log2f(float x);
Q7M_API float q7m_log10f(float x);
Q7M_API float q7m_sinf(float x);
Q7M_API float q7m_cosf(float x);
Q7M_API float q7m_tanf(float x);
/* C99's pow: pow(x, ±0) = 1 and pow(1, y) = 1 even for NaN; a negative
 * base needs an integer exponent (its parity sets the sign). */
Q7M_API float q7m_powf(float x, float y);
Q7M_API float q7m_ceilf(float x);
Q7M_API float q7m_floorf(float x);
Q7M_API double q7m_ceil(double x);
Q7M_API double q7m_floor(double x);

#if defined(__cplusplus)
}
#endif

#endif
