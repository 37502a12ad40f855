/* The C++ text of op records: the allow-list, the Itanium symbol it
 * names, and quoting for messages (cxx.h). */
#include "cxx.h"
#include "support.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool q7_cxx_ident(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

bool q7_cxx_qualname(const char *q)
{
	for (const char *p = q;;) {
		const char *sep = strstr(p, "::");
		size_t n = sep ? (size_t)(sep - p) : strlen(p);
		if (!q7_cxx_ident(p, n))
			return false;
		if (!sep)
			return true;
		p = sep + 2;
	}
}

const char *q7_cxx_unqualified(const char *q)
{
	const char *p = q;
	for (const char *s; (s = strstr(p, "::")) != NULL;)
		p = s + 2;
	return p;
}

/* "const BASE &" -> BASE (a new string) and *ref; else a copy. */
static char *base_of(const char *t, bool *ref)
{
	size_t n = strlen(t);
	*ref = n > 8 && strncmp(t, "const ", 6) == 0 && strcmp(t + n - 2, " &") == 0;
	return *ref ? q7_xstrndup(t + 6, n - 8) : q7_xstrdup(t);
}

static bool base_ok(enum q7_kind k, const char *base, unsigned long_bits)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	if (!r)
		return false;
	if (!*r->mangled)
		return q7_kind_of_class(base) == k;
	if (strcmp(base, "long") == 0)
		return long_bits ? r->intbits == long_bits : r->intbits == 32 || r->intbits == 64;
	return q7_kind_of_builtin(base, 0) == k;
}

bool q7_cxx_param_type(enum q7_kind k, const char *ctype, unsigned long_bits)
{
	bool ref;
	char *base = base_of(ctype, &ref);
	bool ok = base_ok(k, base, long_bits);
	free(base);
	return ok;
}

bool q7_cxx_result_type(const char *ctype)
{
	return q7_kind_of_class(ctype) == Q7_KIND_TENSOR;
}

/* ---- the symbol ---- */

/* The mangled name so far, and its substitution candidates in order of
 * completion, by C++ spelling. */
struct mangler {
	struct q7_strbuf b;
	struct q7_strvec subs;
};

static int find_sub(const struct mangler *m, const char *s)
{
	for (size_t i = 0; i < m->subs.n; i++)
		if (strcmp(m->subs.v[i], s) == 0)
			return (int)i;
	return -1;
}

/* S_, S0_, S1_, ... S9_, SA_, ... (base 36). */
static void put_sub(struct mangler *m, int i)
{
	char digits[8];
	size_t n = 0;
	q7_sb_addc(&m->b, 'S');
	if (i > 0) {
		for (unsigned v = (unsigned)i - 1;; v /= 36) {
			digits[n++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
			if (v < 36)
				break;
		}
	}
	while (n)
		q7_sb_addc(&m->b, digits[--n]);
	q7_sb_addc(&m->b, '_');
}

/* A qualified name (a qualname): "N" prefix components "E", reusing the
 * longest prefix already seen; each proper prefix becomes a candidate,
 * and the whole name too when it names a type. */
static void put_name(struct mangler *m, const char *q, bool type)
{
	int whole = type ? find_sub(m, q) : -1;
	if (whole >= 0) {
		put_sub(m, whole);
		return;
	}
	size_t start = 0;
	bool nested = strstr(q, "::") != NULL;
	if (nested) {
		q7_sb_addc(&m->b, 'N');
		/* The longest proper prefix that is a candidate. */
		int best = -1;
		for (const char *sep = strstr(q, "::"); sep; sep = strstr(sep + 2, "::")) {
			char *prefix = q7_xstrndup(q, (size_t)(sep - q));
			int i = find_sub(m, prefix);
			free(prefix);
			if (i >= 0) {
				best = i;
				start = (size_t)(sep - q) + 2;
			}
		}
		if (best >= 0)
			put_sub(m, best);
	}
	for (const char *p = q + start;;) {
		const char *sep = strstr(p, "::");
		size_t n = sep ? (size_t)(sep - p) : strlen(p);
		q7_sb_addf(&m->b, "%zu%.*s", n, (int)n, p);
		if (sep || type) {
			char *prefix = q7_xstrndup(q, (size_t)(p + n - q));
			q7_sv_add(&m->subs, prefix);
			free(prefix);
		}
		if (!sep)
			break;
		p = sep + 2;
	}
	if (nested)
		q7_sb_addc(&m->b, 'E');
}

static void put_base(struct mangler *m, enum q7_kind k, const char *base)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	if (!*r->mangled)
		put_name(m, base, true);
	else
		q7_sb_add(&m->b, strcmp(base, "long") == 0 ? "l" : r->mangled);
}

/* A parameter: the base, or R K base for "const base &" (both the const
 * type and the reference are candidates, builtins themselves are not). */
static void put_param(struct mangler *m, enum q7_kind k, const char *ctype)
{
	bool ref;
	char *base = base_of(ctype, &ref);
	if (!ref) {
		put_base(m, k, base);
		free(base);
		return;
	}
	char *cbase = q7_xasprintf("const %s", base);
	int i = find_sub(m, ctype);
	if (i >= 0) {
		put_sub(m, i);
	} else {
		q7_sb_addc(&m->b, 'R');
		if ((i = find_sub(m, cbase)) >= 0) {
			put_sub(m, i);
		} else {
			q7_sb_addc(&m->b, 'K');
			put_base(m, k, base);
			q7_sv_add(&m->subs, cbase);
		}
		q7_sv_add(&m->subs, ctype);
	}
	free(cbase);
	free(base);
}

char *q7_cxx_symbol(const struct q7_op *op)
{
	const char *qual = op->qualname && *op->qualname ? op->qualname : op->name;
	if (!qual || !q7_cxx_qualname(qual))
		return NULL;
	for (size_t i = 0; i < op->nparams; i++)
		if (!q7_cxx_param_type(op->params[i].kind, op->params[i].ctype, 0))
			return NULL;
	struct mangler m = {{0}, {0}};
	q7_sb_add(&m.b, "_Z");
	put_name(&m, qual, false);
	for (size_t i = 0; i < op->nparams; i++)
		put_param(&m, op->params[i].kind, op->params[i].ctype);
	if (op->nparams == 0)
		q7_sb_addc(&m.b, 'v');
	q7_sv_free(&m.subs);
	return q7_sb_take(&m.b);
}

char *q7_cxx_quote(const char *s)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	size_t shown = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, shown++) {
		if (shown == 80) {
			q7_sb_add(&b, "...");
			break;
		}
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			q7_sb_addc(&b, (char)*p);
		else
			q7_sb_addf(&b, "\\x%02x", *p);
	}
	return q7_sb_take(&b);
}
