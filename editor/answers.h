/* editor/answers: what q7cc-clangd adds to the answers the editor gets,
 * from a document's last analysis: the schema in hover, the code lenses,
 * the quick fixes of fix.h (docs/editors.md, "Editors").
 *
 * Memory: the functions add to the JSON they are given; new objects are
 * the caller's. */
#ifndef Q7_EDITOR_ANSWERS_H
#define Q7_EDITOR_ANSWERS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* An open document, as the relay keeps it. */
struct q7_doc {
	char *uri, *path; /* path: NULL for a URI that is no file:// */
	char *real;       /* path with its links resolved; NULL: not on disk */
	char *lang;       /* the languageId of didOpen */
	long version;
	char *text;
	size_t len;
	long long due;        /* when to analyse (q7_now_ms), 0: not wanted */
	long long changed;    /* the last change (q7_now_ms) */
	json_object *q7;      /* q7cc's LSP diagnostics of the last analysis */
	long q7_version;      /* the version of the text they are of */
	json_object *clangd;  /* clangd's last publishDiagnostics params */
	json_object *kernels; /* lint.h: q7_lint_kernels */
	char *library;        /* the namespace of the library its compile
	                       * command's CMake target makes, or NULL */
	char *target;         /* that target (ccdb.h), or NULL */
	bool requests;        /* its text has NEURON_LIBRARY m.defs */
};

/* The byte offset in d's text of the LSP Position pos (text.h). */
size_t q7_doc_offset(const struct q7_doc *d, json_object *pos);
/* clangd's hover answer (a whole response) to a request of params, with
 * the schema of the kernel whose name is at its position added to its
 * contents. false (and the answer unchanged) when no kernel's name is
 * there. */
bool q7_answer_hover(const struct q7_doc *d, json_object *params, json_object *answer);
/* The code lenses of d's kernels: a new array. */
json_object *q7_answer_lenses(const struct q7_doc *d);
/* Appends to the result of clangd's codeAction answer (a whole response)
 * to a request of params the quick fixes of q7cc's findings on the lines
 * of its range, when the findings are of the text as it is. */
void q7_answer_actions(const struct q7_doc *d, json_object *params, json_object *answer);

#endif
