/* sf_table.h: a freestanding table test of the soft-float helpers, for the
 * host and for the emulated Xtensa core alike. It runs a fixed table of
 * operands (edges and a fixed pseudo-random sequence) through a set of
 * operations and folds the results into a checksum; NaN results count as
 * one value, so only the host tests depend on NaN payloads.
 *
 * On the target, sf_table_ops.c compiled with xtensa-lx106-elf-gcc gives
 * operations written as plain C operators, which the compiler turns into
 * calls to the helpers of libq7softfp.a; q7sf_table_run(N) there must return
 * the value `check_softfp checksum N` prints on the host (tests/softfp/emu
 * does exactly that on qemu-system-xtensa -cpu lx106). */
#ifndef Q7_SF_TABLE_H
#define Q7_SF_TABLE_H

#include <stdint.h>

struct q7sf_ops {
    float (*addsf3)(float, float);
    float (*subsf3)(float, float);
    float (*mulsf3)(float, float);
    double (*adddf3)(double, double);
    double (*subdf3)(double, double);
    double (*muldf3)(double, double);
    double (*divdf3)(double, double);
    float (*floatsisf)(int32_t);
    float (*floatunsisf)(uint32_t);
    uint32_t (*fixunssfsi)(float);
    double (*floatsidf)(int32_t);
    double (*floatunsidf)(uint32_t);
    int32_t (*fixdfsi)(double);
    uint32_t (*fixunsdfsi)(double);
    double (*extendsfdf2)(float);
    float (*truncdfsf2)(double);
    int32_t (*divsi3)(int32_t, int32_t);
    uint32_t (*udivsi3)(uint32_t, uint32_t);
    uint32_t (*umodsi3)(uint32_t, uint32_t);
    int64_t (*divdi3)(int64_t, int64_t);
    int64_t (*moddi3)(int64_t, int64_t);
    uint64_t (*udivdi3)(uint64_t, uint64_t);
    uint64_t (*umoddi3)(uint64_t, uint64_t);
    int64_t (*muldi3)(int64_t, int64_t);
    uint64_t (*umulsidi3)(uint32_t, uint32_t);
};

/* Which cases: those C defines (any correct compiler and library agree),
 * or those that only the documented policy of softfp.h decides (out of
 * range conversions, INT_MIN / -1). Division by zero is never run. */
enum q7sf_cases { Q7SF_DEFINED, Q7SF_POLICY };

/* nrandom: how many pseudo-random operands (or pairs) per group, after the
 * edge cases; the sequence is fixed, so a count names a table. */
uint32_t q7sf_table_checksum(const struct q7sf_ops *ops, enum q7sf_cases which,
                             unsigned nrandom);

/* Operations as plain C operators (sf_table_ops.c). */
extern const struct q7sf_ops q7sf_c_ops;

/* The two checksums folded into the one value a run reports. */
uint32_t q7sf_table_fold(uint32_t defined, uint32_t policy);

/* Both checksums of q7sf_c_ops, folded. */
uint32_t q7sf_table_run(unsigned nrandom);

#endif
