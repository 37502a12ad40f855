/* int64_mul.c: 64-bit products (__muldi3, __umulsidi3). */
#include "sf_impl.h"

/* The low 64 bits of the product; the cross terms only reach the high
 * word, so their 32-bit products (MUL32 on the lx106) suffice. */
int64_t Q7SF(muldi3)(int64_t sa, int64_t sb)
{
    uint64_t a = (uint64_t)sa, b = (uint64_t)sb;
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t cross = a0 * b1 + a1 * b0;
    return (int64_t)(sf_mul32x32(a0, b0) + ((uint64_t)cross << 32));
}

uint64_t Q7SF(umulsidi3)(uint32_t a, uint32_t b)
{
    return sf_mul32x32(a, b);
}
