/* run: the run engine (engine.h) and q7-run, which loads a kernel
 * library built by q7cc and runs one op on the host (host.c, dlopen) or on
 * an emulated Xtensa core (emulated.c, QEMU). Both targets take the same
 * request and give the same result, so tests compare them directly.
 *
 * Memory: a request borrows its tensors' data; a result owns out_data. */
#ifndef Q7_RUN_H
#define Q7_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "q7/frame.h"

struct q7_run_request {
	const char *lib;     /* the path given to -o at link time */
	const char *op;
	unsigned nargs;
	/* Tensor args: u.tensor.data holds a host address (uintptr_t) of
	 * contiguous data; the target copies it where the core can see it. */
	struct q7_arg args[Q7_MAX_ARGS];
	/* The destination (get_dst_tensor()); ndim 0 for none. data is a host
	 * address of a buffer the target reads back into. */
	struct q7_tensor_desc dst;
	unsigned cores;      /* 1..8: runs cpu_id 0..cores-1 over one dst */
	double timeout_s;    /* emulated only; 0 = the default */
	size_t heap_size;    /* arena bytes; 0 = the default */
};

struct q7_run_result {
	int status;          /* enum q7_status, or -1: the loader failed */
	/* Why it failed; with Q7_STATUS_OK, empty or the runtime's warning. */
	char message[Q7_MESSAGE_SIZE];
	/* The result. data: a host address, of out_data, or of the request's
	 * destination when it had one (the engine; out_data then NULL). */
	struct q7_tensor_desc out;
	void *out_data;      /* malloc'd contiguous copy of the output */
	size_t out_bytes;
	unsigned switched_stack; /* any core ran on a switched stack */
};

/* One call on the emulated target (q7-run's: a session opened, called
 * once, closed; emu_session.h keeps one for many calls): 0
 * when the op ran and returned Q7_STATUS_OK; else 1 after filling
 * result->status and result->message (the caller prints them). */
int q7_run_emulated(const struct q7_run_request *req, struct q7_run_result *result);
void q7_run_result_free(struct q7_run_result *result);

/* The q7-run command line. */
int q7_run_main(int argc, char **argv);

/* q7-run's words, for tools that take calls the same way (emu_calls). */
struct npy_array;
/* A literal: true/false, an integer of 64 bits (3, -2, 0x10), a float
 * (0.5, 1e-3, inf). Fills *a and returns true, or false. */
bool q7_run_parse_literal(const char *s, struct q7_arg *a);
/* A shape, "2,3", "2x3", "(2, 3)" or "" (0 dims), into d's ndim and
 * sizes; 0, or -1 after a message naming --out-shape=s. */
int q7_run_parse_shape(const char *s, struct q7_tensor_desc *d);
/* d's strides for its sizes, contiguous. */
void q7_run_set_contiguous(struct q7_tensor_desc *d);
/* A tensor argument over a .npy file's data (borrowed). */
void q7_run_tensor_arg(struct q7_arg *a, const struct npy_array *t);

#endif
