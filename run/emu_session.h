/* A persistent emulated core: one qemu-system-xtensa that boots once,
 * places a library's images (one, or one per core) once, and then runs
 * any number of calls, each in milliseconds instead of a QEMU start-up.
 * runtime/include/q7/boot.h is the protocol; docs/emulated.md the story.
 *
 *     struct q7_emu_config cfg;
 *     q7_emu_config_init(&cfg, "libops.so", 8);   // + the environment
 *     struct q7_emu_session *s;
 *     char why[Q7_MESSAGE_SIZE];
 *     if (q7_emu_open(&cfg, &s, &Q7_ERR_OF(why)) != 0) { report why; }
 *     struct q7_run_result r;
 *     q7_emu_call(s, &req, &r); ... q7_run_result_free(&r);  // any number
 *     q7_emu_close(s);
 *
 * Ownership, failures, processes and signals: docs/emulated.md, "The
 * session API". A kernel's own error (TORCH_CHECK, bad arguments, no such
 * op) leaves the session running; after QEMU stops, the next call's new
 * one runs the images' constructors again, as after a reload. The boot
 * program's time limit, which ends a kernel spinning after this process
 * died, is the call's time-out + 2 s. */
#ifndef Q7_EMU_SESSION_H
#define Q7_EMU_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "support.h" /* struct q7_err, Q7_ERR_OF */

struct q7_emu_session;

struct q7_emu_config {
	const char *lib;      /* the image or multicore manifest given to -o */
	unsigned cores;       /* 1..8: cores each call runs (cpu_count) */
	/* lib's images, one per core, as q7_run_images (run_image.h) read them;
	 * NULL: read from lib at open. */
	const char *const *images;
	double timeout_s;     /* per call, boot included; 0: Q7_DEFAULT_TIMEOUT_S */
	const char *qemu;     /* qemu-system-xtensa; NULL: on PATH */
	const char *boot;     /* q7boot.elf; NULL: <prefix>/lib/q7cc/xtensa/ */
	bool forward_signals; /* support/proc's signal forwarding while busy */
	/* Per call: wall time, cycles and stack, one line each, written
	 * here; NULL: none. q7_emu_config_init: stderr under Q7CC_EMU_STATS. */
	FILE *stats;
	bool icount;          /* qemu -icount: exact instruction counts */
	unsigned unchecked;   /* safety checks off (Q7_UNCHECKED_*, engine.h); Q7CC_UNCHECKED */
	bool trace;           /* QEMU's block log for a profile (emu_trace.h), in the
	                       * session's folder */
	/* The core may open host files through QEMU's semihosting (SIMCALL
	 * open); off, QEMU starts confined (emu_confine.h). */
	bool semihosting_files;
	/* Non-NULL: once *interrupted is set (by the caller's signal handler,
	 * e.g. for Ctrl-C in Python), a call stops within SLICE_S (0.25 s):
	 * QEMU is stopped, the call fails "interrupted", the next one boots
	 * it again. */
	const volatile sig_atomic_t *interrupted;
};

/* Statistics of a session, for benchmarks and tests. */
struct q7_emu_stats {
	unsigned boots;      /* QEMU starts (1 + restarts after failures) */
	unsigned calls;      /* calls made */
	double last_call_s;  /* wall time of the last call (a boot included) */
	long pid;            /* QEMU's pid, 0 when none is running */
};

/* Fills cfg for lib and cores with the defaults and the environment:
 * Q7CC_QEMU (a path), Q7CC_EMU_STATS, Q7CC_EMU_ICOUNT,
 * Q7CC_SEMIHOSTING_FILES; forward_signals on.
 * cfg keeps pointing at lib. */
void q7_emu_config_init(struct q7_emu_config *cfg, const char *lib, unsigned cores);

/* Checks and prelinks the images, writes the boot files and starts QEMU
 * (it boots while the caller goes on; the first call waits for it).
 * 0 with *out set, or -1 with *out NULL and err's message set
 * (support.h's carrier), as q7_engine_open. */
int q7_emu_open(const struct q7_emu_config *cfg, struct q7_emu_session **out,
                struct q7_err *err);

/* Runs req->op on every core of the session, one after another over the
 * same tensor data (req->cores must be 0 or the session's;
 * req->timeout_s, when set, overrides the session's for this call;
 * req->heap_size as in engine.h). With a destination the result is its
 * bytes, as the host target leaves them: res->out describes them at
 * req->dst.data, and res->out_data is NULL (no copy of a tensor that may
 * be gigabytes); without one, res->out_data holds the result. Either way
 * res->out.data is where it is. 0, or 1 with res->status and
 * res->message set. res is overwritten. */
int q7_emu_call(struct q7_emu_session *s, const struct q7_call *req,
                struct q7_run_result *res);

/* One call on the emulated target as q7-run made it before the engine
 * kept sessions (emulated.c): a session for lib opened, called once,
 * closed; with Q7CC_EMU_JOBS=N and several cores, the race check. images
 * as in q7_emu_config (NULL: read from lib, once). 0 when
 * the op ran and returned Q7_STATUS_OK; else 1 after filling
 * result->status and result->message (the caller prints them). */
int q7_run_emulated(const char *lib, const char *const *images, const struct q7_call *req,
                    struct q7_run_result *result);

/* Stops QEMU (end of file, then SIGKILL if it lingers), reaps it, removes
 * the session's files and frees s. NULL is fine. */
void q7_emu_close(struct q7_emu_session *s);
/* In a forked child, the copy of its parent's session s: frees it
 * without stopping QEMU or removing files, which stay the parent's. */
void q7_emu_disown(struct q7_emu_session *s);

/* The session's counters. */
void q7_emu_get_stats(const struct q7_emu_session *s, struct q7_emu_stats *st);

#endif
