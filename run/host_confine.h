/* run/host_confine: the memory an in-process host kernel runs on
 * (docs/runtime.md, "What a kernel may write"), so that the fault's
 * address names the region and the offset.
 *
 * Memory: a q7_confine owns both mappings; q7_confine_free unmaps them. */
#ifndef Q7_RUN_HOST_CONFINE_H
#define Q7_RUN_HOST_CONFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct q7_confine;

/* Reserves the heap arena (heap_size bytes, committed as touched) with a
 * gap on each side. NULL when the address space is not there. */
struct q7_confine *q7_confine_new(size_t heap_size);
void q7_confine_free(struct q7_confine *cf);
/* The heap arena's first byte. */
void *q7_confine_heap(const struct q7_confine *cf);

/* The call the kernel sees (*run): each tensor argument copied into a
 * read-only slot; the destination (when c has one and no input shares
 * its bytes) a slot of its own, filled with the uninitialised pattern
 * when c->dst_fresh or with the caller's bytes, and room after it
 * (run->dst_room). 0, or -1 when the address space is not there (then
 * *run is c). */
int q7_confine_enter(struct q7_confine *cf, const struct q7_call *c, struct q7_call *run);
/* After a call that ran (r OK): the rest of the destination's last page
 * checked, then its bytes copied into the caller's, r->out.data the
 * caller's again. 0, or 1 with r failed (nothing copied). */
int q7_confine_leave(struct q7_confine *cf, const struct q7_call *c, const struct q7_call *run,
                     struct q7_run_result *r);
/* Whether addr lies in the confinement's address space (a fault there is
 * the kernel's breach, not the process's). Async-signal-safe. */
bool q7_confine_owns(const struct q7_confine *cf, uint64_t addr);
/* A fault at addr (write: the access wrote) during op's call ("relu",
 * "core 3: relu"): r failed, its message naming the region and the offset
 * (an input's breach through r->changed_arg, for the engine to name). */
void q7_confine_fault(const struct q7_confine *cf, const char *op, uint64_t addr, bool write,
                      struct q7_run_result *r);

#endif
