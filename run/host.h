/* The run engine's host target (host.c): a host-profile library's images,
 * checked (host_elf.c) and loaded once, each core with its own copy of an
 * image's globals, then called as often as asked: in this process,
 * directly on the caller's thread or guarded, or isolated in a child
 * process (host_iso.c); engine.h, enum q7_host_mode.
 *
 * Memory: a q7_host owns everything it opened; q7_host_close frees it. */
#ifndef Q7_RUN_HOST_H
#define Q7_RUN_HOST_H

#include "engine.h"
#include "support.h"

struct q7_host;

/* Loads images->v[i] for core i (images->n cores, 1..8; the same path may
 * repeat) as o says (its host_mode, heap_size, timeout_s, guard and
 * forward_signals). 0 and *out, or -1 with err set. */
int q7_host_open(const struct q7_strvec *images, const struct q7_engine_opts *o,
                 struct q7_host **out, struct q7_err *err);
/* Runs c on every core (engine.h, q7_engine_call). */
int q7_host_call(struct q7_host *h, const struct q7_call *c, struct q7_run_result *r);
void q7_host_close(struct q7_host *h);
/* q7_host_close for a process about to exit: an in-process library stays
 * loaded, with its frame and heap arena, since a thread the kernel
 * started may still run its code and write its frame (docs/robustness.md,
 * "A returned tensor larger than its memory"; e2e.runtime.host_faults,
 * rewrite_frame); the exit takes them. An isolated worker ends as
 * q7_host_close ends it. */
void q7_host_close_at_exit(struct q7_host *h);

#endif
