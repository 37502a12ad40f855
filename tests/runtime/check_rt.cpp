/* The host runtime (libq7rt) driven directly through q7_entry with frames
 * built here: the arena allocator, frame checks, argument checks against
 * the schema, out-of-memory, the tcm pool, the destination copy, kernel
 * errors, and the stack switch with a stack limit the frame sets. The
 * kernels are below; their wrapper comes from codegen (gen_wrapper). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <neuron/neuron-utils.hpp>
#include <neuron/stack_switch.hpp>
#include <torch/torch.h>

#include "arena.h"
#include "frames.h"

/* ---- kernels ---- */

at::Tensor ident(const at::Tensor &x) { return x; }

at::Tensor alloc_bytes(const at::Tensor &x, long n)
{
	(void)x;
	return torch::ones({n}, torch::kByte);
}

at::Tensor tcm_count(const at::Tensor &x)
{
	(void)x;
	void *blocks[64];
	int n = 0;
	while (n < 64 && (blocks[n] = torch::neuron::tcm_malloc(1024)) != nullptr)
		n++;
	for (int i = 0; i < n; i++)
		torch::neuron::tcm_free(blocks[i]);
	void *whole = torch::neuron::tcm_malloc(16 * 1024); /* all of it again */
	at::Tensor out = torch::zeros({2}, torch::kInt);
	out.data_ptr<int32_t>()[0] = n;
	out.data_ptr<int32_t>()[1] = whole != nullptr;
	torch::neuron::tcm_free(whole);
	return out;
}

static int depth_sum(int n)
{
	volatile char pad[128];
	pad[0] = (char)n;
	return n == 0 ? 0 : n + depth_sum(n - 1) + (pad[0] & 0);
}

at::Tensor deep(const at::Tensor &x, int n)
{
	(void)x;
	at::Tensor out = torch::zeros({1}, torch::kLong);
	out.data_ptr<int64_t>()[0] = depth_sum(n);
	return out;
}

at::Tensor bad_rank(const at::Tensor &x)
{
	auto a = x.accessor<float, 3>();
	(void)a;
	return x;
}

at::Tensor to_dst(const at::Tensor &x, const at::Scalar &s)
{
	at::Tensor d = get_dst_tensor();
	float *o = d.data_ptr<float>();
	const float *in = x.data_ptr<float>();
	for (int64_t i = 0; i < x.numel(); i++)
		o[i] = in[i] * s.toFloat() + (float)get_cpu_id();
	return d;
}

/* Writes 2x into get_dst_tensor() and returns another tensor. */
at::Tensor dst_and_other(const at::Tensor &x)
{
	at::Tensor d = get_dst_tensor();
	for (int64_t i = 0; i < x.numel(); i++)
		d.data_ptr<float>()[i] = 2 * x.data_ptr<float>()[i];
	return torch::zeros({x.numel()}, torch::kFloat);
}

/* ---- helpers ---- */

static unsigned char heap[1 << 20] __attribute__((aligned(64)));

static void frame_init(q7_frame *f, const char *op)
{
	q7t_frame_init(f, op, heap, sizeof heap);
}

static void tensor_arg(q7_frame *f, uint32_t dtype, void *data, uint32_t n)
{
	q7_arg *a = &f->args[f->nargs++];
	a->kind = Q7_ARG_TENSOR;
	a->u.tensor.dtype = dtype;
	a->u.tensor.ndim = 1;
	a->u.tensor.sizes[0] = n;
	a->u.tensor.strides[0] = 1;
	a->u.tensor.data = (uint64_t)(uintptr_t)data;
}

static void int_arg(q7_frame *f, int64_t v)
{
	q7_arg *a = &f->args[f->nargs++];
	a->kind = Q7_ARG_INT;
	a->u.i = v;
}

static float xs[4] = {1, -2, 3, 4};

/* ---- tests ---- */

