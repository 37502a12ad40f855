/* sf_div.h: the shift-and-subtract integer division the divide helpers
 * share. The lx106 has no divide instruction, and a '/' here would call the
 * very helpers being defined. */
#ifndef Q7_SF_DIV_H
#define Q7_SF_DIV_H

#include "sf_impl.h"

/* Division by zero traps, as libgcc's divide helpers do (see softfp.h). */
static inline void sf_check_divisor(int zero)
{
    if (zero)
        __builtin_trap();
}

/* n / d with the remainder in *rem; d != 0. Only as many steps as the
 * quotient has bits; a 64-bit n below 2^32 takes the 32-bit division. */
#define SF_UDIVMOD(N, T) \
static inline T sf_udivmod##N(T n, T d, T *rem) \
{ \
    T q = 0; \
    int steps; \
 \
    if (n < d) { \
        *rem = n; \
        return 0; \
    } \
    if (N == 64 && (n >> 16 >> 16) == 0) { \
        uint32_t r32, q32 = sf_udivmod32((uint32_t)n, (uint32_t)d, &r32); \
        *rem = r32; \
        return q32; \
    } \
    steps = sf_clz##N(d) - sf_clz##N(n); \
    d = sf_shl##N(d, (uint32_t)steps); \
    for (;;) { \
        q <<= 1; \
        if (n >= d) { \
            n -= d; \
            q |= 1; \
        } \
        if (steps-- == 0) \
            break; \
        d >>= 1; \
    } \
    *rem = n; \
    return q; \
}
SF_UDIVMOD(32, uint32_t)
SF_UDIVMOD(64, uint64_t)
#undef SF_UDIVMOD

/* A width's unsigned quotient and remainder helpers. */
#define SF_UDIV_UMOD(T, DIV, MOD, DIVMOD) \
T DIV(T a, T b) \
{ \
    T r; \
    sf_check_divisor(b == 0); \
    return DIVMOD(a, b, &r); \
} \
 \
T MOD(T a, T b) \
{ \
    T r; \
    sf_check_divisor(b == 0); \
    DIVMOD(a, b, &r); \
    return r; \
}

#endif
