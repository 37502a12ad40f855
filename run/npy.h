/* The NPY format (NumPy's .npy, versions 1.0, 2.0 and 3.0): reading a
 * tensor from a file and writing one, as q7-run's arguments and output.
 *
 * Reading checks everything it relies on (magic, version, header text,
 * dtype, shape against q7's limits, data length) and converts to the
 * runtime's form: little-endian, C order. Memory: npy_array.data is
 * malloc'd and owned by the array; npy_free releases it. */
#ifndef Q7_RUN_NPY_H
#define Q7_RUN_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "q7/frame.h"
#include "support.h"
#include "tensor_bytes.h"

struct npy_array {
	enum q7_dtype dtype;
	unsigned ndim;
	uint32_t sizes[Q7_MAX_DIMS];
	size_t numel;
	void *data; /* numel * q7_dtype_size(dtype) bytes */
};

/* 0, or -1 with "<path>: <why>" in err. */
int npy_read(const char *path, struct npy_array *a, struct q7_err *err);
/* Writes a .npy v1.0 whole-or-nothing. bfloat16 is written as float32
 * (NumPy has no bfloat16). 0, or -1 with "<path>: <why>" in err. */
int npy_write(const char *path, enum q7_dtype dtype, unsigned ndim, const uint32_t *sizes,
              const void *data, struct q7_err *err);
void npy_free(struct npy_array *a);

/* "float32", "bf16", "int", ... -> dtype; -1 when unknown. */
int q7_dtype_from_name(const char *name);
const char *q7_dtype_to_name(enum q7_dtype t);

#endif
