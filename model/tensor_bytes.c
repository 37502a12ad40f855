/* Tensor byte counts (tensor_bytes.h). */
#include "tensor_bytes.h"

bool q7_tensor_bytes(const struct q7_tensor_desc *t, uint64_t *numel, uint64_t *extent)
{
	size_t es = q7_dtype_size(t->dtype);
	if (es == 0 || t->ndim > Q7_MAX_DIMS)
		return false;
	uint64_t n = 1, last = 0;
	for (unsigned d = 0; d < t->ndim; d++) {
		if (t->strides[d] < 0 || __builtin_mul_overflow(n, (uint64_t)t->sizes[d], &n))
			return false;
		uint64_t step;
		if (t->sizes[d] &&
		    (__builtin_mul_overflow((uint64_t)(t->sizes[d] - 1), (uint64_t)t->strides[d], &step) ||
		     __builtin_add_overflow(last, step, &last)))
			return false;
	}
	uint64_t bytes = 0, all;
	if (n && (__builtin_add_overflow(last, 1, &last) || __builtin_mul_overflow(last, es, &bytes) ||
	          __builtin_mul_overflow(n, es, &all)))
		return false;
	*numel = n;
	*extent = bytes;
	return true;
}

size_t q7_tensor_span(const struct q7_tensor_desc *t)
{
	uint64_t n, extent;
	if (!q7_tensor_bytes(t, &n, &extent) || extent > SIZE_MAX)
		return 0;
	return (size_t)extent;
}
