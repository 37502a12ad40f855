/* analysis/mangle_kind: what a demangled parameter's type is to a
 * kernel: its kind and forward-declaration spelling, or why a kernel
 * cannot take it (mangle.h). Reads the demangler's type tree. */
#include "mangle_int.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

static void set_invalid(const struct dm *d, int n, const char *why, struct q7_mparam *p)
{
	p->kind = Q7_KIND_INVALID;
	p->ctype = q7_xstrdup(spell_of(d, n));
	p->why = why;
}

enum q7_kind q7_class_kind(const char *qual, const char **why)
{
	static const char *const tuples[] = {"std::tuple", "std::pair", "std::array", NULL};
	static const char *const containers[] = {"std::vector", "std::list", "std::map",
	                                         "std::basic_string", "std::string",
	                                         "std::initializer_list", "c10::ArrayRef",
	                                         "c10::optional", "std::optional", NULL};
	/* The template's name, without arguments or the library's inline
	 * namespace (std::__cxx11::basic_string, std::__1::vector). */
	char *base = q7_xstrndup(qual, strcspn(qual, "<"));
	for (const char *ns = "std::__cxx11::"; ns; ns = strcmp(ns, "std::__1::") ? "std::__1::" : NULL)
		if (strncmp(base, ns, strlen(ns)) == 0)
			memmove(base + 5, base + strlen(ns), strlen(base + strlen(ns)) + 1);
	enum q7_kind k = q7_kind_of_class(base);
	const char *w = "a class other than Tensor and Scalar";
	for (const char *const *l = tuples; *l; l++)
		if (strcmp(base, *l) == 0)
			w = "a tuple";
	for (const char *const *l = containers; *l; l++)
		if (strcmp(base, *l) == 0)
			w = "a container";
	free(base);
	if (why)
		*why = k == Q7_KIND_INVALID ? w : NULL;
	return k;
}

static const char *what_is(const struct dm *d, int n)
{
	switch (d->nodes[n].k) {
	case N_PTR:
	case N_MEMPTR: return "a pointer";
	case N_LREF: return "a reference to non-const";
	case N_RREF: return "an rvalue reference";
	case N_ARRAY: return "an array";
	case N_FUNC: return "a function";
	case N_PARM: return "a template parameter";
	case N_QUAL: return d->nodes[n].quals & Q_VOLATILE ? "volatile" : what_is(d, d->nodes[n].inner);
	case N_BUILTIN:
		return d->nodes[n].b && d->nodes[n].b->why ? d->nodes[n].b->why
		                                           : "not a kind q7cc can pass";
	case N_NAME: break;
	}
	const char *why;
	q7_class_kind(spell_of(d, n), &why);
	return why ? why : "a class by reference";
}

/* A value type (a name or a builtin) -> kind; INVALID otherwise. */
static enum q7_kind value_kind(const struct dm *d, int n, const char **spell)
{
	const struct node *nd = &d->nodes[n];
	*spell = nd->spell;
	if (nd->k == N_NAME) {
		enum q7_kind k = q7_class_kind(nd->spell, NULL);
		return k;
	}
	if (nd->k == N_BUILTIN)
		return q7_kind_of_builtin(nd->spell, d->lp64 ? 64 : 32);
	return Q7_KIND_INVALID;
}

void q7_mangle_classify(const struct dm *d, int n, struct q7_mparam *p)
{
	memset(p, 0, sizeof *p);
	const struct node *nd = &d->nodes[n];
	const char *spell;
	if (nd->k == N_LREF) {
		const struct node *in = &d->nodes[nd->inner];
		if (in->k != N_QUAL || !(in->quals & Q_CONST)) {
			set_invalid(d, n, "a reference to non-const", p);
		} else if (in->quals & Q_VOLATILE) {
			set_invalid(d, n, "volatile", p);
		} else if ((p->kind = value_kind(d, in->inner, &spell)) != Q7_KIND_INVALID) {
			p->ctype = q7_xasprintf("const %s &", spell);
		} else {
			set_invalid(d, n, what_is(d, in->inner), p);
		}
		return;
	}
	if (nd->k == N_QUAL && !(nd->quals & Q_VOLATILE)) {
		q7_mangle_classify(d, nd->inner, p); /* top-level const is not part of the type */
		return;
	}
	if ((p->kind = value_kind(d, n, &spell)) != Q7_KIND_INVALID)
		p->ctype = q7_xstrdup(spell);
	else
		set_invalid(d, n, what_is(d, n), p);
}
