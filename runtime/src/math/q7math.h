/* q7math.h: the math behind the tensor operations, one implementation
 * built for the host and for the Xtensa target, so that an op gives the
 * same bits on both: docs/runtime.md, "The same bits on the host and the
 * device", and its "Accuracy".
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
