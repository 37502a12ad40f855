/* model/tensor_bytes: how many bytes a tensor descriptor spans, the one
 * count that the run engine's targets (host, isolated host, emulated),
 * the .npy reader and writer and the bridge share, checked against
 * overflow (a frame a kernel rewrote may say anything). */
#ifndef Q7_TENSOR_BYTES_H
#define Q7_TENSOR_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "q7/frame.h"

/* q7_dtype_size(dtype), the bytes of one element, is <q7/frame.h>'s. */
/* The elements of t and the bytes its strides span from element 0
 * ((largest offset + 1) x the element's size; 0 for no element). false
 * for a dtype or rank that is none, a negative stride, or counts past
 * 64 bits. */
bool q7_tensor_bytes(const struct q7_tensor_desc *t, uint64_t *numel, uint64_t *extent);
/* The bytes t spans (q7_tensor_bytes' extent; contiguous, as calls give
 * tensors, that is its elements' bytes): 0 when none, or when
 * q7_tensor_bytes refuses t or the count is past size_t. */
size_t q7_tensor_span(const struct q7_tensor_desc *t);

#endif
