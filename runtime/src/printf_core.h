/* A small printf formatter for the device, where picolibc's vfprintf
 * cannot be linked into a position-independent image (its jump tables
 * need text relocations). Plain C, no libc formatting, so it is unit-tested
 * on the host against the host's printf.
 *
 * Conversions: d i u o x X c s p f F e E g G a(as e) % and n (ignored);
 * flags - + space # 0; width and precision (also *); lengths hh h l ll z j
 * t L. Floats are formatted from double by repeated scaling: correct to
 * about 15 significant digits, not correctly rounded in the last one. */
#ifndef Q7_RT_PRINTF_CORE_H
#define Q7_RT_PRINTF_CORE_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*q7fmt_put)(void *ctx, char c);
/* Formats to put; returns the number of characters produced. */
int q7fmt(q7fmt_put put, void *ctx, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif

#endif
