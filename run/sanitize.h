/* run/sanitize: q7-run --sanitize (docs/runtime.md, "q7-run"): q7-run
 * starts itself again with the sanitizers' runtimes preloaded,
 * in-process, and a sanitizer's report ends with one line naming the op.
 * Of the options set first: detect_leaks=0 since the runtime's arena is
 * released by resetting it, never freed; halt_on_error=1 so that an
 * error stops the op, as ASan's do. */
#ifndef Q7_RUN_SANITIZE_H
#define Q7_RUN_SANITIZE_H

#include <stdbool.h>

#include "support.h"

/* True in the q7-run that q7_sanitize_exec started. */
bool q7_sanitize_started(void);
/* Starts q7-run again (argc: q7_run_main's, the tail of this process's
 * arguments), in-process, with the
 * sanitizer runtimes the images need preloaded: returns only on failure,
 * -1 with err set ("<image>: not built with the sanitizers: ..."). */
int q7_sanitize_exec(const struct q7_strvec *images, int argc, struct q7_err *err);
/* In the started q7-run: a sanitizer that stops the process says, after
 * its report, "q7-run: error: <op>: ...". */
void q7_sanitize_name_op(const char *op);

#endif
