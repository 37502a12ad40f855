/* <q7/runtime.h>: the C interface between the kernel-author headers
 * (<torch/torch.h> and the <q7/...> pieces it includes) and q7cc's runtime
 * library (runtime/src). C linkage and plain structs, so that the headers'
 * inline code and the prebuilt library agree on one ABI; kernels call
 * these only through the torch API. */
#ifndef Q7_RUNTIME_H
#define Q7_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include <q7/frame.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Who may touch a tensor at the moment (the coherence policy's record). */
struct q7rt_coherence {
	int32_t policy;     /* torch::CoherencyEnforcer::Policy */
	int32_t n_read;     /* open read streams */
	int32_t n_write;    /* open write streams */
	int32_t n_standard; /* live standard accessors (accessor<T, N>()) */
};

struct q7rt_tensor {
	int32_t dtype; /* enum q7_dtype, numbered as at::ScalarType */
	int32_t ndim;
	int64_t sizes[Q7_MAX_DIMS];
	int64_t strides[Q7_MAX_DIMS]; /* in elements */
	void *data;
	struct q7rt_coherence coh;
};

/* A number as at::Scalar holds it. */
enum { Q7RT_SCALAR_INT, Q7RT_SCALAR_FLOAT, Q7RT_SCALAR_BOOL };
struct q7rt_scalar {
	int32_t kind;
	int32_t reserved;
	int64_t i; /* INT, BOOL (0 or 1) */
	double d;  /* FLOAT */
};

/* fill: -1 leaves the data uninitialised, else every element is fill. */
struct q7rt_tensor *q7rt_tensor_new(const int64_t *sizes, size_t ndim, int dtype, int fill);
/* Every element set to the number, converted to the tensor's dtype. */
void q7rt_fill(struct q7rt_tensor *t, const struct q7rt_scalar *value);
/* torch::eye: an n x m tensor of dtype with ones on the diagonal. */
struct q7rt_tensor *q7rt_eye(int64_t n, int64_t m, int dtype);
size_t q7rt_dtype_size(int dtype);    /* 0 for an unknown dtype */
const char *q7rt_dtype_name(int dtype);
/* Stops the running op with KERNEL_ERROR and this message. */
void q7rt_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Stops the op: t is of another dtype than want; the message names the
 * argument t is ("accessor: argument 1 (x): tensor is int32, not
 * float32"), or the destination. */
void q7rt_fail_dtype(const struct q7rt_tensor *t, const char *what, int want)
	__attribute__((noreturn));
/* TORCH_CHECK's and assert's report: stops the op with KERNEL_ERROR and
 * "<file>:<line>: <what>", the core added when one core runs the op (a
 * multicore loader names the core itself). */
void q7rt_check_failed(const char *file, int line, const char *what)
	__attribute__((noreturn));
/* An accessor's index outside its dimension: stops the op with
 * KERNEL_ERROR, "accessor: index I is out of bounds for dimension D with
 * size S" (torch's words). */
void q7rt_index_error(int64_t index, int64_t size, unsigned dim)
	__attribute__((noreturn, cold));
/* tensor_to_tcm (to_tcm 1) and tcm_to_tensor: count elements from
 * element offset of t; both the tensor's range and, when tcm lies in the
 * tcm pool, its tcm_malloc block are checked. */
void q7rt_copy_tcm(const struct q7rt_tensor *t, int dtype, void *tcm, size_t offset, size_t count,
                   int to_tcm);
struct q7rt_tensor *q7rt_dst_tensor(void);
uint32_t q7rt_cpu_id(void);
uint32_t q7rt_cpu_count(void);
void *q7rt_tcm_malloc(size_t bytes);
void q7rt_tcm_free(void *p);

/* ---- the coherence policy ---- */
enum { Q7RT_ACCESS_STANDARD, Q7RT_ACCESS_READ_STREAM, Q7RT_ACCESS_WRITE_STREAM };
/* An accessor of this kind is about to be made on t while the record says
 * the access may be incoherent: ends the op (COHERENT), warns on the op's
 * output (INCOHERENT_VERBOSE) or does nothing (INCOHERENT_QUIET). */
void q7rt_incoherent(const struct q7rt_tensor *t, int access, const char *what);

/* ---- streaming accessors ---- */
/* The state of one stream, kept inside the accessor object. buf holds
 * elements pos .. count-1 of the tensor's elements from `next` on (read),
 * or pos elements not yet written back at `next` (write). */
struct q7rt_stream {
	struct q7rt_tensor *t;
	void *buf;      /* 4 KiB from the tcm pool, or &one when it is full */
	uint32_t cap;   /* elements buf holds */
	uint32_t pos;   /* the next element in buf */
	uint32_t count; /* read: elements in buf; write: room before the end */
	int32_t mode;   /* 0 closed, 1 read, 2 write */
	int64_t next;   /* flat index of buf's first element */
	int64_t total;  /* elements of the tensor */
	int32_t dtype;
	int32_t pooled; /* buf came from the tcm pool */
	uint64_t one;   /* the one-element buffer */
};
void q7rt_stream_open(struct q7rt_stream *s, struct q7rt_tensor *t, int dtype, int write);
/* read: the next elements into buf (fails past the end or when closed). */
void q7rt_stream_refill(struct q7rt_stream *s);
/* write: buf back into the tensor (fails past the end or when closed). */
void q7rt_stream_flush(struct q7rt_stream *s);
/* Writes back what is pending, frees the buffer; 0, or -1 when already
 * closed. */
int q7rt_stream_close(struct q7rt_stream *s);

/* ---- tensor operations ---- */
enum q7rt_op {
	Q7RT_OP_ABS, Q7RT_OP_CEIL, Q7RT_OP_FLOOR, Q7RT_OP_SIN, Q7RT_OP_COS, Q7RT_OP_TAN,
	Q7RT_OP_LOG, Q7RT_OP_LOG2, Q7RT_OP_LOG10, Q7RT_OP_EXP, Q7RT_OP_BITWISE_NOT,
	Q7RT_OP_ADD, Q7RT_OP_SUB, Q7RT_OP_MUL, Q7RT_OP_DIV, Q7RT_OP_POW,
	Q7RT_OP_BITWISE_AND, Q7RT_OP_BITWISE_OR, Q7RT_OP_CLAMP,
};
/* An operand: a tensor (t set) or a number (t NULL). */
struct q7rt_operand {
	const struct q7rt_tensor *t;
	struct q7rt_scalar s;
};
/* Runs op elementwise: out = op(a[, b]), with c the alpha of add and sub
 * or the minimum of clamp, d clamp's maximum. out NULL (the functional
 * form) makes the result tensor; else (the _out form) out must have the
 * operands' shape and a dtype the result may be cast to. Returns the
 * result. Shapes must match (no broadcasting); misuse ends the op with a
 * message naming the operation. */
struct q7rt_tensor *q7rt_op(int op, struct q7rt_tensor *out, const struct q7rt_operand *a,
                            const struct q7rt_operand *b, const struct q7rt_scalar *c,
                            const struct q7rt_scalar *d);

#if defined(__cplusplus)
}
#endif

#endif
