/* fpbits.h: an IEEE-754 value's bits and back, for the two parts of the
 * runtime that take floating-point numbers apart: the soft-float helpers
 * (softfp/) and the math library (math/). Through a union, which C and
 * GCC's C++ both define. */
#ifndef Q7_FPBITS_H
#define Q7_FPBITS_H

#include <stdint.h>

typedef union { float f; uint32_t u; } fp_cast32;
typedef union { double f; uint64_t u; } fp_cast64;

static inline uint32_t fp_bits32(float f) { fp_cast32 c; c.f = f; return c.u; }
static inline float fp_float32(uint32_t u) { fp_cast32 c; c.u = u; return c.f; }
static inline uint64_t fp_bits64(double f) { fp_cast64 c; c.f = f; return c.u; }
static inline double fp_float64(uint64_t u) { fp_cast64 c; c.u = u; return c.f; }

#endif
