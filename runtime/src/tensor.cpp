/* Tensors in the heap arena: creation, dtypes, fill_ and eye, the
 * destination tensor, tcm copies. */
#include <string.h>

#include "elem.h"
#include "rt.h"

/* <q7/frame.h>'s table, for kernels (<q7/runtime.h>). */
extern "C" size_t q7rt_dtype_size(int dtype) { return q7_dtype_size((uint32_t)dtype); }

extern "C" const char *q7rt_dtype_name(int dtype)
{
	/* by enum q7_dtype, torch's ScalarType numbers */
	static const char *const names[] = {"uint8",   "int8",    "int16",   "int32",
	                                    "int64",   "float16", "float32", "float64",
	                                    nullptr,   nullptr,   nullptr,   "bool",
	                                    nullptr,   nullptr,   nullptr,   "bfloat16"};
	if (dtype < 0 || dtype >= (int)(sizeof names / sizeof names[0]) || !names[dtype])
		return "unknown dtype";
	return names[dtype];
}

int64_t q7rt_numel(const q7rt_tensor *t)
{
	int64_t n = 1;
	for (int32_t i = 0; i < t->ndim; i++)
		n *= t->sizes[i];
	return n;
}

bool q7rt_contiguous(const q7rt_tensor *t)
{
	int64_t expect = 1;
	for (int32_t i = t->ndim - 1; i >= 0; i--) {
		if (t->sizes[i] != 1 && t->strides[i] != expect)
			return false;
		expect *= t->sizes[i];
	}
	return true;
}

static void set_contiguous_strides(q7rt_tensor *t)
{
	int64_t s = 1;
	for (int32_t i = t->ndim - 1; i >= 0; i--) {
		t->strides[i] = s;
		s *= t->sizes[i];
	}
}

q7rt_tensor *q7rt_wrap(const q7_tensor_desc *d)
{
	q7rt_tensor *t = static_cast<q7rt_tensor *>(q7rt_alloc(sizeof *t, 16, "a tensor"));
	memset(t, 0, sizeof *t);
	t->dtype = (int32_t)d->dtype;
	t->ndim = (int32_t)d->ndim;
	bool any_stride = false;
	for (int32_t i = 0; i < t->ndim; i++) {
		t->sizes[i] = d->sizes[i];
		t->strides[i] = d->strides[i];
		any_stride = any_stride || d->strides[i] != 0;
	}
	if (!any_stride)
		set_contiguous_strides(t);
	t->data = reinterpret_cast<void *>((uintptr_t)d->data);
	return t;
}

extern "C" q7rt_tensor *q7rt_tensor_new(const int64_t *sizes, size_t ndim, int dtype, int fill)
{
	size_t esize = q7rt_dtype_size(dtype);
	if (esize == 0)
		q7rt_fail("cannot make a tensor of dtype %d", dtype);
	if (ndim > Q7_MAX_DIMS)
		q7rt_fail("cannot make a tensor of %u dims (at most %d)", (unsigned)ndim, Q7_MAX_DIMS);
	uint64_t n = 1;
	for (size_t i = 0; i < ndim; i++) {
		if (sizes[i] < 0 || (uint64_t)sizes[i] > Q7_MAX_DIM_SIZE)
			q7rt_fail("cannot make a tensor with size %lld in dim %u (at most %u)",
			          (long long)sizes[i], (unsigned)i, Q7_MAX_DIM_SIZE);
		n *= (uint64_t)sizes[i];
		if (n > 0xffffffffu)
			q7rt_fail_status(Q7_STATUS_NO_MEMORY, "a tensor of more than 2^32 elements");
	}
	if (n * esize > 0xffff0000u)
		q7rt_fail_status(Q7_STATUS_NO_MEMORY, "a tensor of %llu bytes",
		                 (unsigned long long)(n * esize));
	q7rt_tensor *t = static_cast<q7rt_tensor *>(q7rt_alloc(sizeof *t, 16, "a tensor"));
	memset(t, 0, sizeof *t);
	t->dtype = dtype;
	t->ndim = (int32_t)ndim;
	for (size_t i = 0; i < ndim; i++)
		t->sizes[i] = sizes[i];
	set_contiguous_strides(t);
	t->data = q7rt_alloc((size_t)(n * esize), 64, "tensor data");
	if (fill == 0)
		memset(t->data, 0, (size_t)(n * esize));
	else if (fill == 1)
		for (size_t k = 0; k < (size_t)n; k++)
			q7elem::store_i64(static_cast<char *>(t->data) + k * esize, dtype, 1);
	return t;
}

extern "C" q7rt_tensor *q7rt_dst_tensor(void)
{
	if (q7rt.dst)
		return q7rt.dst;
	q7_frame *f = q7rt.frame;
	if (f->dst.data != 0) {
		q7rt.dst = q7rt_wrap(&f->dst);
		return q7rt.dst;
	}
	/* No destination given (one core): make one shaped like the first
	 * tensor argument, as q7-run's default for --cores does. */
	for (uint32_t i = 0; i < f->nargs; i++) {
		if (f->args[i].kind != Q7_ARG_TENSOR)
			continue;
		const q7_tensor_desc *d = &f->args[i].u.tensor;
		int64_t sizes[Q7_MAX_DIMS];
		for (uint32_t k = 0; k < d->ndim && k < Q7_MAX_DIMS; k++)
			sizes[k] = d->sizes[k];
		q7rt.dst = q7rt_tensor_new(sizes, d->ndim, (int)d->dtype, 0);
		return q7rt.dst;
	}
	q7rt_fail("get_dst_tensor: the loader gave no destination tensor and there is no "
	          "tensor argument to shape one like");
}

