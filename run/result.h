/* run/result: what both targets do with a q7_run_result: record a
 * loader failure, make a call frame from a call, and copy the returned
 * tensor out of the core's memory. */
#ifndef Q7_RUN_RESULT_H
#define Q7_RUN_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tensor_bytes.h"
#include "support.h"

/* Sets r->message from fmt and r->status to -1 (the loader failed):
 * r->message is the call's error carrier (Q7_ERR_OF), and code that
 * fills it some other way (the prelinker) sets the status itself. */
void q7_run_fail(struct q7_run_result *r, const char *fmt, ...) Q7_PRINTF(2, 3);

/* Makes m (NUL-terminated) one printable line: a control character
 * (a damaged library's runtime may say anything) becomes '?'. */
void q7_run_clean_message(char *m);

/* Fills f for core `core` of `cores` from req: the header, the op, the
 * arguments and dst as req has them (host addresses), no heap, no
 * write_fn. */
void q7_run_frame_init(struct q7_frame *f, const struct q7_call *req, unsigned core,
                       unsigned cores);
/* The same from the call's parts, leaving what it does not use (the
 * arguments past nargs, the heap, write_fn, the stack limit) as they
 * were or zero: for a loader that fills one frame again and again. The
 * op's name is cut to fit f->op. */
void q7_run_frame_fill(struct q7_frame *f, const char *op, unsigned nargs,
                       const struct q7_arg *args, const struct q7_tensor_desc *dst, unsigned core,
                       unsigned cores);

/* A result returned into the destination (the loader's own dst, at
 * dst_data in the core's memory): at its address, contiguous, and no
 * more bytes than it holds, since the caller then reads out's shape
 * from dst's buffer. 0, or 1 after q7_run_fail naming op. */
int q7_run_check_in_dst(const char *op, const struct q7_tensor_desc *out, uint64_t dst_data,
                        const struct q7_tensor_desc *dst, struct q7_run_result *r);

/* Copies f->out into a contiguous buffer owned by r, following its
 * strides. span is the host address of the tensor's element 0 and
 * span_bytes how many bytes from there may be read. 0, or 1 after
 * q7_run_fail. */
int q7_run_take_output(const struct q7_frame *f, const unsigned char *span, size_t span_bytes,
                       struct q7_run_result *r);

/* "argument 2 (x)": parameter i (0-based) of a TorchScript schema
 * ("ns::op(Tensor x, int k) -> Tensor"), or "argument 2" when it names
 * none. */
void q7_run_schema_arg(const char *schema, size_t len, unsigned i, char *buf, size_t size);
/* The same for op ("relu_forward" or "my_ops::relu_forward") from an op
 * list's text (the runtime's "name<TAB>schema" lines; NULL: none). */
void q7_run_list_arg(const char *list, const char *op, unsigned i, char *buf, size_t size);

/* r's message for a changed input (r->changed_at, changed_past_end,
 * changed_bytes), the argument named arg ("argument 1", or with its name
 * from the schema: "argument 1 (x)"). */
void q7_run_word_changed(struct q7_run_result *r, const char *op, const char *arg);
/* r fails as input argument i (0-based) of op changed at byte offset at
 * (past_end: at or past its n bytes): its status, changed_* and message,
 * the argument unnamed (the engine names it from the schema). 1. */
int q7_run_changed(struct q7_run_result *r, const char *op, unsigned i, uint64_t at,
                   bool past_end, uint64_t n);
/* r fails (Q7_STATUS_KERNEL_ERROR) as the kernel `did` ("wrote", "read")
 * outside `what` (Q7_RUN_DST, Q7_RUN_HEAP, or input argument what, 0-based)
 * of `bytes` bytes, at byte offset at from its start (negative: before
 * it): "<op>: the kernel wrote past the end of the destination
 * (get_dst_tensor(): 16 bytes), at byte offset 16; a kernel writes only
 * into its output and its own allocations". 1. */
enum { Q7_RUN_DST = -1, Q7_RUN_HEAP = -2 };
int q7_run_outside(struct q7_run_result *r, const char *op, const char *did, int what,
                   uint64_t bytes, long long at);
/* The red zone a loader leaves after an input's bytes (n of them, a
 * position-dependent pattern no zeroing or all-ones store leaves):
 * filled before the call, checked after it. */
void q7_run_red_zone_fill(unsigned char *zone, size_t n);
/* The second rule of docs/runtime.md for the inputs: for each tensor
 * argument i of c whose bytes after[i] are followed by a red zone of
 * zone[i] bytes (after[i] NULL: none), the zone as it was filled. 0 when all are; else 1 with r set as
 * q7_run_inputs_compare sets it, changed_at at or past the argument's
 * bytes (the engine words it as a write past its end). */
int q7_run_inputs_zones(const struct q7_call *c, const unsigned char *const *after,
                        const size_t *zone, struct q7_run_result *r);
/* The first rule of docs/runtime.md: the kernel left its inputs as they
 * were. For each tensor argument i of c (bytes: what it spans), compares
 * before[i] with after[i] (NULL: not compared). 0 when none changed;
 * else 1 with r's status, changed_arg, changed_at and message set for
 * the first argument that changed (the caller words it, engine.c). */
int q7_run_inputs_compare(const struct q7_call *c, const unsigned char *const *before,
                          const unsigned char *const *after, struct q7_run_result *r);
/* The safety checks off (Q7_UNCHECKED_*): asked
 * (q7_engine_opts.unchecked), and what Q7CC_UNCHECKED says (engine.h). */
unsigned q7_run_unchecked(unsigned asked);

/* What call c's fresh output starts as on every target, a byte repeated,
 * flipped for the uninitialised-output check's second run
 * (c->fill_second): docs/runtime.md, "What a kernel may write". */
unsigned char q7_run_uninit_byte(const struct q7_call *c);
void q7_run_uninit_fill(void *p, size_t n, const struct q7_call *c);

#endif
