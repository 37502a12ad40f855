/* softfp.h: the arithmetic helpers that the lx106 libgcc lacks (the ESP8266
 * keeps them in mask ROM), written in portable C11 for the Xtensa target.
 *
 * Built twice: for the target, where each function has its libgcc name
 * (__addsf3, ...) and hidden visibility like libgcc's own helpers; and for
 * the host with Q7SF_HOST defined, where the names carry a q7_ prefix
 * (q7_addsf3, ...) so tests can call them next to the host's libgcc.
 *
 * Behaviour (IEEE-754 binary32/binary64, round to nearest, ties to even;
 * subnormals in and out, never flushed; no exception flags):
 *  - NaN results follow the x86-64 SSE rule, so the host is an exact oracle:
 *    if the first operand is a NaN it is returned, else the second one; the
 *    returned NaN is quieted (quiet bit set, sign and payload kept). An
 *    invalid operation (inf-inf, 0*inf, 0/0, inf/inf) gives the default NaN
 *    with the sign bit set (0xffc00000, 0xfff8000000000000). IEEE-754 leaves
 *    NaN signs and payloads open, and the Xtensa libgcc assembly chooses
 *    otherwise (for inf-inf it returns the first operand, quieted).
 *  - double->float keeps the sign and the top payload bits of a NaN and sets
 *    the quiet bit; float->double keeps sign and payload and sets it too.
 *  - float/double -> integer truncates toward zero. Out of range, the result
 *    is that of the Xtensa libgcc assembly (ieee754-sf.S/-df.S, as in
 *    __fixsfsi and __fixunssfdi of this libgcc):
 *      signed:   NaN -> INT32_MAX; |x| >= 2^31 -> INT32_MAX or INT32_MIN
 *                by sign (-2^31 itself is exact).
 *      unsigned: NaN -> 0xffffffff; x >= 2^32 or +inf -> 0xffffffff;
 *                x <= -2^31 or -inf -> 0x80000000; -2^31 < x <= -1 ->
 *                the negated truncation modulo 2^32 (as via int64_t).
 *  - Integer division by zero traps (__builtin_trap: `break 1, 15` on
 *    Xtensa, where libgcc uses `ill`; SIGILL on the host) in every divide
 *    and modulo helper. INT_MIN / -1 wraps to INT_MIN, remainder 0 (the
 *    host traps there; the target does not).
 *
 * The helpers never call a helper that the lx106 libgcc lacks: no float
 * arithmetic, no 64-bit multiply or divide, no 32-bit divide inside; wide
 * products come from 16x16-bit pieces. unit.softfp_link checks with nm
 * that the archive references no symbol at all. */
#ifndef Q7_SOFTFP_H
#define Q7_SOFTFP_H

#include <stdint.h>

#ifdef Q7SF_HOST
#define Q7SF(name) q7_##name
#define Q7SF_API
#else
#define Q7SF(name) __##name
#define Q7SF_API __attribute__((visibility("hidden")))
#endif

/* binary32 */
Q7SF_API float Q7SF(addsf3)(float a, float b);
Q7SF_API float Q7SF(subsf3)(float a, float b);
Q7SF_API float Q7SF(mulsf3)(float a, float b);
Q7SF_API float Q7SF(divsf3)(float a, float b);
Q7SF_API float Q7SF(floatsisf)(int32_t i);
Q7SF_API float Q7SF(floatunsisf)(uint32_t u);
Q7SF_API uint32_t Q7SF(fixunssfsi)(float a);

/* binary64 */
Q7SF_API double Q7SF(adddf3)(double a, double b);
Q7SF_API double Q7SF(subdf3)(double a, double b);
Q7SF_API double Q7SF(muldf3)(double a, double b);
Q7SF_API double Q7SF(divdf3)(double a, double b);
Q7SF_API double Q7SF(floatsidf)(int32_t i);
Q7SF_API double Q7SF(floatunsidf)(uint32_t u);
Q7SF_API int32_t Q7SF(fixdfsi)(double a);
Q7SF_API uint32_t Q7SF(fixunsdfsi)(double a);

/* between the two */
Q7SF_API double Q7SF(extendsfdf2)(float a);
Q7SF_API float Q7SF(truncdfsf2)(double a);

/* integers */
Q7SF_API int32_t Q7SF(divsi3)(int32_t a, int32_t b);
Q7SF_API uint32_t Q7SF(udivsi3)(uint32_t a, uint32_t b);
Q7SF_API uint32_t Q7SF(umodsi3)(uint32_t a, uint32_t b);
Q7SF_API int64_t Q7SF(divdi3)(int64_t a, int64_t b);
Q7SF_API int64_t Q7SF(moddi3)(int64_t a, int64_t b);
Q7SF_API uint64_t Q7SF(udivdi3)(uint64_t a, uint64_t b);
Q7SF_API uint64_t Q7SF(umoddi3)(uint64_t a, uint64_t b);
Q7SF_API int64_t Q7SF(muldi3)(int64_t a, int64_t b);
Q7SF_API uint64_t Q7SF(umulsidi3)(uint32_t a, uint32_t b);

#endif