extern "C" uint32_t q7rt_cpu_id(void) { return q7rt.frame ? q7rt.frame->cpu_id : 0; }

extern "C" uint32_t q7rt_cpu_count(void)
{
	return q7rt.frame && q7rt.frame->cpu_count ? q7rt.frame->cpu_count : 1;
}

/* The element offset of flat index k, through the strides. 32-bit: numel
 * fits (numel is capped at 2^32 by q7rt_tensor_new, at 2^31-1 by the entry
 * checks), and the lx106 has no 64-bit division. */
static int64_t flat_offset(const q7rt_tensor *t, uint32_t k)
{
	int64_t pos = 0;
	for (int32_t d = t->ndim - 1; d >= 0; d--) {
		uint32_t size = (uint32_t)t->sizes[d];
		pos += (int64_t)(k % size) * t->strides[d];
		k /= size;
	}
	return pos;
}

extern "C" void q7rt_copy_tcm(const q7rt_tensor *t, int dtype, void *tcm, size_t offset,
                              size_t count, int to_tcm)
{
	const char *what = to_tcm ? "tensor_to_tcm" : "tcm_to_tensor";
	if (t->dtype != dtype)
		q7rt_fail("%s<%s>: tensor is %s", what, q7rt_dtype_name(dtype), q7rt_dtype_name(t->dtype));
	uint64_t n = (uint64_t)q7rt_numel(t);
	if ((uint64_t)offset > n || (uint64_t)count > n - offset)
		q7rt_fail("%s: elements [%llu, %llu) are outside the tensor's %llu", what,
		          (unsigned long long)offset, (unsigned long long)offset + count,
		          (unsigned long long)n);
	if (count && !tcm)
		q7rt_fail("%s: the tcm buffer is null", what);
	size_t esize = q7rt_dtype_size(dtype);
	/* The tcm side: a buffer from tcm_malloc must hold the elements (a
	 * buffer elsewhere is the kernel's own, of a size unknown here). */
	size_t room = 0;
	int where = count ? q7rt_tcm_room(tcm, &room) : 0;
	if (where < 0)
		q7rt_fail("%s: the tcm buffer lies inside the tcm pool but in no tcm_malloc block (freed?)",
		          what);
	if (where > 0 && (uint64_t)count * esize > room)
		q7rt_fail("%s: %llu elements (%llu bytes) do not fit the tcm_malloc block, which has %llu "
		          "bytes from there",
		          what, (unsigned long long)count, (unsigned long long)count * esize,
		          (unsigned long long)room);
	char *base = static_cast<char *>(t->data);
	if (q7rt_contiguous(t)) {
		if (to_tcm)
			memcpy(tcm, base + offset * esize, count * esize);
		else
			memcpy(base + offset * esize, tcm, count * esize);
		return;
	}
	for (size_t k = 0; k < count; k++) { /* strided: walk the flat index */
		char *elem = base + flat_offset(t, (uint32_t)(offset + k)) * (int64_t)esize;
		char *buf = static_cast<char *>(tcm) + k * esize;
		if (to_tcm)
			memcpy(buf, elem, esize);
		else
			memcpy(elem, buf, esize);
	}
}

extern "C" void q7rt_index_error(int64_t index, int64_t size, unsigned dim)
{
	q7rt_fail("accessor: index %lld is out of bounds for dimension %u with size %lld",
	          (long long)index, dim, (long long)size);
}

extern "C" void q7rt_fill(q7rt_tensor *t, const q7rt_scalar *value)
{
	char *base = static_cast<char *>(t->data);
	size_t esize = q7rt_dtype_size(t->dtype);
	int64_t n = q7rt_numel(t);
	for (int64_t k = 0; k < n; k++) {
		void *p = base + flat_offset(t, (uint32_t)k) * (int64_t)esize;
		if (value->kind == Q7RT_SCALAR_FLOAT)
			q7elem::store_f64(p, t->dtype, value->d);
		else
			q7elem::store_i64(p, t->dtype, value->i);
	}
}

extern "C" q7rt_tensor *q7rt_eye(int64_t n, int64_t m, int dtype)
{
	if (n < 0 || m < 0)
		q7rt_fail("eye: n and m must not be negative, got %lld and %lld", (long long)n,
		          (long long)m);
	int64_t sizes[2] = {n, m};
	q7rt_tensor *t = q7rt_tensor_new(sizes, 2, dtype, 0);
	size_t esize = q7rt_dtype_size(dtype);
	for (int64_t i = 0; i < n && i < m; i++)
		q7elem::store_i64(static_cast<char *>(t->data) + (i * m + i) * (int64_t)esize, dtype, 1);
	return t;
}
