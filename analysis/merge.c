/* Link-time merge of the op records of every object (analysis.h,
 * q7_ops_merge). NEURON_LIBRARY requests (by_name_only) are no kernels of
 * their own: one is satisfied by a kernel of its name, which takes its
 * namespace, else it names a function that no object of the link defines
 * (q7_ops_resolve, run first, derives the ops of those it finds by
 * symbol). */
#include "analysis.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Same C++ function: same qualified name and parameter types. */
static bool same_function(const struct q7_op *a, const struct q7_op *b)
{
	if (strcmp(a->qualname, b->qualname) != 0 || a->nparams != b->nparams)
		return false;
	for (size_t i = 0; i < a->nparams; i++)
		if (strcmp(a->params[i].ctype, b->params[i].ctype) != 0)
			return false;
	return true;
}

static bool same_place(const struct q7_op *a, const struct q7_op *b)
{
	return strcmp(a->file, b->file) == 0 && a->line == b->line && a->col == b->col;
}

static int by_name(const void *pa, const void *pb)
{
	const struct q7_op *a = *(const struct q7_op *const *)pa;
	const struct q7_op *b = *(const struct q7_op *const *)pb;
	int c = strcmp(a->name, b->name);
	if (!c)
		c = strcmp(a->qualname, b->qualname);
	if (!c)
		c = (int)b->defined - (int)a->defined; /* definitions first */
	if (!c)
		c = strcmp(a->file, b->file);
	if (!c)
		c = (a->line > b->line) - (a->line < b->line);
	if (!c)
		c = (a->col > b->col) - (a->col < b->col);
	return c;
}

/* dup has first's name: q7-duplicate-kernel, judged by lint.c. */
static void duplicate(struct q7_diags *diags, const struct q7_op *first, const struct q7_op *dup)
{
	struct q7_kfacts k = {
		.name = dup->name,
		.qualname = dup->qualname,
		.at = {dup->file, dup->line, dup->col},
		.same_name = first->qualname,
		.same_name_at = {first->file, first->line, first->col},
		.linked = true,
		.declared = !dup->defined,
	};
	q7_lint_kernel(&k, diags);
}

const char *q7_request_ns(const struct q7_op_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct q7_op *r = &t->ops[i];
		if (r->by_name_only && r->ns && *r->ns && strcmp(r->name, name) == 0)
			return r->ns;
	}
	return "";
}

static void adopt(struct q7_op *op, const char *ns)
{
	if (*ns && (!op->ns || !*op->ns)) {
		free(op->ns);
		op->ns = q7_xstrdup(ns);
	}
}

void q7_ops_adopt_namespaces(struct q7_op_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->ops[i].by_name_only)
			adopt(&t->ops[i], q7_request_ns(t, t->ops[i].name));
}

/* Where the op's record was read, as a note to the diagnostic before: a
 * stale or damaged object is then named. */
static void recorded_in(struct q7_diags *diags, const struct q7_op *op)
{
	if (op->from)
		q7_diags_add(diags, Q7_SEV_NOTE, op->file, op->line, op->col, "",
		             "this is recorded in %s", op->from);
}

/* Requests that no kernel of the link answers, each name reported once
 * (at its first m.def by place). */
static void unresolved_requests(const struct q7_op_table *in, const struct q7_op **v, size_t nv,
                                struct q7_diags *diags)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct q7_op *r = &in->ops[i];
		if (!r->by_name_only)
			continue;
		bool answered = false, first = true;
		for (size_t k = 0; k < nv && !answered; k++)
			answered = strcmp(v[k]->name, r->name) == 0;
		for (size_t k = 0; k < in->n && first && !answered; k++) {
			const struct q7_op *o = &in->ops[k];
			if (k != i && o->by_name_only && strcmp(o->name, r->name) == 0)
				first = by_name(&r, &o) < 0 || (by_name(&r, &o) == 0 && i < k);
		}
		if (answered || !first)
			continue;
		q7_diags_add_rule(diags, Q7_RULE_UNDEFINED, r->file, r->line, r->col,
		                  "'%s' named by NEURON_LIBRARY at %s:%u is not defined in any object of "
		                  "this link",
		                  *r->qualname ? r->qualname : r->name, r->file, r->line);
		recorded_in(diags, r);
	}
}

void q7_ops_merge(const struct q7_op_table *in, const char *toolchain, struct q7_op_table *out,
                  struct q7_diags *diags)
{
	const struct q7_op **v = q7_xcalloc(in->n, sizeof *v);
	size_t nv = 0;
	for (size_t i = 0; i < in->n; i++)
		if (!in->ops[i].by_name_only)
			v[nv++] = &in->ops[i];
	qsort(v, nv, sizeof *v, by_name);
	unresolved_requests(in, v, nv, diags);
	size_t first_out = out->n;
	for (size_t i = 0; i < nv;) {
		/* One name: [i, j). The first is a definition if there is one. */
		size_t j = i + 1;
		while (j < nv && strcmp(v[j]->name, v[i]->name) == 0)
			j++;
		const struct q7_op *keep = v[i];
		unsigned stack = keep->stack_size;
		bool reported = false;
		for (size_t k = i + 1; k < j; k++) {
			const struct q7_op *o = v[k];
			bool one = same_function(keep, o) &&
			           (!o->defined || same_place(keep, o)); /* same object twice */
			if (one) {
				if (!stack)
					stack = o->stack_size;
			} else if (!reported) {
				duplicate(diags, keep, o);
				reported = true;
			}
		}
		q7_ops_add_copy(out, keep);
		out->ops[out->n - 1].stack_size = stack;
		adopt(&out->ops[out->n - 1], q7_request_ns(in, keep->name));
		if (!keep->defined) {
			q7_diags_add_rule(diags, Q7_RULE_UNDEFINED, keep->file, keep->line, keep->col,
			                  "kernel '%s' is declared here but no object of the link defines it",
			                  keep->qualname);
			recorded_in(diags, keep);
		}
		i = j;
	}
	size_t n = out->n - first_out;
	if (n > Q7_MAX_KERNELS) {
		/* The limit is the device runtime's: real under xt, whose images
		 * go to the device. The host runtime has none (a warning), and a
		 * gnu library runs on the emulated core, where the cap is the
		 * device's habit, not a need: an error that -Wno-error=, -Wno-
		 * and -w lower, as GCC's default-error warnings. */
		bool host = toolchain && strcmp(toolchain, "host") == 0;
		bool xt = !toolchain || strcmp(toolchain, "xt") == 0;
		const struct q7_op *extra = &out->ops[first_out + Q7_MAX_KERNELS];
		q7_diags_add(diags, host ? Q7_SEV_WARNING : Q7_SEV_ERROR, extra->file, extra->line,
		             extra->col, Q7_RULE_TOO_MANY,
		             "the library has %zu kernels; the device runtime registers at most %d "
		             "(this is the %dth by name: '%s')",
		             n, Q7_MAX_KERNELS, Q7_MAX_KERNELS + 1, extra->name);
		diags->d[diags->n - 1].demotable = !xt;
	}
	free(v);
}