START_TEST(arena_alloc_free_merge)
{
	static unsigned char mem[4096 + 64];
	q7rt_arena a;
	q7rt_arena_init(&a, mem + 3, 4096); /* unaligned start */
	void *p = q7rt_arena_alloc(&a, 100, 64);
	void *q = q7rt_arena_alloc(&a, 200, 16);
	void *r = q7rt_arena_alloc(&a, 300, 256);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq((uintptr_t)p % 64, 0);
	ck_assert_uint_eq((uintptr_t)q % 16, 0);
	ck_assert_uint_eq((uintptr_t)r % 256, 0);
	memset(p, 1, 100);
	memset(q, 2, 200);
	memset(r, 3, 300);
	ck_assert_int_eq(((unsigned char *)q)[199], 2);
	ck_assert_ptr_null(q7rt_arena_alloc(&a, 8192, 16));
	ck_assert_int_eq(q7rt_arena_free(&a, q), 0);
	ck_assert_int_eq(q7rt_arena_free(&a, q), -1); /* double free */
	ck_assert_int_eq(q7rt_arena_free(&a, (char *)p + 16), -1);
	ck_assert_int_eq(q7rt_arena_free(&a, p), 0);
	ck_assert_int_eq(q7rt_arena_free(&a, r), 0);
	ck_assert_uint_eq(a.used, 0);
	/* all merged back: one block nearly as big as the range fits */
	void *big = q7rt_arena_alloc(&a, 4096 - 64, 16);
	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_null(q7rt_arena_alloc(&a, 64, 16));
}
END_TEST

/* A tagged free frees only a live block of its tag (new's blocks; not a
 * tensor's data, another form's block, a pointer inside a block or one
 * outside the arena), and a block carved again starts untagged. */
START_TEST(arena_tagged_free)
{
	static unsigned char mem[4096 + 128];
	q7rt_arena a;
	q7rt_arena_init(&a, mem, 4096);
	q7rt_arena_red_zones(&a, true);
	void *mine = q7rt_arena_alloc(&a, 64, 16), *other = q7rt_arena_alloc(&a, 64, 64);
	q7rt_arena_tag(&a, mine, 1);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, other, 1), -1); /* untagged */
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, mine, 2), -1);  /* another tag */
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, (char *)mine + 16, 1), -1);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, mem + 4096 + 64, 1), -1);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, NULL, 1), -1);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, mine, 1), 0);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, mine, 1), -1); /* twice */
	void *again = q7rt_arena_alloc(&a, 64, 16);
	ck_assert_ptr_eq(again, mine);
	ck_assert_int_eq(q7rt_arena_free_tagged(&a, again, 1), -1);
	ck_assert_int_eq(q7rt_arena_free(&a, again), 0);
	ck_assert_int_eq(q7rt_arena_free(&a, other), 0);
	struct q7rt_breach b;
	ck_assert(!q7rt_arena_check(&a, &b));
	ck_assert_uint_eq(a.used, 0);
}
END_TEST

START_TEST(arena_random)
{
	static unsigned char mem[65536];
	q7rt_arena a;
	q7rt_arena_init(&a, mem, sizeof mem);
	void *live[64] = {0};
	size_t sizes[64] = {0};
	srand(3);
	for (int step = 0; step < 20000; step++) {
		int i = rand() % 64;
		if (live[i]) {
			unsigned char *b = (unsigned char *)live[i];
			size_t bad = 0;
			for (size_t k = 0; k < sizes[i]; k++) /* nobody else wrote here */
				bad += b[k] != (unsigned char)i;
			ck_assert_uint_eq(bad, 0);
			ck_assert_int_eq(q7rt_arena_free(&a, live[i]), 0);
			live[i] = nullptr;
		} else {
			sizes[i] = (size_t)(rand() % 2000);
			size_t align = (size_t)16 << (rand() % 3);
			live[i] = q7rt_arena_alloc(&a, sizes[i], align);
			if (live[i]) {
				ck_assert_uint_eq((uintptr_t)live[i] % align, 0);
				memset(live[i], i, sizes[i]);
			}
		}
	}
	for (int i = 0; i < 64; i++)
		if (live[i])
			ck_assert_int_eq(q7rt_arena_free(&a, live[i]), 0);
	ck_assert_uint_eq(a.used, 0);
	ck_assert_ptr_nonnull(q7rt_arena_alloc(&a, sizeof mem - 64, 16));
}
END_TEST

