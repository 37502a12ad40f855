/* The run engine: opens a kernel library built by q7cc for a target and a
 * number of cores, lists its ops, and runs them, as often as asked. Its
 * users, targets, threads and who owns what: docs/runtime.md, "The run
 * engine".
 *
 * Errors are messages, never exits, handed back in one of two ways, one
 * per carrier, by the engine, its targets and q7-run's parts alike: a
 * function that reports into a struct q7_err returns 0 (or a count) or -1
 * with the message set; one that fills a struct q7_run_result returns 0
 * when the op ran, or 1 with the result's status and message set. Only
 * a tool's top prints them (q7-run: run.c). Detectable problems (a missing op, a wrong argument, a
 * failed TORCH_CHECK, an accessor of the wrong rank or dtype, an index out
 * of bounds) come back that way; so does, in the isolated host mode and on
 * the emulated target, a kernel that faults, exits or never returns; in
 * this process, a write outside the kernel's output and allocations
 * (host_confine.h). Any other host kernel fault in this process is the
 * one thing an engine cannot turn into a message (Q7_HOST_GUARDED
 * reports it and exits). */
#ifndef Q7_RUN_ENGINE_H
#define Q7_RUN_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "q7/frame.h"
#include "q7/xtensa.h" /* Q7_NUM_CORES */
#include "insn_profile.h" /* the profile calls add to (q7_engine_profile) */

struct q7_engine;
struct q7_err;

/* How the host target calls a core (docs/runtime.md, "The run engine"). */
enum q7_host_mode {
	/* On the caller's thread, with a device core's small stack limit, the
	 * kernel on copies of its tensors (host_confine.h). */
	Q7_HOST_DIRECT = 0,
	/* Each core on a 256 KiB thread of its own under a fault handler that
	 * reports a fault in one line and exits: q7-run --in-process. */
	Q7_HOST_GUARDED = 1,
	/* In a child process kept from call to call; a fault, an exit or a
	 * time-out (timeout_s) is a failed call. q7-run's default. */
	Q7_HOST_ISOLATED = 2,
	/* Each call a `q7-run --sanitize` of its own (host_san.h):
	 * q7cc.torch's sanitize=True. */
	Q7_HOST_SANITIZED = 3,
};

/* Where the isolated mode puts each tensor's guard page. */
enum q7_guard {
	/* Right after the tensor's last byte: a write or read past the end
	 * faults at the first byte. */
	Q7_GUARD_END = 0,
	/* Right before its first byte: one before the start faults at once
	 * (and one past the end only past the rest of its last page). */
	Q7_GUARD_START = 1,
};

struct q7_engine_opts {
	const char *target;      /* a row of target.h's table: "host" (also when NULL),
	                          * "emulated" */
	unsigned cores;          /* 1..8; 0: the library's (a manifest's images, else 1) */
	/* The library's images, one per core (cores set), as q7_run_images
	 * (run_image.h) read them for a caller that checked them first; NULL:
	 * read from lib here. Copied. */
	const char *const *images;
	size_t heap_size;        /* the heap arena's bytes; 0: as a kernel needs (host:
	                          * 4 GiB reserved, committed as used; emulated:
	                          * the core's RAM the tensors leave) */
	double timeout_s;        /* emulated and isolated host: per call (the first
	                          * one includes the start); 0:
	                          * Q7_DEFAULT_TIMEOUT_S (call_limits.h) */
	enum q7_host_mode host_mode;
	enum q7_guard guard;     /* isolated host */
	/* Emulated and isolated host: SIGINT, SIGTERM, SIGHUP and SIGQUIT
	 * during a call kill QEMU (the kernel's process), and this process
	 * then dies by the signal (q7-run). Off, a signal is this process's
	 * own business; QEMU (the kernel's process), in a process group of its
	 * own, finishes the call (an in-process user: Python raises its
	 * KeyboardInterrupt after the op). */
	bool forward_signals;
	/* Emulated and isolated host: non-NULL, a call stops within a
	 * quarter of a second once *interrupted is set (the caller's signal
	 * handler: Ctrl-C in Python), QEMU (the kernel's process) stopped,
	 * the call failed "interrupted"; the next call boots the core again
	 * (starts a new kernel process). */
	const volatile sig_atomic_t *interrupted;
	/* Safety checks off (docs/runtime.md, "What a kernel may write"),
	 * Q7_UNCHECKED_*: only to measure what they cost (bench/). The
	 * environment's Q7CC_UNCHECKED adds to it: "inputs", "zones", or any
	 * other value but "0" for both. */
	unsigned unchecked;
	/* The uninitialised-output check (docs/runtime.md, "Reading the
	 * output before writing it"); Q7CC_CHECK_UNINIT=1 turns it on too. */
	bool check_uninit;
};

/* q7_engine_opts.unchecked: the inputs not compared after a call; no red
 * zones after the destination and the heap arena's blocks. */
#define Q7_UNCHECKED_INPUTS 1u
#define Q7_UNCHECKED_ZONES 2u

/* One call: what q7-run builds from its arguments, the PyTorch bridge
 * from a dispatcher stack, and the engine hands to its targets unchanged.
 * Tensor arguments and the destination hold host addresses of contiguous
 * data (strides are ignored); the call borrows them. */
