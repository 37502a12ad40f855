/* analysis/mangle's internal interface: the demangler's tree of type
 * nodes (mangle.c builds it) and the classifier that reads a parameter's
 * kind from it (mangle_kind.c). */
#ifndef Q7_MANGLE_INT_H
#define Q7_MANGLE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "mangle.h"

enum nk { N_BUILTIN, N_NAME, N_QUAL, N_PTR, N_LREF, N_RREF, N_ARRAY, N_FUNC, N_MEMPTR, N_PARM };

#define Q_CONST 1u
#define Q_VOLATILE 2u
#define Q_RESTRICT 4u

struct node {
	enum nk k;
	char *spell;
	int inner;      /* QUAL, PTR, LREF, RREF, ARRAY, MEMPTR: the type under it */
	unsigned quals; /* QUAL */
	const struct builtin *b; /* BUILTIN of no kind, else NULL */
};

/* The builtin types that are no kind (<q7/kinds.h> has the others, with
 * their letters); why says what each is. 'l' is long: its kind depends on
 * the data model (see value_kind). */
struct builtin {
	const char *code; /* after the mangling's letter(s) */
	const char *spell;
	const char *why;
};

struct dm {
	const char *p;
	bool lp64;
	const char *why; /* set on the first failure; every parse then stops */
	struct node *nodes;
	size_t nn, ncap;
	int *subs; /* substitution candidates, in order */
	size_t ns, scap;
	int depth;
};

static inline const char *spell_of(const struct dm *d, int n)
{
	return d->nodes[n].spell;
}

/* The parameter whose type is node n: its kind and spelling (mangle_kind.c). */
void q7_mangle_classify(const struct dm *d, int n, struct q7_mparam *p);

#endif