/* Red zones: a write past a block is found after the fact, naming the
 * block, its bytes and the first byte that changed; one past a freed
 * block is kept until the check; one that jumps the red zone into the
 * next header names the block before it; the blocks kept apart stay
 * whole, and without red zones nothing is checked. */
START_TEST(arena_red_zones)
{
	static unsigned char mem[16384];
	q7rt_arena a;
	q7rt_breach b;
	q7rt_arena_init(&a, mem, sizeof mem);
	q7rt_arena_red_zones(&a, true);
	unsigned char *p = (unsigned char *)q7rt_arena_alloc(&a, 37, 16);
	unsigned char *q = (unsigned char *)q7rt_arena_alloc(&a, 64, 64);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_ge((uintptr_t)q, (uintptr_t)p + 37 + Q7_RED_ZONE);
	memset(p, 1, 37);
	memset(q, 2, 64);
	ck_assert(!q7rt_arena_check(&a, &b));
	p[40] = 9; /* three bytes past its end */
	ck_assert(q7rt_arena_check(&a, &b));
	ck_assert_uint_eq(b.block, (uintptr_t)p);
	ck_assert_uint_eq(b.bytes, 37);
	ck_assert_uint_eq(b.at, 40);
	p[40] = 0xfb; /* the pattern again: nothing changed */
	ck_assert(!q7rt_arena_check(&a, &b));
	q[64 + 15] = 0; /* past q, which is then freed */
	ck_assert_int_eq(q7rt_arena_free(&a, q), 0);
	ck_assert(q7rt_arena_check(&a, &b));
	ck_assert_uint_eq(b.block, (uintptr_t)q);
	ck_assert_uint_eq(b.at, 64 + 15);

	q7rt_arena_init(&a, mem, sizeof mem);
	q7rt_arena_red_zones(&a, true);
	p = (unsigned char *)q7rt_arena_alloc(&a, 16, 16);
	q = (unsigned char *)q7rt_arena_alloc(&a, 16, 16);
	memset(q - 16, 0x55, 16); /* q's header, right past p's zone: a jump over it */
	ck_assert(q7rt_arena_check(&a, &b));
	ck_assert_uint_eq(b.block, (uintptr_t)p);
	ck_assert_uint_eq(b.at, 16 + Q7_RED_ZONE);

	q7rt_arena_init(&a, mem, sizeof mem);
	p = (unsigned char *)q7rt_arena_alloc(&a, 16, 16);
	memset(p, 3, 64);
	ck_assert(!q7rt_arena_check(&a, &b));
}
END_TEST

