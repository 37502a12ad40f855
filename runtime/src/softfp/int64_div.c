/* int64_div.c: 64-bit division (__divdi3, __moddi3, __udivdi3, __umoddi3).
 * __moddi3 is in the lx106 libgcc, but that one needs __udivsi3 and
 * __umulsidi3, which come from this archive earlier on the link line;
 * defining it here keeps the link order-independent. */
#include "sf_div.h"

static uint64_t abs64(int64_t v)
{
    return v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
}

int64_t Q7SF(divdi3)(int64_t a, int64_t b)
{
    uint64_t r, q;
    sf_check_divisor(b == 0);
    q = sf_udivmod64(abs64(a), abs64(b), &r);
    return (int64_t)((a ^ b) < 0 ? 0u - q : q);
}

int64_t Q7SF(moddi3)(int64_t a, int64_t b)
{
    uint64_t r;
    sf_check_divisor(b == 0);
    sf_udivmod64(abs64(a), abs64(b), &r);
    /* The remainder takes the dividend's sign (C's truncating division). */
    return (int64_t)(a < 0 ? 0u - r : r);
}

SF_UDIV_UMOD(uint64_t, Q7SF(udivdi3), Q7SF(umoddi3), sf_udivmod64)
