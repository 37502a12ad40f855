/* Kernels of existing Neuron projects: the third argument of each
 *   m.def("op", &shape_fn, "compute_fn");
 * inside NEURON_LIBRARY(ns, m) { ... }. NEURON_LIBRARY is a macro of the
 * vendor's torch headers that our headers may not define, so the block is
 * read from the raw tokens of the TU's own files, not from the AST. */
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

struct toks {
	CXTranslationUnit tu;
	CXToken *t;
	unsigned n;
};

static bool is(const struct toks *ts, unsigned i, CXTokenKind kind, const char *text)
{
	if (i >= ts->n || clang_getTokenKind(ts->t[i]) != kind)
		return false;
	if (!text)
		return true;
	CXString s = clang_getTokenSpelling(ts->tu, ts->t[i]);
	bool eq = strcmp(clang_getCString(s), text) == 0;
	clang_disposeString(s);
	return eq;
}

static char *spell(const struct toks *ts, unsigned i)
{
	return q7c_take(clang_getTokenSpelling(ts->tu, ts->t[i]));
}

/* At the '(' of m.def(...): adds the third argument when it is a plain
 * string literal. Returns the index after the call's ')'. */
static unsigned read_def(const struct toks *ts, unsigned i, struct q7_strvec *names)
{
	int depth = 0;
	unsigned arg = 0, arg_start = i + 1;
	for (; i < ts->n; i++) {
		if (is(ts, i, CXToken_Punctuation, "(") || is(ts, i, CXToken_Punctuation, "{") ||
		    is(ts, i, CXToken_Punctuation, "[")) {
			depth++;
			continue;
		}
		bool close = is(ts, i, CXToken_Punctuation, ")") || is(ts, i, CXToken_Punctuation, "}") ||
		             is(ts, i, CXToken_Punctuation, "]");
		bool comma = depth == 1 && is(ts, i, CXToken_Punctuation, ",");
		if (comma || (close && depth == 1)) {
			if (arg == 2 && i == arg_start + 1 && is(ts, arg_start, CXToken_Literal, NULL)) {
				char *lit = spell(ts, arg_start);
				size_t n = strlen(lit);
				if (n >= 2 && lit[0] == '"' && lit[n - 1] == '"') {
					lit[n - 1] = '\0';
					q7_sv_add(names, lit + 1);
				}
				free(lit);
			}
			arg++;
			arg_start = i + 1;
		}
		if (close && --depth == 0)
			return i + 1;
	}
	return i;
}

/* At NEURON_LIBRARY: reads "( ns , m ) { ... }" and every m.def inside. */
static unsigned read_library(const struct toks *ts, unsigned i, struct q7_strvec *names)
{
	if (!(is(ts, i + 1, CXToken_Punctuation, "(") && is(ts, i + 2, CXToken_Identifier, NULL) &&
	      is(ts, i + 3, CXToken_Punctuation, ",") && is(ts, i + 4, CXToken_Identifier, NULL) &&
	      is(ts, i + 5, CXToken_Punctuation, ")") && is(ts, i + 6, CXToken_Punctuation, "{")))
		return i + 1;
	char *m = spell(ts, i + 4);
	int depth = 1;
	for (i += 7; i < ts->n && depth > 0;) {
		if (is(ts, i, CXToken_Punctuation, "{")) {
			depth++;
			i++;
		} else if (is(ts, i, CXToken_Punctuation, "}")) {
			depth--;
			i++;
		} else if (is(ts, i, CXToken_Identifier, m) && is(ts, i + 1, CXToken_Punctuation, ".") &&
		           is(ts, i + 2, CXToken_Identifier, "def") &&
		           is(ts, i + 3, CXToken_Punctuation, "(")) {
			i = read_def(ts, i + 3, names);
		} else {
			i++;
		}
	}
	free(m);
	return i;
}

static void scan_file(CXTranslationUnit tu, CXFile file, struct q7_strvec *names)
{
	size_t size;
	const char *text = clang_getFileContents(tu, file, &size);
	if (!text || !memmem(text, size, "NEURON_LIBRARY", 14))
		return;
	CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
	                                   clang_getLocationForOffset(tu, file, (unsigned)size));
	struct toks ts = {.tu = tu};
	clang_tokenize(tu, all, &ts.t, &ts.n);
	for (unsigned i = 0; i < ts.n;) {
		if (is(&ts, i, CXToken_Identifier, "NEURON_LIBRARY"))
			i = read_library(&ts, i, names);
		else
			i++;
	}
	clang_disposeTokens(tu, ts.t, ts.n);
}

struct files {
	CXFile f[256];
	size_t n;
};

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                            CXClientData data)
{
	(void)stack;
	(void)depth;
	struct files *fs = data;
	if (fs->n < sizeof fs->f / sizeof fs->f[0])
		fs->f[fs->n++] = file;
}

void q7c_neuron_names(CXTranslationUnit tu, struct q7_strvec *names)
{
	struct files fs = {.n = 0};
	clang_getInclusions(tu, visit_inclusion, &fs);
	for (size_t i = 0; i < fs.n; i++) {
		CXSourceLocation start = clang_getLocationForOffset(tu, fs.f[i], 0);
		if (!clang_Location_isInSystemHeader(start))
			scan_file(tu, fs.f[i], names);
	}
}
