/* runtime/src internals: the state of the call being run, shared by the
 * entry point, the marshalling, the allocators and the stack switch.
 *
 * One call at a time per loaded image: the loader (q7-run on the host, the
 * boot program on a core) calls q7_entry, which resets everything here
 * from the frame, so nothing survives from one call to the next. All of it
 * is plain data (no constructors) because the device image runs no static
 * initialisers. */
#ifndef Q7_RT_H
#define Q7_RT_H

#include <stddef.h>
#include <stdint.h>

#include <neuron/wrapper_api.h>
#include <q7/frame.h>
#include <q7/kinds.h>

#include "arena.h"
#include "context.h"

#define Q7RT_MAX_OPS 32
#define Q7RT_TCM_SIZE (16 * 1024)
#define Q7RT_TCM_BLOCKS 64 /* live tcm_malloc blocks at most */


struct q7rt_state {
	struct q7_frame *frame;
	const char *op;          /* the op being run, for messages */
	struct q7rt_arena heap;  /* the frame's heap arena */
	char *tcm_base;          /* the 16 KiB tcm pool, carved from heap */
	struct {
		uint32_t offset, size; /* size: rounded up to 16 bytes */
		uint32_t bytes;        /* as asked */
	} tcm_blocks[Q7RT_TCM_BLOCKS]; /* live blocks, in address order */
	unsigned tcm_n;
	unsigned next_arg;       /* customop_next_* cursor */
	struct q7rt_tensor *ret; /* customop_return_tensor */
	bool returned;
	struct q7rt_tensor *dst; /* get_dst_tensor, made on first use */
	bool guarded;            /* bail is valid */
	q7rt_jmp bail;           /* where q7rt_fail goes */
	bool on_switched;        /* the wrapper runs on a switched stack */
	char out[128];           /* printf buffer for frame->write_fn */
	unsigned outlen;
};

extern struct q7rt_state q7rt;

/* Ends the running op with this status and message (formatted, prefixed
 * with the op's name). */
void q7rt_fail_status(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* Heap allocation that ends the op with NO_MEMORY when the arena is full. */
void *q7rt_alloc(size_t bytes, size_t align, const char *what);
/* After the kernel, or when the arena seems full: whether it wrote
 * outside its output and its allocations (docs/runtime.md); true with
 * f's status and message naming where (entry.cpp). */
bool q7rt_breached(q7_frame *f);
/* Writes to the loader's output (frame->write_fn), line-buffered. C
 * linkage: device_stdio.c (C) hooks picolibc's stdout to them. */
extern "C" void q7rt_write(const char *s, size_t n);
extern "C" void q7rt_flush(void);
/* "argument 2 (k)": argument i (0-based) of the running op, named as its
 * schema names it, into buf. */
void q7rt_arg_label(unsigned i, char *buf, size_t size);
/* Elements of a tensor; 1 for a 0-dim tensor. */
int64_t q7rt_numel(const struct q7rt_tensor *t);
bool q7rt_contiguous(const struct q7rt_tensor *t);
/* Where p lies in the tcm pool: 0 outside it; 1 inside a live block,
 * *room then the bytes from p to the block's end (as asked); -1 inside
 * the pool but in no live block. */
int q7rt_tcm_room(const void *p, size_t *room);
/* Wraps a frame's tensor descriptor (strides all 0: contiguous). */
struct q7rt_tensor *q7rt_wrap(const struct q7_tensor_desc *d);

#endif