START_TEST(arena_far_writes)
{
	/* docs/runtime.md, "What a kernel may write": a header's size field
	 * written over is the block before it's breach at that offset, never
	 * a size (the offset was the value written); free memory up to 8 KiB
	 * past a block is watched, before it is carved and after the call. */
	static unsigned char mem[1 << 20];
	q7rt_arena a;
	q7rt_breach b;
	float v = 3.0f;
	for (int carve = 0; carve < 2; carve++) {
		q7rt_arena_init(&a, mem, sizeof mem);
		q7rt_arena_red_zones(&a, true);
		unsigned char *d = (unsigned char *)q7rt_arena_alloc(&a, 32, 64);
		memcpy(d + 32 + Q7_RED_ZONE, &v, 4); /* the free block's size field */
		if (carve)
			ck_assert_ptr_null(q7rt_arena_alloc(&a, 160, 16)); /* not carved by it */
		ck_assert(q7rt_arena_check(&a, &b));
		ck_assert_uint_eq(b.block, (uintptr_t)d);
		ck_assert_uint_eq(b.at, 32 + Q7_RED_ZONE);
	}
	for (int carve = 0; carve < 2; carve++) {
		q7rt_arena_init(&a, mem, sizeof mem);
		q7rt_arena_red_zones(&a, true);
		unsigned char *d = (unsigned char *)q7rt_arena_alloc(&a, 32, 64);
		memcpy(d + 4432, &v, 4); /* 4,400 bytes past, in free memory */
		if (carve) /* carved over since: seen as it is carved */
			ck_assert_ptr_nonnull(q7rt_arena_alloc(&a, 8000, 16));
		ck_assert(q7rt_arena_check(&a, &b));
		ck_assert_uint_eq(b.block, (uintptr_t)d);
		ck_assert_uint_eq(b.at, 4432);
	}
	/* many blocks made and freed, nothing written outside them: no breach */
	q7rt_arena_init(&a, mem, sizeof mem);
	q7rt_arena_red_zones(&a, true);
	void *p[32] = {0};
	unsigned seed = 1;
	for (int i = 0; i < 3000; i++) {
		seed = seed * 1103515245u + 12345u;
		unsigned k = (seed >> 16) % 32;
		if (p[k]) {
			ck_assert_int_eq(q7rt_arena_free(&a, p[k]), 0);
			p[k] = NULL;
		} else {
			size_t n = (seed >> 8) % 20000;
			p[k] = q7rt_arena_alloc(&a, n, (size_t)16 << ((seed >> 4) % 4));
			if (p[k])
				memset(p[k], 0x11, n);
		}
	}
	ck_assert(!q7rt_arena_check(&a, &b));
}
END_TEST

START_TEST(bad_frames)
{
	q7_frame f;
	frame_init(&f, "ident");
	f.magic = 0;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_FRAME);
	frame_init(&f, "ident");
	f.version = Q7_FRAME_VERSION + 1;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_FRAME);
	char want[32];
	snprintf(want, sizeof want, "version %u", Q7_FRAME_VERSION + 1);
	ck_assert_ptr_nonnull(strstr(f.message, want));
	frame_init(&f, "ident");
	f.heap_base = 0;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_FRAME);
	frame_init(&f, "ident");
	memset(f.op, 'a', sizeof f.op);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_FRAME);
	frame_init(&f, "ident");
	f.nargs = 17;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_FRAME);
	ck_assert_int_eq(q7_entry(nullptr), Q7_STATUS_BAD_FRAME);
}
END_TEST

START_TEST(ops_and_args)
{
	q7_frame f;
	frame_init(&f, "missing");
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_NO_SUCH_OP);
	ck_assert_ptr_nonnull(strstr(f.message, "deep(Tensor x, int n) -> Tensor"));

	frame_init(&f, "ident");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_uint_eq(f.out.data, (uint64_t)(uintptr_t)xs);
	ck_assert_uint_eq(f.out.sizes[0], 4);

	frame_init(&f, "deep");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	int_arg(&f, (int64_t)1 << 40);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_ARGS);
	ck_assert_ptr_nonnull(strstr(f.message, "does not fit in an int"));

	frame_init(&f, "ident");
	tensor_arg(&f, 99, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_ARGS);
	frame_init(&f, "ident");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	f.args[0].u.tensor.ndim = 9;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_ARGS);
	frame_init(&f, "ident");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, nullptr, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_ARGS);
}
END_TEST

