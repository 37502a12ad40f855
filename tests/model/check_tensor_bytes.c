/* model/tensor_bytes: the one count of a tensor's bytes, which every
 * target of the run engine takes: contiguous and strided tensors, no
 * element, and what a frame a kernel rewrote may say (an unknown dtype,
 * a rank past the limit, a negative stride, counts past 64 bits). */
#include "tensor_bytes.h"

#include "../analysis/run_suite.h"

#include <check.h>

static struct q7_tensor_desc desc(uint32_t dtype, uint32_t ndim, const uint32_t *sizes,
                                  const int32_t *strides)
{
	struct q7_tensor_desc t = {.dtype = dtype, .ndim = ndim};
	for (uint32_t d = 0; d < ndim && d < Q7_MAX_DIMS; d++) {
		t.sizes[d] = sizes[d];
		t.strides[d] = strides[d];
	}
	return t;
}

START_TEST(dtype_sizes)
{
	ck_assert_uint_eq(q7_dtype_size(Q7_DTYPE_UINT8), 1);
	ck_assert_uint_eq(q7_dtype_size(Q7_DTYPE_BOOL), 1);
	ck_assert_uint_eq(q7_dtype_size(Q7_DTYPE_BFLOAT16), 2);
	ck_assert_uint_eq(q7_dtype_size(Q7_DTYPE_FLOAT32), 4);
	ck_assert_uint_eq(q7_dtype_size(Q7_DTYPE_INT64), 8);
	ck_assert_uint_eq(q7_dtype_size(9), 0);
	ck_assert_uint_eq(q7_dtype_size(0xffffffffu), 0);
}
END_TEST

START_TEST(counts)
{
	uint64_t n = 7, extent = 7;
	struct q7_tensor_desc t = desc(Q7_DTYPE_FLOAT32, 2, (uint32_t[]){3, 4}, (int32_t[]){4, 1});
	ck_assert(q7_tensor_bytes(&t, &n, &extent));
	ck_assert_uint_eq(n, 12);
	ck_assert_uint_eq(extent, 48);
	ck_assert_uint_eq(q7_tensor_span(&t), 48);
	/* a column of a 3x4 matrix: 3 elements spanning 9 */
	t = desc(Q7_DTYPE_FLOAT32, 1, (uint32_t[]){3}, (int32_t[]){4});
	ck_assert(q7_tensor_bytes(&t, &n, &extent));
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(extent, 36);
	/* no element, and a scalar */
	t = desc(Q7_DTYPE_INT64, 2, (uint32_t[]){0, 5}, (int32_t[]){5, 1});
	ck_assert(q7_tensor_bytes(&t, &n, &extent));
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(extent, 0);
	t = desc(Q7_DTYPE_INT64, 0, NULL, NULL);
	ck_assert(q7_tensor_bytes(&t, &n, &extent));
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(extent, 8);
}
END_TEST

START_TEST(refused)
{
	uint64_t n, extent;
	uint32_t big[Q7_MAX_DIMS];
	int32_t one[Q7_MAX_DIMS];
	for (unsigned d = 0; d < Q7_MAX_DIMS; d++) {
		big[d] = 0xffffffffu;
		one[d] = 1;
	}
	/* 4 dims of 2^32 - 1 elements: past 64 bits, which a product that
	 * wraps would not see */
	struct q7_tensor_desc t = desc(Q7_DTYPE_FLOAT64, 4, big, one);
	ck_assert(!q7_tensor_bytes(&t, &n, &extent));
	ck_assert_uint_eq(q7_tensor_span(&t), 0);
	/* 2^31 x 2^31 elements of 8 bytes: the count fits, the bytes do not */
	t = desc(Q7_DTYPE_FLOAT64, 2, (uint32_t[]){0x80000000u, 0x80000000u}, (int32_t[]){0, 0});
	ck_assert(!q7_tensor_bytes(&t, &n, &extent));
	t = desc(Q7_DTYPE_FLOAT32, 1, (uint32_t[]){2}, (int32_t[]){-1});
	ck_assert(!q7_tensor_bytes(&t, &n, &extent));
	t = desc(9, 1, (uint32_t[]){2}, (int32_t[]){1});
	ck_assert(!q7_tensor_bytes(&t, &n, &extent));
	t = desc(Q7_DTYPE_FLOAT32, 1, (uint32_t[]){2}, (int32_t[]){1});
	t.ndim = Q7_MAX_DIMS + 1;
	ck_assert(!q7_tensor_bytes(&t, &n, &extent));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tensor_bytes");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, dtype_sizes);
	tcase_add_test(tc, counts);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
