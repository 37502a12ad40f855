/* The schema text: printed as TorchScript, read in TorchScript and in
 * the vendor's grammar. Both grammars, the names given to unnamed
 * parameters (arg<i>, as q7_ops_resolve names them) and reserved ones, and
 * which word wins are docs/lint-rules.md, "The schema text". The printed
 * TorchScript of what was read is what print(parse(s)) gives; a qualname's
 * one qualifier ("my_ops::relu") is the op's namespace (op->ns) too. */
#include "cxx.h"
#include "schema.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is_ident(const char *s)
{
	return s && q7_cxx_ident(s, strlen(s));
}

/* The identifiers TorchScript's schema parser takes as keywords (those a
 * C++ name can be; the others are C++ keywords too). */
static bool reserved(const char *s)
{
	static const char *const words[] = {"False", "None", "True", "as",   "assert", "def",
	                                    "del",   "elif", "global", "import", "in",   "is",
	                                    "pass",  "raise", "with"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(s, words[i]) == 0)
			return true;
	return false;
}

/* A name as TorchScript takes it; arg<i> when s is no identifier. */
static void add_name(struct q7_strbuf *out, const char *s, size_t i)
{
	if (!is_ident(s))
		q7_sb_addf(out, "arg%zu", i);
	else
		q7_sb_addf(out, "%s%s", s, reserved(s) ? "_" : "");
}

void q7_schema_print(const struct q7_op *op, const char *ns, struct q7_strbuf *out)
{
	if (op->ns && *op->ns)
		ns = op->ns;
	if (ns && is_ident(ns)) {
		add_name(out, ns, 0);
		q7_sb_add(out, "::");
	}
	add_name(out, op->name, 0);
	q7_sb_addc(out, '(');
	for (size_t i = 0; i < op->nparams; i++) {
		const struct q7_param *p = &op->params[i];
		q7_sb_addf(out, "%s%s ", i ? ", " : "", q7_kind_torch(p->kind));
		add_name(out, p->name, i);
	}
	q7_sb_add(out, ") -> ");
	if (op->ret_name && *op->ret_name) {
		q7_sb_addf(out, "(%s ", q7_kind_torch(op->ret));
		add_name(out, op->ret_name, 0);
		q7_sb_addc(out, ')');
	} else {
		q7_sb_add(out, q7_kind_torch(op->ret));
	}
}

enum tok { T_EOF, T_IDENT, T_SCOPE, T_LPAREN, T_RPAREN, T_COMMA, T_ARROW, T_BAD };

struct parser {
	const char *text;
	const char *p;   /* after the current token */
	enum tok tok;    /* the current token */
	const char *start;
	size_t len;
	struct q7_err *err;
	bool failed;      /* the first error is recorded */
	unsigned err_col; /* 1-based */
};

static void next(struct parser *ps)
{
	const char *p = ps->p;
	while (isspace((unsigned char)*p))
		p++;
	ps->start = p;
	if (!*p) {
		ps->tok = T_EOF;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		ps->tok = T_IDENT;
	} else if (p[0] == ':' && p[1] == ':') {
		p += 2;
		ps->tok = T_SCOPE;
	} else if (p[0] == '-' && p[1] == '>') {
		p += 2;
		ps->tok = T_ARROW;
	} else {
		ps->tok = *p == '(' ? T_LPAREN : *p == ')' ? T_RPAREN : *p == ',' ? T_COMMA : T_BAD;
		p++;
	}
	ps->len = (size_t)(p - ps->start);
	ps->p = p;
}

/* Records the first error only; later ones follow from it. */
static int fail(struct parser *ps, const char *expected)
{
	if (ps->failed)
		return -1;
	ps->failed = true;
	unsigned col = (unsigned)(ps->start - ps->text) + 1;
	ps->err_col = col;
	if (ps->tok == T_EOF)
		q7_err_set(ps->err, NULL, "expected %s at the end (column %u)", expected, col);
	else
		q7_err_set(ps->err, NULL, "expected %s at column %u, found '%.*s'", expected, col,
		           (int)ps->len, ps->start);
	return -1;
}

static int expect(struct parser *ps, enum tok t, const char *what)
{
	if (ps->tok != t)
		return fail(ps, what);
	next(ps);
	return 0;
}

