/* The parameter kinds: the rows of <q7/kinds.h> as data, and the lookups
 * by schema word, class name and builtin type (op.h). */
#include "op.h"

#include <stdlib.h>
#include <string.h>

#define ROW_(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL, LOCAL, ARGS) \
	[Q7_KIND_##NAME] = {TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, #CALL, #LOCAL},
static const struct q7_kind_info rows[Q7_KIND_END] = {Q7_KINDS(ROW_)};
#undef ROW_

const struct q7_kind_info *q7_kind_info(enum q7_kind k)
{
	return k > Q7_KIND_INVALID && k < Q7_KIND_END ? &rows[k] : NULL;
}

const char *q7_kind_name(enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	return r ? r->name : "?";
}

const char *q7_kind_torch(enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	return r ? r->torch : "?";
}

static bool is(const char *s, const char *w, size_t n)
{
	return strlen(s) == n && memcmp(s, w, n) == 0;
}

/* True when the n bytes at w are one of the '|'-separated words of list. */
static bool in_list(const char *list, const char *w, size_t n)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, "|");
		if (len == n && memcmp(p, w, n) == 0)
			return true;
		p += len + (p[len] == '|');
	}
	return false;
}

enum q7_kind q7_kind_of_word(const char *w, size_t n)
{
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++)
		if (is(rows[k].name, w, n) || (*rows[k].also && is(rows[k].also, w, n)))
			return (enum q7_kind)k;
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++)
		if (is(rows[k].torch, w, n))
			return (enum q7_kind)k;
	return Q7_KIND_INVALID;
}

enum q7_kind q7_kind_of_class(const char *qual)
{
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++)
		if (!*rows[k].mangled && in_list(rows[k].cxx, qual, strlen(qual)))
			return (enum q7_kind)k;
	return Q7_KIND_INVALID;
}

enum q7_kind q7_kind_of_builtin(const char *spell, unsigned long_bits)
{
	bool is_long = strcmp(spell, "long") == 0;
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++) {
		if (!*rows[k].mangled)
			continue;
		if (is_long ? rows[k].intbits == long_bits : in_list(rows[k].cxx, spell, strlen(spell)))
			return (enum q7_kind)k;
	}
	return Q7_KIND_INVALID;
}

/* The first of k's C++ types. */
char *q7_kind_result_ctype(enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	return r ? q7_xstrndup(r->cxx, strcspn(r->cxx, "|")) : q7_xstrdup("");
}

char *q7_kind_param_ctype(enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	char *t = q7_kind_result_ctype(k);
	if (!r || *r->mangled)
		return t;
	char *ref = q7_xasprintf("const %s &", t);
	free(t);
	return ref;
}

void q7_kinds_list(struct q7_strbuf *out, bool xt_only, const char *conj)
{
	size_t n = 0, total = 0;
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++)
		total += !xt_only || rows[k].xt;
	for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++) {
		if (xt_only && !rows[k].xt)
			continue;
		if (n + 1 == total && n)
			q7_sb_addf(out, " %s ", conj);
		else if (n)
			q7_sb_add(out, ", ");
		q7_sb_add(out, rows[k].name);
		n++;
	}
}
