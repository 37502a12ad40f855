/* editor/relay: q7cc-clangd's relay between the editor and clangd.
 *
 * One thread, one poll loop over the editor's stdin and stdout, clangd's
 * socket and the lint child's output: every message is passed on as it
 * arrives (the bytes as they were, but for the few the relay adds to),
 * and writes are queued (rpc.h), so nothing waits for an analysis, for
 * clangd, or for an editor that does not read.
 *
 * What the relay adds: docs/editors.md's opening list (the lint's timing:
 * its "When"; clangd's restart and end: "When things go wrong"). */
#ifndef Q7_EDITOR_RELAY_H
#define Q7_EDITOR_RELAY_H

#include "support.h"

struct q7_relay_opts {
	const char *clangd;             /* clangd's path or name (PATH) */
	const struct q7_strvec *extra;  /* more options for clangd */
	const char *ccdir;              /* --compile-commands-dir, or NULL */
	int debounce_ms;
	int limit_ms; /* an analysis that takes longer is ended, so that a
	               * stuck one does not hold up the next */
};

/* clangd's command line: o->clangd, --query-driver for the q7cc beside
 * q7cc-clangd (q7cc* and xt-clang++) (its compile lines lack q7cc's include folders: docs/
 * driver.md, "clangd and clang-tidy"), --compile-commands-dir, o->extra. */
void q7_relay_clangd_argv(const struct q7_relay_opts *o, struct q7_strvec *argv);
/* Serves until the editor says exit or goes. The exit code: 0 after
 * shutdown and exit, 1 otherwise (as LSP asks). */
int q7_relay_run(const struct q7_relay_opts *o);

#endif
