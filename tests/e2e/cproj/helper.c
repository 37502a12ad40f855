/* A C helper that only a C compiler takes: C++ has no `restrict`, and a
 * C++ compiler (g++ or clang++ given a .c file) stops at the #error. */
#include "helper.h"

#if defined(__cplusplus) || !defined(__STDC_VERSION__)
#error "helper.c must be compiled as C"
#endif

float helper_affine(const float *restrict x, int i)
{
	struct affine { float scale, shift; } a = {.shift = 1.0f, .scale = 2.5f};
	return x[i] * a.scale + a.shift;
}
