/* Diagnostic lists and the warning policy (-W[no-][error=]q7-RULE, -Werror,
 * -w, as the driver's option table spells them): what survives, and at
 * which severity. */
#include "analysis.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void q7_diags_vadd(struct q7_diags *ds, enum q7_severity sev, const char *file, unsigned line,
                   unsigned col, const char *rule, const char *fmt, va_list ap)
{
	Q7_GROW(ds->d, ds->cap, ds->n + 1);
	struct q7_diag *d = &ds->d[ds->n++];
	memset(d, 0, sizeof *d);
	d->severity = sev;
	d->file = q7_xstrdup(file ? file : "");
	d->line = line;
	d->col = col;
	d->rule = q7_xstrdup(rule ? rule : "");
	struct q7_strbuf b = {0};
	q7_sb_vaddf(&b, fmt, ap);
	d->message = q7_sb_take(&b);
}

const char *q7_severity_name(enum q7_severity s)
{
	return s == Q7_SEV_ERROR ? "error" : s == Q7_SEV_WARNING ? "warning" : "note";
}

void q7_diags_add(struct q7_diags *ds, enum q7_severity sev, const char *file, unsigned line,
                  unsigned col, const char *rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_diags_vadd(ds, sev, file, line, col, rule, fmt, ap);
	va_end(ap);
}

static void diag_clear(struct q7_diag *d)
{
	free(d->file);
	free(d->rule);
	free(d->message);
}

void q7_diags_free(struct q7_diags *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		diag_clear(&ds->d[i]);
	free(ds->d);
	memset(ds, 0, sizeof *ds);
}

struct group {
	size_t start, len;
	const struct q7_diag *key;
};

static int group_cmp(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	int c = strcmp(a->key->file, b->key->file);
	if (!c)
		c = (a->key->line > b->key->line) - (a->key->line < b->key->line);
	if (!c)
		c = (a->key->col > b->key->col) - (a->key->col < b->key->col);
	if (!c) /* stable */
		c = (a->start > b->start) - (a->start < b->start);
	return c;
}

void q7_diags_sort(struct q7_diags *ds, size_t from)
{
	if (ds->n <= from + 1)
		return;
	struct group *g = q7_xcalloc(ds->n - from, sizeof *g);
	size_t ng = 0;
	for (size_t i = from; i < ds->n; i++) {
		if (ds->d[i].severity == Q7_SEV_NOTE && ng) {
			g[ng - 1].len++;
			continue;
		}
		g[ng].start = i;
		g[ng].len = 1;
		g[ng].key = &ds->d[i];
		ng++;
	}
	qsort(g, ng, sizeof *g, group_cmp);
	struct q7_diag *sorted = q7_xcalloc(ds->n - from, sizeof *sorted);
	size_t k = 0;
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < g[i].len; j++)
			sorted[k++] = ds->d[g[i].start + j];
	memcpy(&ds->d[from], sorted, k * sizeof *sorted);
	free(sorted);
	free(g);
}

static void sv_remove(struct q7_strvec *sv, const char *s)
{
	size_t j = 0;
	for (size_t i = 0; i < sv->n; i++) {
		if (strcmp(sv->v[i], s) == 0)
			free(sv->v[i]);
		else
			sv->v[j++] = sv->v[i];
	}
	sv->n = j;
	if (sv->v)
		sv->v[j] = NULL;
}

bool q7_warn_policy_rule(struct q7_warn_policy *p, const char *rule, bool no, bool error)
{
	/* The list the flag puts rule on (none for -Wq7-x, which only takes it
	 * off the disabled), after taking it off the opposite one. */
	struct q7_strvec *on = error ? (no ? &p->not_error : &p->as_error) : no ? &p->disabled : NULL;
	sv_remove(error ? (no ? &p->as_error : &p->not_error) : &p->disabled, rule);
	/* -Werror=q7-x also turns x on, like GCC and clang. */
	if (error && !no)
		sv_remove(&p->disabled, rule);
	if (on && !q7_sv_has(on, rule))
		q7_sv_add(on, rule);
	return q7_rule_find(rule) != NULL;
}

/* A note belongs to the diagnostic before it and shares its fate. */
size_t q7_diags_apply_policy(struct q7_diags *ds, const struct q7_warn_policy *p)
{
	size_t j = 0, errors = 0;
	bool keep_notes = true;
	for (size_t i = 0; i < ds->n; i++) {
		struct q7_diag *d = &ds->d[i];
		bool keep = true;
		if (d->severity == Q7_SEV_ERROR && *d->rule && q7_sv_has(&p->not_error, d->rule)) {
			const struct q7_rule *r = q7_rule_find(d->rule);
			if ((r && r->demotable) || d->demotable)
				d->severity = Q7_SEV_WARNING;
		}
		/* A default-error warning: the warning's own rules drop it. */
		if (d->severity == Q7_SEV_ERROR && d->demotable && *d->rule &&
		    (p->suppress_all || q7_sv_has(&p->disabled, d->rule)))
			d->severity = Q7_SEV_WARNING;
		if (d->severity == Q7_SEV_NOTE) {
			keep = keep_notes;
		} else if (d->severity == Q7_SEV_WARNING) {
			/* -w wins over every -Werror, as in GCC. */
			if (p->suppress_all || (*d->rule && q7_sv_has(&p->disabled, d->rule))) {
				keep = false;
			} else if (*d->rule && q7_sv_has(&p->as_error, d->rule)) {
				d->severity = Q7_SEV_ERROR;
				d->promoted = true;
			} else if (p->werror && !(*d->rule && q7_sv_has(&p->not_error, d->rule))) {
				d->severity = Q7_SEV_ERROR;
				d->promoted = true;
			}
			keep_notes = keep;
		} else {
			keep_notes = true;
		}
		if (!keep) {
			diag_clear(d);
			continue;
		}
		if (d->severity == Q7_SEV_ERROR)
			errors++;
		ds->d[j++] = *d;
	}
	ds->n = j;
	return errors;
}

void q7_warn_policy_free(struct q7_warn_policy *p)
{
	q7_sv_free(&p->disabled);
	q7_sv_free(&p->as_error);
	q7_sv_free(&p->not_error);
	memset(p, 0, sizeof *p);
}
