/* editor/lint: q7cc's analysis of the editor's text, in a child.
 *
 * Owns: running `q7cc --q7-lint --q7-format=json` (the compile
 * command's driver and flags, ccdb.h) in the compile's folder with its
 * output on a pipe that the server's poll loop reads, so that clangd's
 * messages never wait for it; cancelling it; and turning its JSON into
 * LSP diagnostics (docs/editors.md, "What the editor gets") and kernels
 * for hover. The driver analyses through the resident analysis server
 * (analysis/server.c), and the rules and their severities stay
 * analysis/'s: nothing here judges a kernel. */
#ifndef Q7_EDITOR_LINT_H
#define Q7_EDITOR_LINT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <sys/types.h>

#include "support.h"

struct q7_lint_job {
	pid_t pid; /* 0: none */
	int fd;    /* its stdout, non-blocking */
	struct q7_strbuf out;
	char *uri;    /* the document it analyses */
	char *text;   /* the file of its text, a registered temporary: removed
	               * (and its slot freed) when the job ends */
	long version; /* of the text it analyses */
	bool target;  /* --q7-print-schema of the text with its target's
	               * other sources (the link's checks), not --q7-lint */
	long long started;
};

/* Starts argv in dir, its stdout on j->fd (j new or cleared), stdin on
 * /dev/null, stderr ours (the editor's log). false (nothing started) when
 * it cannot. */
bool q7_lint_start(struct q7_lint_job *j, char *const *argv, const char *dir);
/* Reads what the child wrote. false once its output has ended: the child
 * is then reaped and j->out holds all of it. */
bool q7_lint_read(struct q7_lint_job *j);
/* Kills and reaps the child; j is then empty. */
void q7_lint_cancel(struct q7_lint_job *j);
/* Empties a finished job (its text file removed). */
void q7_lint_clear(struct q7_lint_job *j);

/* The text an analysis read: the file it was given (path, a temporary:
 * text[0..len)), the editor's URI of it and its path as the editor knows
 * it (shown, for messages). */
struct q7_lint_src {
	const char *path, *text;
	size_t len;
	const char *uri, *shown;
};
/* The LSP diagnostics of --q7-lint's JSON: those of src's file, placed
 * on the line of the text they are on (after #line,
 * q7_text_physical_line), without those that follow from libclang's own
 * errors (on an error's line; an invalid declaration in a text with
 * errors); the temporary's name in messages is the editor's, and the
 * notes after a finding (the other place of a duplicate kernel, say) are
 * its relatedInformation. A new array. */
json_object *q7_lint_diagnostics(const char *json, const struct q7_lint_src *src);
/* The findings of --q7-print-schema's JSON of src's text given with the
 * other sources of its CMake target: an m.def (NEURON_LIBRARY) of the
 * text naming a compute function that none of them defines, as the
 * link's q7-undefined-kernel. A new array. */
json_object *q7_lint_unresolved(const char *json, const struct q7_lint_src *src,
                                const char *target);
/* Whether --q7-lint's JSON has NEURON_LIBRARY m.defs. */
bool q7_lint_has_requests(const char *json);
/* Whether clangd's diagnostics (an array, or NULL) have an error whose
 * lines include the line of q7cc's finding: a half-written line whose
 * q7 findings would be a second report of one mistake (docs/editors.md,
 * "What the editor gets"). */
bool q7_lint_shadowed(json_object *finding, json_object *clangd);
/* The kernels ("ops") of --q7-lint's JSON that path (text[0..len))
 * defines: objects of name, namespace, schema, line (of the text, as for
 * the diagnostics) and column (1-based). A new array. */
json_object *q7_lint_kernels(const char *json, const char *path, const char *text, size_t len);

#endif
