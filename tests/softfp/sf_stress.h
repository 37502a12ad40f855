/* sf_stress.h: many binary32 additions, subtractions, multiplications and
 * divisions of a fixed operand sequence, folded into one checksum per
 * operation, for the helpers' fast paths in Xtensa assembly. Freestanding
 * like sf_table.h: built for the host it runs the host's arithmetic (the
 * reference), built for the lx106 the helpers of libq7softfp.a; the
 * emulated run (emu/emu_check.sh ... stress) must print the host's checksums. */
#ifndef Q7_SF_STRESS_H
#define Q7_SF_STRESS_H

#include <stdint.h>

enum { Q7SF_STRESS_OPS = 4 }; /* add, sub, mul, div */

struct q7sf_f32_ops {
    float (*op[Q7SF_STRESS_OPS])(float, float);
};

/* The operations as plain C operators (sf_stress.c). */
extern const struct q7sf_f32_ops q7sf_f32_c_ops;

/* The n-th operand pair of the sequence: every pair of edge values
 * first, then pseudo-random pairs of six kinds in turn (random bits,
 * exponents near one, near neighbours, exponents far apart, the ends of
 * the range, an edge value against a random one). */
void q7sf_stress_pair(unsigned i, uint32_t *a, uint32_t *b);

/* How many pairs there are before the random ones. */
unsigned q7sf_stress_edges(void);

/* The checksum of each operation over pairs 0..n-1 into sums[]; NaN
 * results count as one value (payloads are the host tests' concern). */
void q7sf_stress_run(const struct q7sf_f32_ops *ops, unsigned n,
                     uint32_t sums[Q7SF_STRESS_OPS]);

#endif