/* A type: one word, or two when the table has the pair ("long long"). */
static int parse_type(struct parser *ps, enum q7_kind *k)
{
	if (ps->tok != T_IDENT)
		return fail(ps, "a type");
	struct parser two = *ps;
	next(&two);
	if (two.tok == T_IDENT) {
		char *pair = q7_xasprintf("%.*s %.*s", (int)ps->len, ps->start, (int)two.len, two.start);
		*k = q7_kind_of_word(pair, strlen(pair));
		free(pair);
		if (*k != Q7_KIND_INVALID) {
			*ps = two;
			next(ps);
			return 0;
		}
	}
	*k = q7_kind_of_word(ps->start, ps->len);
	if (*k == Q7_KIND_INVALID) {
		struct q7_strbuf b = {0};
		q7_sb_add(&b, "a type (");
		q7_kinds_list(&b, false, "or");
		q7_sb_addc(&b, ')');
		int rc = fail(ps, b.s);
		q7_sb_free(&b);
		return rc;
	}
	next(ps);
	return 0;
}

/* A type and an optional name; *name is "" when absent. */
static int parse_typed(struct parser *ps, enum q7_kind *k, char **name)
{
	if (parse_type(ps, k) < 0)
		return -1;
	if (ps->tok == T_IDENT) {
		*name = q7_xstrndup(ps->start, ps->len);
		next(ps);
	} else {
		*name = q7_xstrdup("");
	}
	return 0;
}

static int parse_params(struct parser *ps, struct q7_op *op)
{
	size_t cap = 0;
	if (ps->tok == T_RPAREN)
		return 0;
	for (;;) {
		Q7_GROW(op->params, cap, op->nparams + 1);
		struct q7_param *p = &op->params[op->nparams];
		memset(p, 0, sizeof *p);
		if (parse_typed(ps, &p->kind, &p->name) < 0)
			return -1;
		p->ctype = q7_kind_param_ctype(p->kind);
		op->nparams++;
		if (ps->tok != T_COMMA)
			return 0;
		next(ps);
	}
}

static int parse_result(struct parser *ps, struct q7_op *op)
{
	if (ps->tok == T_LPAREN) {
		next(ps);
		if (parse_typed(ps, &op->ret, &op->ret_name) < 0)
			return -1;
		if (expect(ps, T_RPAREN, "')' (one result only)") < 0)
			return -1;
	} else if (parse_typed(ps, &op->ret, &op->ret_name) < 0) {
		return -1;
	}
	op->ret_ctype = q7_kind_result_ctype(op->ret);
	return 0;
}

static int parse_schema(struct parser *ps, struct q7_op *op)
{
	struct q7_strbuf qual = {0};
	const char *last = NULL;
	size_t last_len = 0;
	for (;;) {
		if (ps->tok != T_IDENT) {
			q7_sb_free(&qual);
			return fail(ps, "a name");
		}
		q7_sb_addn(&qual, ps->start, ps->len);
		last = ps->start;
		last_len = ps->len;
		next(ps);
		if (ps->tok != T_SCOPE)
			break;
		q7_sb_add(&qual, "::");
		next(ps);
	}
	op->name = q7_xstrndup(last, last_len);
	op->qualname = q7_sb_take(&qual);
	/* "my_ops::relu": a schema's one qualifier is its namespace */
	size_t qn = strlen(op->qualname) - last_len;
	char *q = qn >= 2 ? q7_xstrndup(op->qualname, qn - 2) : q7_xstrdup("");
	op->ns = is_ident(q) ? q : q7_xstrdup("");
	if (op->ns != q)
		free(q);
	if (expect(ps, T_LPAREN, "'('") < 0 || parse_params(ps, op) < 0 ||
	    expect(ps, T_RPAREN, "',' or ')'") < 0 || expect(ps, T_ARROW, "'->'") < 0 ||
	    parse_result(ps, op) < 0)
		return -1;
	if (ps->tok != T_EOF)
		return fail(ps, "the end of the schema");
	return 0;
}

char *q7_library_namespace(const char *path)
{
	const char *base = q7_path_basename(path);
	if (strncmp(base, "lib", 3) == 0)
		base += 3;
	char *ns = q7_xstrndup(base, strcspn(base, "."));
	if (is_ident(ns) && !reserved(ns))
		return ns;
	free(ns);
	return NULL;
}

int q7_schema_parse(const char *text, struct q7_op *op, struct q7_err *err, unsigned *err_col)
{
	struct parser ps = {.text = text, .p = text, .err = err};
	struct q7_op tmp;
	memset(&tmp, 0, sizeof tmp);
	next(&ps);
	if (parse_schema(&ps, &tmp) < 0) {
		q7_op_clear(&tmp);
		if (err_col)
			*err_col = ps.err_col;
		return -1;
	}
	tmp.file = q7_xstrdup("");
	*op = tmp;
	return 0;
}
