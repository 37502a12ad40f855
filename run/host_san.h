/* run/host_san: the host target's sanitized mode (engine.h,
 * Q7_HOST_SANITIZED): each call is a `q7-run --sanitize` of its own
 * (sanitize.h; docs/runtime.md, "The run engine"), so that the caller
 * (Python) need not preload the sanitizers' runtimes. */
#ifndef Q7_RUN_HOST_SAN_H
#define Q7_RUN_HOST_SAN_H

#include "engine.h"

/* Runs c on one core of lib (with c->check_uninit, q7-run --check-uninit:
 * twice, engine.h). 0 when the op ran (r->out describes the result in
 * c->dst, which a sanitized call needs), else 1 with r set. */
int q7_san_call(const char *lib, const struct q7_call *c, const volatile sig_atomic_t *interrupted,
                struct q7_run_result *r);

#endif
