/* editor/fix: quick fixes for the lint's findings whose fix is mechanical,
 * as edits of the editor's text:
 *   q7-unsupported-param, a parameter of fix.c's table's types by pointer
 *       or by reference to non-const (docs/editors.md, "Quick fixes");
 *   q7-internal-linkage, `static` on the kernel's line: `static` removed;
 *   q7-inline, `inline` on the kernel's line: `inline` removed.
 * Only the rule's name, the names the finding's message quotes (the
 * kernel's, the parameter's: the place must be theirs, or there is no
 * fix) and the text decide: which findings there are is the analysis's
 * business (analysis/), so this stays one table of edits by rule. Other
 * findings (a kernel in an unnamed namespace, a template,
 * a container parameter) need a person. */
#ifndef Q7_EDITOR_FIX_H
#define Q7_EDITOR_FIX_H

#include <stdbool.h>
#include <stddef.h>

struct q7_fix {
	char title[96];
	size_t from, to;  /* the bytes of the text replaced */
	const char *with; /* by this (a literal) */
	bool preferred;   /* known to leave no finding (isPreferred) */
};

/* The fix for rule's finding (its message) at byte offset at (the
 * parameter's or the kernel's name) in text[0..len); false when there is
 * none, or when the name at at is not the one the message quotes. */
bool q7_fix_find(const char *rule, const char *message, const char *text, size_t len, size_t at,
                 struct q7_fix *fix);

#endif
