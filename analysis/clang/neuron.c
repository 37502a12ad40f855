/* Kernels of existing Neuron projects: the third argument of each
 *   m.def("op", &shape_fn, "compute_fn");
 * inside NEURON_LIBRARY(ns, m) { ... }. NEURON_LIBRARY is a macro of the
 * vendor's torch headers that our headers may not define, so the block is
 * read from the raw tokens of the TU's own files, not from the AST. A fn
 * defined in another TU becomes a request the link resolves
 * (analysis/resolve.c). */
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

static void add_request(struct q7c_requests *rs, const char *ns, char *fn, char *shape,
                        char *op, CXSourceLocation loc, CXSourceLocation def_loc)
{
	Q7_GROW(rs->v, rs->cap, rs->n + 1);
	struct q7c_request *r = &rs->v[rs->n++];
	struct q7_kplace def = q7c_place_loc(def_loc);
	r->d = (struct q7_neuron_def){.ns = q7_xstrdup(ns), .op = op, .fn = fn, .shape = shape,
	                              .file = (char *)def.file, .line = def.line, .col = def.col};
	r->at = q7c_place_loc(loc);
}

/* A plain string literal's text without its quotes, else NULL. */
static char *string_text(const struct toks *ts, unsigned i)
{
	if (!is(ts, i, CXToken_Literal, NULL))
		return NULL;
	char *lit = spell(ts, i);
	size_t n = strlen(lit);
	char *text = n >= 2 && lit[0] == '"' && lit[n - 1] == '"' ? q7_xstrndup(lit + 1, n - 2) : NULL;
	free(lit);
	return text;
}

/* The second argument's function name: "&name", "name", "&ns::name". */
static char *shape_name(const struct toks *ts, unsigned from, unsigned to)
{
	struct q7_strbuf b = {0};
	unsigned i = from;
	if (i < to && is(ts, i, CXToken_Punctuation, "&"))
		i++;
	for (; i < to; i++) {
		bool ident = is(ts, i, CXToken_Identifier, NULL);
		if (!ident && !is(ts, i, CXToken_Punctuation, "::")) {
			q7_sb_free(&b);
			return q7_xstrdup("");
		}
		char *s = spell(ts, i);
		q7_sb_add(&b, s);
		free(s);
	}
	return b.s ? q7_sb_take(&b) : q7_xstrdup("");
}

/* At the '(' of m.def(...) (m at token at): adds the third argument when
 * it is a plain string literal. Returns the index after the call's ')'. */
static unsigned read_def(const struct toks *ts, unsigned at, unsigned i, const char *ns,
                         struct q7c_requests *rs)
{
	unsigned shape_from = 0, shape_to = 0;
	char *op = NULL;
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
			if (arg == 0 && i == arg_start + 1)
				op = string_text(ts, arg_start);
			char *fn = arg == 2 && i == arg_start + 1 ? string_text(ts, arg_start) : NULL;
			if (fn && *fn) {
				add_request(rs, ns, fn, shape_name(ts, shape_from, shape_to),
				            op ? op : q7_xstrdup(""),
				            clang_getTokenLocation(ts->tu, ts->t[arg_start]),
				            clang_getTokenLocation(ts->tu, ts->t[at]));
				op = NULL;
			} else {
				free(fn);
			}
			if (arg == 1) {
				shape_from = arg_start;
				shape_to = i;
			}
			arg++;
			arg_start = i + 1;
		}
		if (close && --depth == 0) {
			free(op);
			return i + 1;
		}
	}
	free(op);
	return i;
}

/* At NEURON_LIBRARY: reads "( ns , m ) { ... }" and every m.def inside. */
static unsigned read_library(const struct toks *ts, unsigned i, struct q7c_requests *rs)
{
	if (!(is(ts, i + 1, CXToken_Punctuation, "(") && is(ts, i + 2, CXToken_Identifier, NULL) &&
	      is(ts, i + 3, CXToken_Punctuation, ",") && is(ts, i + 4, CXToken_Identifier, NULL) &&
	      is(ts, i + 5, CXToken_Punctuation, ")") && is(ts, i + 6, CXToken_Punctuation, "{")))
		return i + 1;
	char *ns = spell(ts, i + 2);
	char *m = spell(ts, i + 4);
	int depth = 1;
	for (i += 7; i < ts->n && depth > 0;) {
		if (is(ts, i, CXToken_Identifier, m) && is(ts, i + 1, CXToken_Punctuation, ".") &&
		    is(ts, i + 2, CXToken_Identifier, "def") && is(ts, i + 3, CXToken_Punctuation, "(")) {
			i = read_def(ts, i, i + 3, ns, rs);
		} else {
			depth += is(ts, i, CXToken_Punctuation, "{") - is(ts, i, CXToken_Punctuation, "}");
			i++;
		}
	}
	free(m);
	free(ns);
	return i;
}