struct q7_call {
	const char *op;           /* "relu_forward" or "my_ops::relu_forward" */
	unsigned nargs;           /* at most Q7_MAX_ARGS */
	struct q7_arg args[Q7_MAX_ARGS];
	/* get_dst_tensor(): ndim 0 and data 0 for none (one core only; the
	 * runtime then makes one like the first tensor argument). With one,
	 * the result is written into it, and result->out describes it. */
	struct q7_tensor_desc dst;
	/* Bytes past the destination's last byte that are the caller's and no
	 * tensor's: with Q7_RED_ZONE or more, the in-process host modes make
	 * them a red zone the runtime checks after the kernel (a write past
	 * get_dst_tensor() is then an error, not the caller's memory
	 * overwritten). The other modes keep their own. */
	size_t dst_room;
	/* The destination was just made for this call (a new output tensor):
	 * its bytes are no one's, and the emulated core starts it as zeros
	 * instead of being sent them (reading them would fault in every page
	 * of a fresh allocation). 0: its bytes go to the core as they are. */
	bool dst_fresh;
	/* A fresh destination starts as the second pattern, every bit of the
	 * first flipped (q7_run_uninit_byte): the uninitialised-output
	 * check's second run (q7_engine_opts.check_uninit). */
	bool fill_second;
	/* This call under the uninitialised-output check, as
	 * q7_engine_opts.check_uninit puts every call. */
	bool check_uninit;
	/* The emulated target's settings for this call; 0 takes the engine's
	 * (or the session's). The host target takes the engine's always. */
	unsigned cores;           /* 0, or the engine's count: another is refused */
	double timeout_s;         /* the call's time limit (the first one includes the start) */
	size_t heap_size;         /* the heap arena's bytes */
};

/* What a call gave: the status, the runtime's message, the returned
 * tensor. */
struct q7_run_result {
	int status;          /* enum q7_status, or -1: the loader failed */
	/* Why it failed; with Q7_STATUS_OK, empty or the runtime's warning. */
	char message[Q7_MESSAGE_SIZE];
	/* The result. data: a host address, of out_data, or of the call's
	 * destination when it had one (the engine; out_data then NULL). */
	struct q7_tensor_desc out;
	void *out_data;      /* malloc'd contiguous copy of the output */
	size_t out_bytes;
	unsigned switched_stack; /* any core ran on a switched stack */
	/* A kernel that changed its input: the argument (1-based; 0: none)
	 * and the first byte that changed. The target sets them with the
	 * status and a message the engine then words with the argument's
	 * name. The caller's tensor is as it was before the call. */
	unsigned changed_arg;
	uint64_t changed_at;
	/* ... or wrote past its end, which is changed_bytes long (a red zone
	 * after the input: q7_run_inputs_zones). */
	bool changed_past_end;
	uint64_t changed_bytes;
};

/* Frees result->out_data (and forgets it); the rest stays readable. */
void q7_run_result_free(struct q7_run_result *result);

/* Opens lib (the path given to -o at link time: an image or a multicore
 * manifest) for o (NULL: host, the library's cores, defaults). The images
 * are loaded now (host), or checked to exist (emulated). 0 and *out, or
 * -1 with err's message set (support.h's carrier). */
int q7_engine_open(const char *lib, const struct q7_engine_opts *o, struct q7_engine **out,
                   struct q7_err *err);
void q7_engine_close(struct q7_engine *e);
/* q7_engine_close for a process about to exit (q7-run): an in-process
 * host library is left loaded (q7_host_close_at_exit, host.h). */
void q7_engine_close_at_exit(struct q7_engine *e);

unsigned q7_engine_cores(const struct q7_engine *e);
/* The emulated target: while p is set (NULL ends it), each call runs in
 * a QEMU of its own with its instruction trace, its stacks added to p
 * under node parent (emu_profile.h); the engine's session is left alone.
 * p stays the caller's. */
void q7_engine_profile(struct q7_engine *e, struct q7_prof *p, unsigned parent);
/* The target's row (target.h): its name ("host", "emulated"), ... */
struct q7_target;
const struct q7_target *q7_engine_target_row(const struct q7_engine *e);
/* Its kernels run in another process (QEMU, an isolated worker): Ctrl-C
 * can stop a call. */
bool q7_engine_apart(const struct q7_engine *e);

/* Lists the library's ops (once; on the emulated target that is one run
 * of the core). The number of ops, or -1 with err set. */
int q7_engine_list(struct q7_engine *e, struct q7_err *err);
/* Op i's kernel name ("relu_forward") and TorchScript schema
 * ("my_ops::relu_forward(Tensor t_in) -> Tensor"), after q7_engine_list. */
const char *q7_engine_op_name(const struct q7_engine *e, unsigned i);
const char *q7_engine_op_schema(const struct q7_engine *e, unsigned i);

/* Runs c on every core (cpu_id 0..cores-1, one after another, over one
 * destination). Returns 0 when the op ran (result->status Q7_STATUS_OK;
 * a non-empty result->message is then the runtime's warning, e.g. that
 * the kernel returned a tensor other than get_dst_tensor()); else 1 with
 * result->status and result->message set. */
int q7_engine_call(struct q7_engine *e, const struct q7_call *c, struct q7_run_result *result);

#endif
