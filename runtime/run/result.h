/* runtime/run/result: what both targets do with a q7_run_result: record a
 * loader failure, make a call frame from a request, and copy the returned
 * tensor out of the core's memory. */
#ifndef Q7_RUN_RESULT_H
#define Q7_RUN_RESULT_H

#include <stddef.h>

#include "run.h"
#include "support.h"

/* Sets r->message from fmt and r->status to -1 (the loader failed). */
void q7_run_fail(struct q7_run_result *r, const char *fmt, ...) Q7_PRINTF(2, 3);

/* Makes m (NUL-terminated) one printable line: a control character
 * (a damaged library's runtime may say anything) becomes '?'. */
void q7_run_clean_message(char *m);

/* Fills f for core `core` of `cores` from req: the header, the op, the
 * arguments and dst as req has them (host addresses), no heap, no
 * write_fn. */
void q7_run_frame_init(struct q7_frame *f, const struct q7_run_request *req, unsigned core,
                       unsigned cores);
/* The same from the call's parts, leaving what it does not use (the
 * arguments past nargs, the heap, write_fn, the stack limit) as they
 * were or zero: for a loader that fills one frame again and again. The
 * op's name is cut to fit f->op. */
void q7_run_frame_fill(struct q7_frame *f, const char *op, unsigned nargs,
                       const struct q7_arg *args, const struct q7_tensor_desc *dst, unsigned core,
                       unsigned cores);

/* Copies f->out into a contiguous buffer owned by r, following its
 * strides. span is the host address of the tensor's element 0 and
 * span_bytes how many bytes from there may be read. 0, or -1 after
 * q7_run_fail. */
int q7_run_take_output(const struct q7_frame *f, const unsigned char *span, size_t span_bytes,
                       struct q7_run_result *r);

#endif