/* The index of the ')' that closes the '(' at i, else ts->n. */
static unsigned close_paren(const struct toks *ts, unsigned i)
{
	int depth = 0;
	for (; i < ts->n; i++) {
		if (is(ts, i, CXToken_Punctuation, "("))
			depth++;
		else if (is(ts, i, CXToken_Punctuation, ")") && --depth == 0)
			return i;
	}
	return ts->n;
}

/* Whether the token before a name can end a declaration's return type
 * ("Tensor f(", "Tensor &f(", "ns::f(") rather than an expression's
 * operand ("return f(", "(f(", "= f("). */
static bool ends_a_type(const struct toks *ts, unsigned i)
{
	static const char *const not_types[] = {"return", "else", "do",     "case", "throw",
	                                        "new",    "delete", "sizeof", "co_return"};
	if (is(ts, i, CXToken_Identifier, NULL))
		return true;
	if (is(ts, i, CXToken_Keyword, NULL)) {
		for (size_t k = 0; k < sizeof not_types / sizeof not_types[0]; k++)
			if (is(ts, i, CXToken_Keyword, not_types[k]))
				return false;
		return true;
	}
	return is(ts, i, CXToken_Punctuation, ">") || is(ts, i, CXToken_Punctuation, "&") ||
	       is(ts, i, CXToken_Punctuation, "&&") || is(ts, i, CXToken_Punctuation, "*") ||
	       is(ts, i, CXToken_Punctuation, "::");
}

/* Where the file defines the function named shape ("ns::f": f): its
 * name followed by its parameters and a body ("Tensor f(...) {", keywords
 * such as const or noexcept between). The first such; none: file NULL. */
static struct q7_kplace shape_definition(const struct toks *ts, const char *shape)
{
	struct q7_kplace none = {0};
	const char *name = strrchr(shape, ':');
	name = name ? name + 1 : shape;
	if (!*name)
		return none;
	for (unsigned i = 1; i + 1 < ts->n; i++) {
		if (!is(ts, i, CXToken_Identifier, name) || !is(ts, i + 1, CXToken_Punctuation, "(") ||
		    !ends_a_type(ts, i - 1))
			continue;
		unsigned k = close_paren(ts, i + 1) + 1;
		while (k < ts->n && (is(ts, k, CXToken_Keyword, NULL) || is(ts, k, CXToken_Identifier, NULL)))
			k++;
		if (is(ts, k, CXToken_Punctuation, "{"))
			return q7c_place_loc(clang_getTokenLocation(ts->tu, ts->t[i]));
	}
	return none;
}

static void scan_file(CXTranslationUnit tu, CXFile file, struct q7c_requests *rs)
{
	size_t size;
	const char *text = clang_getFileContents(tu, file, &size);
	if (!text || !memmem(text, size, "NEURON_LIBRARY", 14))
		return;
	CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
	                                   clang_getLocationForOffset(tu, file, (unsigned)size));
	struct toks ts = {.tu = tu};
	size_t first = rs->n;
	clang_tokenize(tu, all, &ts.t, &ts.n);
	for (unsigned i = 0; i < ts.n;) {
		if (is(&ts, i, CXToken_Identifier, "NEURON_LIBRARY"))
			i = read_library(&ts, i, rs);
		else
			i++;
	}
	for (size_t k = first; k < rs->n; k++) {
		struct q7_kplace s = shape_definition(&ts, rs->v[k].d.shape);
		rs->v[k].d.shape_file = (char *)s.file;
		rs->v[k].d.shape_line = s.line;
	}
	clang_disposeTokens(tu, ts.t, ts.n);
}

struct inclusions {
	CXTranslationUnit tu;
	struct q7c_requests *rs;
};

/* Every file the TU includes, the user's read (system headers, however
 * many, are not). */
static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                            CXClientData data)
{
	(void)stack;
	(void)depth;
	struct inclusions *in = data;
	if (!clang_Location_isInSystemHeader(clang_getLocationForOffset(in->tu, file, 0)))
		scan_file(in->tu, file, in->rs);
}

void q7c_neuron_requests(CXTranslationUnit tu, struct q7c_requests *rs)
{
	struct inclusions in = {tu, rs};
	clang_getInclusions(tu, visit_inclusion, &in);
}

void q7c_requests_free(struct q7c_requests *rs)
{
	for (struct q7c_request *r = rs->v; r < rs->v + rs->n; r++) {
		free(r->d.ns);
		free(r->d.op);
		free(r->d.fn);
		free(r->d.shape);
		free(r->d.file);
		free(r->d.shape_file);
		q7c_place_free(&r->at);
	}
	free(rs->v);
	memset(rs, 0, sizeof *rs);
}
