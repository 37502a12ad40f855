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
 * quotient has bits. */
static inline uint32_t sf_udivmod32(uint32_t n, uint32_t d, uint32_t *rem)
{
    uint32_t q = 0;
    int steps;

    if (n < d) {
        *rem = n;
        return 0;
    }
    steps = sf_clz32(d) - sf_clz32(n);
    d <<= steps;
    for (;;) {
        q <<= 1;
        if (n >= d) {
            n -= d;
            q |= 1;
        }
        if (steps-- == 0)
            break;
        d >>= 1;
    }
    *rem = n;
    return q;
}

static inline uint64_t sf_udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0;
    int steps;

    if (n < d) {
        *rem = n;
        return 0;
    }
    if ((n >> 32) == 0) {
        uint32_t r32, q32 = sf_udivmod32((uint32_t)n, (uint32_t)d, &r32);
        *rem = r32;
        return q32;
    }
    steps = sf_clz64(d) - sf_clz64(n);
    d = sf_shl64(d, (uint32_t)steps);
    for (;;) {
        q <<= 1;
        if (n >= d) {
            n -= d;
            q |= 1;
        }
        if (steps-- == 0)
            break;
        d >>= 1;
    }
    *rem = n;
    return q;
}

#endif
