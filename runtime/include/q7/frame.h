/* <q7/frame.h>: the call frame, the one contract between a loader and a
 * kernel library built by q7cc (the open runtime's ABI, version 1): a
 * loader fills a q7_frame and calls int q7_entry(struct q7_frame *)
 * (docs/runtime.md, "How a call runs").
 *
 * The layout is the same on every target: fixed-width fields only,
 * addresses widened to 64 bits, explicit padding, checked by the static
 * assertions below. Plain C, so C and C++ loaders and runtimes share it. */
#ifndef Q7_FRAME_H
#define Q7_FRAME_H

#include <stdint.h>

#define Q7_FRAME_MAGIC 0x52463751u /* "Q7FR" little-endian */
#define Q7_FRAME_VERSION 2u

#define Q7_MAX_DIMS 8
/* A dimension, and a tensor's element count: the strides are 32-bit
 * (docs/runtime.md, "How a call runs"). */
#define Q7_MAX_DIM_SIZE 0x7fffffffu
#define Q7_MAX_NUMEL 0x7fffffffu
#define Q7_MAX_ARGS 16
#define Q7_MAX_OP_NAME 32 /* names are shorter than 32 characters */
#define Q7_MESSAGE_SIZE 512

/* Element types, numbered as torch's ScalarType. */
enum q7_dtype {
	Q7_DTYPE_UINT8 = 0,   /* torch::kByte */
	Q7_DTYPE_INT8 = 1,    /* torch::kChar */
	Q7_DTYPE_INT16 = 2,   /* torch::kShort */
	Q7_DTYPE_INT32 = 3,   /* torch::kInt */
	Q7_DTYPE_INT64 = 4,   /* torch::kLong */
	Q7_DTYPE_FLOAT16 = 5, /* torch::kHalf */
	Q7_DTYPE_FLOAT32 = 6, /* torch::kFloat */
	Q7_DTYPE_FLOAT64 = 7, /* torch::kDouble */
	Q7_DTYPE_BOOL = 11,   /* torch::kBool */
	Q7_DTYPE_BFLOAT16 = 15, /* torch::kBFloat16 */
};

/* The bytes of one element of dtype (enum q7_dtype); 0 for none. The one
 * table of sizes: the tools (model/tensor_bytes.h), the boot program and
 * the device runtime (q7rt_dtype_size) read it here. */
static inline uint32_t q7_dtype_size(uint32_t dtype)
{
	switch (dtype) {
	case Q7_DTYPE_UINT8:
	case Q7_DTYPE_INT8:
	case Q7_DTYPE_BOOL:
		return 1;
	case Q7_DTYPE_INT16:
	case Q7_DTYPE_FLOAT16:
	case Q7_DTYPE_BFLOAT16:
		return 2;
	case Q7_DTYPE_INT32:
	case Q7_DTYPE_FLOAT32:
		return 4;
	case Q7_DTYPE_INT64:
	case Q7_DTYPE_FLOAT64:
		return 8;
	default:
		return 0;
	}
}

struct q7_tensor_desc {
	uint32_t dtype;  /* enum q7_dtype */
	uint32_t ndim;   /* 0..Q7_MAX_DIMS; 0 with data 0: no tensor */
	uint32_t sizes[Q7_MAX_DIMS];
	int32_t strides[Q7_MAX_DIMS]; /* in elements */
	uint64_t data;   /* address of element 0 in the core's address space */
};

enum q7_arg_kind {
	Q7_ARG_NONE = 0,
	Q7_ARG_TENSOR = 1,
	Q7_ARG_INT = 2,   /* u.i: any integer literal */
	Q7_ARG_FLOAT = 3, /* u.f_bits: an IEEE-754 double's bits */
	Q7_ARG_BOOL = 4,  /* u.i: 0 or 1 */
};

struct q7_arg {
	uint32_t kind; /* enum q7_arg_kind */
	uint32_t reserved;
	union {
		struct q7_tensor_desc tensor;
		int64_t i;
		uint64_t f_bits;
	} u;
};

enum q7_status {
	Q7_STATUS_OK = 0,
	Q7_STATUS_BAD_FRAME = 1,    /* magic, version or sizes are wrong */
	Q7_STATUS_NO_SUCH_OP = 2,   /* message lists the ops there are */
	Q7_STATUS_BAD_ARGS = 3,     /* count or kind does not match the schema */
	Q7_STATUS_NO_MEMORY = 4,    /* the heap arena is exhausted */
	Q7_STATUS_BAD_OUTPUT = 5,   /* returned tensor does not fit dst */
	Q7_STATUS_KERNEL_ERROR = 6, /* the kernel or the runtime gave up */
};

