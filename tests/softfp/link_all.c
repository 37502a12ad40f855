/* link_all.c: device code using every float, double and 64-bit operation
 * a kernel can write, for the link test (link_check.sh): linked with
 * -Wl,--no-undefined, it proves libq7softfp.a plus the lx106 libgcc leave
 * nothing missing, also for picolibc's libm, whose functions call the same
 * helpers. Volatile operands keep every operation a real call. */
#include <math.h>
#include <stdint.h>

#define V volatile
V float f1, f2;
V double d1, d2;
V int32_t i1, i2;
V uint32_t u1, u2;
V int64_t l1, l2;
V uint64_t q1, q2;
V int r;

void q7sf_use_everything(void);
void q7sf_use_libm(void);

void q7sf_use_everything(void)
{
    f1 = f1 + f2; f1 = f1 - f2; f1 = f1 * f2; f1 = f1 / f2; f1 = -f1;
    d1 = d1 + d2; d1 = d1 - d2; d1 = d1 * d2; d1 = d1 / d2; d1 = -d1;
    r = f1 == f2; r = f1 != f2; r = f1 < f2; r = f1 <= f2; r = f1 > f2; r = f1 >= f2;
    r = __builtin_isunordered(f1, f2);
    r = d1 == d2; r = d1 != d2; r = d1 < d2; r = d1 <= d2; r = d1 > d2; r = d1 >= d2;
    r = __builtin_isunordered(d1, d2);
    f1 = (float)i1; f1 = (float)u1; f1 = (float)l1; f1 = (float)q1;
    d1 = (double)i1; d1 = (double)u1; d1 = (double)l1; d1 = (double)q1;
    i1 = (int32_t)f1; u1 = (uint32_t)f1; l1 = (int64_t)f1; q1 = (uint64_t)f1;
    i1 = (int32_t)d1; u1 = (uint32_t)d1; l1 = (int64_t)d1; q1 = (uint64_t)d1;
    d1 = (double)f1; f1 = (float)d1;
    i1 = i1 / i2; i1 = i1 % i2; u1 = u1 / u2; u1 = u1 % u2; i1 = i1 * i2;
    l1 = l1 / l2; l1 = l1 % l2; q1 = q1 / q2; q1 = q1 % q2; l1 = l1 * l2;
    q1 = (uint64_t)u1 * u2; l1 = (int64_t)i1 * i2;
    l1 = l1 << i1; l1 = l1 >> i1; q1 = q1 >> i1;
}

void q7sf_use_libm(void)
{
    f1 = expf(f1) + sinf(f1) + sqrtf(f1) + powf(f1, f2) + logf(f2) + tanhf(f2);
    d1 = exp(d1) + log(d1) + pow(d1, d2) + fmod(d1, d2) + sqrt(d2) + atan2(d1, d2);
}
