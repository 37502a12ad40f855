/* int32_div.c: 32-bit division (__divsi3, __udivsi3, __umodsi3). */
#include "sf_div.h"

int32_t Q7SF(divsi3)(int32_t a, int32_t b)
{
    uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    uint32_t ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
    uint32_t r, q;

    sf_check_divisor(b == 0);
    q = sf_udivmod32(ua, ub, &r);
    /* INT32_MIN / -1 comes out as 2^31 and wraps back to INT32_MIN. */
    return (int32_t)((a ^ b) < 0 ? 0u - q : q);
}

uint32_t Q7SF(udivsi3)(uint32_t a, uint32_t b)
{
    uint32_t r;
    sf_check_divisor(b == 0);
    return sf_udivmod32(a, b, &r);
}

uint32_t Q7SF(umodsi3)(uint32_t a, uint32_t b)
{
    uint32_t r;
    sf_check_divisor(b == 0);
    sf_udivmod32(a, b, &r);
    return r;
}