START_TEST(memory)
{
	q7_frame f;
	frame_init(&f, "alloc_bytes");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	int_arg(&f, 60000);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_uint_eq(f.out.sizes[0], 60000);
	ck_assert_int_eq(((unsigned char *)(uintptr_t)f.out.data)[59999], 1);

	f.heap_size = 50000; /* the same call with a smaller arena */
	f.nargs = 0;
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	int_arg(&f, 60000);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_NO_MEMORY);
	ck_assert_ptr_nonnull(strstr(f.message, "out of memory"));

	frame_init(&f, "tcm_count");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	int32_t *r = (int32_t *)(uintptr_t)f.out.data;
	ck_assert_int_eq(r[0], 16); /* the whole 16 KiB: no headers inside */
	ck_assert_int_eq(r[1], 1);
}
END_TEST

START_TEST(kernel_error)
{
	q7_frame f;
	frame_init(&f, "bad_rank");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_KERNEL_ERROR);
	ck_assert_str_eq(f.message, "bad_rank: accessor<3>: tensor has 1 dims");
	/* the runtime is usable again after a kernel stopped half-way */
	frame_init(&f, "ident");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
}
END_TEST

/* tcm_count of xs, into an int32[2] destination. */
static void tcm_count_frame(q7_frame *f, int32_t *small)
{
	frame_init(f, "tcm_count");
	tensor_arg(f, Q7_DTYPE_FLOAT32, xs, 4);
	f->dst.dtype = Q7_DTYPE_INT32;
	f->dst.ndim = 1;
	f->dst.sizes[0] = 2;
	f->dst.data = (uint64_t)(uintptr_t)small;
}

START_TEST(destination)
{
	q7_frame f;
	float dst[4] = {0};
	for (uint32_t core = 0; core < 2; core++) {
		frame_init(&f, "to_dst");
		tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
		q7_arg *a = &f.args[f.nargs++];
		a->kind = Q7_ARG_FLOAT;
		double two = 2.0;
		memcpy(&a->u.f_bits, &two, sizeof two);
		f.cpu_id = core;
		f.cpu_count = 2;
		f.dst = f.args[0].u.tensor;
		f.dst.data = (uint64_t)(uintptr_t)dst;
		ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
		ck_assert_uint_eq(f.out.data, (uint64_t)(uintptr_t)dst);
		ck_assert(dst[1] == -4.0f + (float)core);
	}
	/* a returned tensor that is not dst is copied into it, if it fits */
	int32_t small[2] = {0};
	tcm_count_frame(&f, small);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_int_eq(small[0], 16);
	f.dst.sizes[0] = 1;
	f.nargs = 0;
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_OUTPUT);
	/* Q7_FRAME_RESULT_ANYWHERE: checked as ever, described where it lies,
	 * dst left to the loader */
	float untouched[4] = {7, 7, 7, 7};
	frame_init(&f, "ident");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	f.dst = f.args[0].u.tensor;
	f.dst.data = (uint64_t)(uintptr_t)untouched;
	f.loader_flags = Q7_FRAME_RESULT_ANYWHERE;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_uint_eq(f.out.data, f.args[0].u.tensor.data);
	ck_assert(untouched[0] == 7.0f && untouched[3] == 7.0f);
	f.dst.sizes[0] = 3;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_OUTPUT);
}
END_TEST

/* The destination rule: once get_dst_tensor() was called, or with more
 * than one core, the result is the destination; a returned tensor that
 * is another one is ignored, with a warning and status OK. */
