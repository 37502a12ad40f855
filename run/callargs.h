/* run/callargs: q7-run's words for a call's arguments (a literal, a
 * shape, a tensor over an .npy file's data), for q7-run and for tools that
 * take calls the same way (tests/emulated/emu_calls). */
#ifndef Q7_RUN_CALLARGS_H
#define Q7_RUN_CALLARGS_H

#include <stdbool.h>

#include "q7/frame.h"

struct npy_array;
struct q7_err;

/* A literal: true/false, an integer of 64 bits (3, -2, 0x10), a float
 * (0.5, 1e-3, inf). Fills *a and returns true, or false. */
bool q7_run_parse_literal(const char *s, struct q7_arg *a);
/* A shape, "2,3", "2x3", "(2, 3)" or "" (0 dims), into d's ndim and
 * sizes; 0, or -1 with a message naming --out-shape=s in err. */
int q7_run_parse_shape(const char *s, struct q7_tensor_desc *d, struct q7_err *err);
/* d's strides for its sizes, contiguous. */
void q7_run_set_contiguous(struct q7_tensor_desc *d);
/* A tensor argument over a .npy file's data (borrowed). */
void q7_run_tensor_arg(struct q7_arg *a, const struct npy_array *t);

#endif
