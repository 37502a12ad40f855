/* The list of a link's function symbols (fsym.h). */
#include "fsym.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

void q7_fsyms_add(struct q7_fsyms *s, const char *name, const char *where, bool local, bool weak,
                  bool lp64)
{
	Q7_GROW(s->v, s->cap, s->n + 1);
	struct q7_fsym *f = &s->v[s->n++];
	f->name = q7_xstrdup(name);
	f->where = q7_xstrdup(where);
	f->local = local;
	f->weak = weak;
	f->lp64 = lp64;
}

void q7_fsyms_free(struct q7_fsyms *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].where);
	}
	free(s->v);
	memset(s, 0, sizeof *s);
}
