/* run/host_iso: the isolated host mode (engine.h, Q7_HOST_ISOLATED;
 * docs/runtime.md, "The run engine"). The call's frames, tensors and heap
 * arena lie in memory both processes map at the same address, so nothing
 * goes through a pipe but a sequence number.
 *
 * Memory: a q7_iso owns its worker, the shared memory and its
 * descriptors; q7_iso_close ends and frees them all. */
#ifndef Q7_RUN_HOST_ISO_H
#define Q7_RUN_HOST_ISO_H

#include <stddef.h>

#include "engine.h"

struct q7_iso;

/* Starts a worker that loads paths[core] for each of cores (the paths are
 * borrowed until q7_iso_close). 0 and *out, or -1 with err set ("<path>:
 * cannot load: ..."). */
int q7_iso_open(char *const *paths, unsigned cores, size_t heap_size,
                const struct q7_engine_opts *o, struct q7_iso **out, struct q7_err *err);
/* Runs c on every core in the worker (q7_host_call's contract; c already
 * checked by q7_host_call_check). */
int q7_iso_call(struct q7_iso *s, const struct q7_call *c, struct q7_run_result *r);
void q7_iso_close(struct q7_iso *s);

#endif
