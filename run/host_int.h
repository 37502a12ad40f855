/* run/host_int: what the host target's two sides share, the
 * in-process modes (host.c) and the isolated one's child (host_iso.c):
 * loading the images, a core's outcome, the call's result.
 *
 * Memory: a q7_host_images owns its handles and copies; the paths are
 * borrowed from whoever filled them in. */
#ifndef Q7_RUN_HOST_INT_H
#define Q7_RUN_HOST_INT_H

#include <stdint.h>

#include "engine.h"
#include "host_fault.h"

typedef int (*q7_entry_fn)(struct q7_frame *);

/* How kernels print (frame->write_fn): to this process's stdout, or
 * stderr for fd 2. */
int q7_host_write(int fd, const void *buf, uint32_t len);

/* The lowest usable address of the calling thread's stack (1 when
 * unknown), and the stack limit a kernel called from there runs with
 * (frame->stack_limit): a device core's stack below the stack pointer,
 * never below low, so kernels that need more take the runtime's
 * stack-switch path as on the device. */
uintptr_t q7_host_stack_low(void);
uint64_t q7_host_stack_limit(uintptr_t low);

/* Each core's loaded image. */
struct q7_host_images {
	unsigned cores;
	const char *paths[Q7_NUM_CORES];
	void *handles[Q7_NUM_CORES];
	int copies[Q7_NUM_CORES]; /* the memfd a core's private copy was loaded from; -1 */
	q7_entry_fn entries[Q7_NUM_CORES];
	struct q7_fault faults[Q7_NUM_CORES]; /* each core's image, for a fault's report */
};

/* Loads paths[0..cores) (checked before by q7_host_elf_check), each
 * core that runs a file again a copy of it (docs/runtime.md, "The run
 * engine"). *loading is the core being loaded (for a report of a crash
 * inside the loader). 0, or -1 with "<path>: cannot load: <why>" in err. */
int q7_host_images_load(struct q7_host_images *im, unsigned cores, char *const *paths,
                        volatile unsigned *loading, struct q7_err *err);

/* After core `core` of `cores` ran with frame f: 0 to go on; 1 when the
 * op failed there (r's status and message set: "core N: " before the
 * runtime's message with several cores). Keeps the first warning. */
int q7_host_core_done(struct q7_frame *f, unsigned core, unsigned cores, struct q7_run_result *r);
/* After every core, f the last one's frame: the result. With a
 * destination, the runtime left it there (dst_data, c->dst.data's bytes
 * as this process sees them); else the returned tensor is copied from
 * the one of the nrange ranges [lo, hi) it lies in (the memory the
 * runtime makes tensors in, as this process sees it), so that a shape
 * larger than its memory never copies the rest of this process's. 0, or
 * 1 with r set. */
int q7_host_finish(const struct q7_call *c, const struct q7_frame *f, uint64_t dst_data,
                   const uint64_t (*range)[2], unsigned nrange, struct q7_run_result *r);

#endif