START_TEST(destination_rule)
{
	q7_frame f;
	float dst[4] = {0};
	frame_init(&f, "dst_and_other");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	f.dst = f.args[0].u.tensor;
	f.dst.data = (uint64_t)(uintptr_t)dst;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_uint_eq(f.out.data, (uint64_t)(uintptr_t)dst);
	ck_assert(dst[1] == 2 * xs[1] && dst[3] == 2 * xs[3]);
	ck_assert_ptr_nonnull(strstr(f.message, "dst_and_other: the kernel returned a tensor other "
	                                        "than get_dst_tensor(); it is ignored"));
	/* one core, no destination given: the one the runtime made */
	frame_init(&f, "dst_and_other");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert(((float *)(uintptr_t)f.out.data)[2] == 2 * xs[2]);
	ck_assert_ptr_nonnull(strstr(f.message, "is ignored"));
	/* two cores, a kernel that never asks for the destination */
	int32_t small[2] = {-1, -1};
	for (uint32_t core = 0; core < 2; core++) {
		tcm_count_frame(&f, small);
		f.cpu_id = core;
		f.cpu_count = 2;
		ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
		ck_assert_uint_eq(f.out.data, (uint64_t)(uintptr_t)small);
		ck_assert_int_eq(small[0], -1);
		ck_assert_ptr_nonnull(strstr(f.message, "other than get_dst_tensor() on several cores"));
	}
	/* a kernel that returns the destination: no warning */
	frame_init(&f, "to_dst");
	tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
	int_arg(&f, 1);
	f.dst = f.args[0].u.tensor;
	f.dst.data = (uint64_t)(uintptr_t)dst;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_str_eq(f.message, "");
}
END_TEST

/* An empty op name: the op list, "name<TAB>schema" lines, in dst. */
START_TEST(op_list)
{
	q7_frame f;
	char text[4096];
	memset(text, 'x', sizeof text);
	frame_init(&f, "");
	f.dst.dtype = Q7_DTYPE_UINT8;
	f.dst.ndim = 1;
	f.dst.sizes[0] = sizeof text;
	f.dst.data = (uint64_t)(uintptr_t)text;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
	ck_assert_uint_eq(f.out.ndim, 1);
	ck_assert_uint_eq(f.out.dtype, Q7_DTYPE_UINT8);
	ck_assert_uint_eq(f.out.data, (uint64_t)(uintptr_t)text);
	text[f.out.sizes[0]] = 0;
	ck_assert_ptr_eq(strstr(text, "ident\tident(Tensor x) -> Tensor\n"), text);
	ck_assert_ptr_nonnull(strstr(text, "\ndeep\tdeep(Tensor x, int n) -> Tensor\n"));
	ck_assert_ptr_nonnull(strstr(text, "\ndst_and_other\t"));
	/* too small a destination, and none */
	f.dst.sizes[0] = 20;
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_OUTPUT);
	ck_assert_ptr_nonnull(strstr(f.message, "does not fit 20 bytes"));
	memset(&f.dst, 0, sizeof f.dst);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_OUTPUT);
}
END_TEST

START_TEST(stack_switch)
{
	q7_frame f;
	for (int limited = 0; limited < 2; limited++) {
		frame_init(&f, "deep");
		tensor_arg(&f, Q7_DTYPE_FLOAT32, xs, 4);
		int_arg(&f, 200);
		/* a limit just below here: no headroom, so the op switches */
		char here;
		if (limited)
			f.stack_limit = (uint64_t)(uintptr_t)&here - 2048;
		ck_assert_int_eq(q7_entry(&f), Q7_STATUS_OK);
		ck_assert_int_eq(*(int64_t *)(uintptr_t)f.out.data, 200 * 201 / 2);
		ck_assert_uint_eq(f.switched_stack, (unsigned)limited);
		ck_assert_int_eq(switched_stack, limited);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc = tcase_create("rt");
	tcase_add_test(tc, arena_alloc_free_merge);
	tcase_add_test(tc, arena_tagged_free);
	tcase_add_test(tc, arena_random);
	tcase_add_test(tc, arena_red_zones);
	tcase_add_test(tc, arena_far_writes);
	tcase_add_test(tc, bad_frames);
	tcase_add_test(tc, ops_and_args);
	tcase_add_test(tc, memory);
	tcase_add_test(tc, kernel_error);
	tcase_add_test(tc, destination);
	tcase_add_test(tc, destination_rule);
	tcase_add_test(tc, op_list);
	tcase_add_test(tc, stack_switch);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