/* int write(int fd, const void *buf, uint32_t len): how kernels print. */
typedef int (*q7_write_fn)(int fd, const void *buf, uint32_t len);
/* int move(void *dst, const void *src, uint32_t n, int fill): memmove of
 * n bytes (n at least Q7_MOVE_MIN) by the loader, or with fill 0..255
 * memset(dst, fill, n) (src unused); 0 when done, -1 when it did nothing
 * and the runtime must. The emulated core's boot program has one (QEMU
 * moves the bytes at the host's speed, docs/emulated.md); a 32-bit
 * address, as the cores' address space is. */
typedef int (*q7_move_fn)(void *dst, const void *src, uint32_t n, int fill);
#define Q7_MOVE_COPY (-1) /* fill: a move, not a fill */
#define Q7_MOVE_MIN (64u << 10)

struct q7_frame {
	uint32_t magic;   /* Q7_FRAME_MAGIC */
	uint32_t version; /* Q7_FRAME_VERSION */
	uint32_t size;    /* sizeof(struct q7_frame) as the loader saw it */
	uint32_t nargs;
	char op[Q7_MAX_OP_NAME]; /* NUL-terminated op name */
	uint32_t cpu_id;    /* get_cpu_id() */
	uint32_t cpu_count; /* get_cpu_count() */
	struct q7_arg args[Q7_MAX_ARGS];
	/* The destination tensor (get_dst_tensor()); ndim 0 and data 0 when the
	 * loader gives none. When set, the returned tensor is copied into it
	 * unless it already is it, and must have the same dtype and numel. */
	struct q7_tensor_desc dst;
	/* Filled by the runtime: the returned tensor. Its data lives in dst or
	 * in the heap arena, which the loader keeps until it has read it. */
	struct q7_tensor_desc out;
	uint64_t heap_base; /* arena for tensors, stacks, tcm: required */
	uint64_t heap_size;
	uint64_t stack_limit; /* lowest usable address of the caller's stack,
	                       * 0 when unknown (the runtime then measures) */
	uint64_t write_fn;    /* q7_write_fn, 0: output is discarded */
	int32_t status;       /* enum q7_status, set by the runtime */
	uint32_t switched_stack; /* 1 when the op ran on a switched stack */
	uint32_t loader_flags;   /* Q7_FRAME_*, set by the loader */
	uint32_t move_fn;        /* a 32-bit core's q7_move_fn, 0: none */
	char message[Q7_MESSAGE_SIZE]; /* NUL-terminated, set with status */
};

/* loader_flags: a returned tensor other than dst (one core, no
 * get_dst_tensor()) is checked against dst as ever, but not copied into
 * it: out describes it where it lies, and the loader copies it (an
 * emulated core copies at a small fraction of the host's speed, and its
 * loader reads the result back anyway). */
#define Q7_FRAME_RESULT_ANYWHERE 1u
/* loader_flags: the destination is followed by Q7_RED_ZONE bytes of the
 * loader's that are no tensor's: the runtime fills them with a pattern
 * before the kernel runs and checks them after, so a kernel writing past
 * get_dst_tensor() ends the op naming the offset (docs/runtime.md, "What
 * a kernel may write"). */
#define Q7_FRAME_DST_ROOM 2u
/* The red zone's bytes: after the destination (Q7_FRAME_DST_ROOM), and
 * after every block of the heap arena. 64 would hold 16 floats written
 * past the end; four times that, for a loop off by a row. */
#define Q7_RED_ZONE 256u
/* loader_flags: no red zones in the heap arena (and none checked after the
 * destination): what the checks cost is measured against it
 * (bench/torch). */
#define Q7_FRAME_UNCHECKED 4u
/* loader_flags, with Q7_FRAME_DST_ROOM: every byte from the red zone's
 * end to heap_base (at most Q7_DST_MOAT_MAX) is the loader's and no
 * one's too: the runtime fills and checks it with the red zone, so a
 * write further past get_dst_tensor() is seen as well (the emulated
 * core, docs/runtime.md). */
#define Q7_FRAME_DST_MOAT 8u
#define Q7_DST_MOAT_MAX (64u << 10)

#if defined(__cplusplus)
#define Q7_FRAME_ASSERT static_assert
#else
#define Q7_FRAME_ASSERT _Static_assert
#endif
Q7_FRAME_ASSERT(sizeof(struct q7_tensor_desc) == 80, "q7_tensor_desc layout");
Q7_FRAME_ASSERT(sizeof(struct q7_arg) == 88, "q7_arg layout");
Q7_FRAME_ASSERT(sizeof(struct q7_frame) == 2184, "q7_frame layout");

#endif
