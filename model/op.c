/* The op table: construction, deep copy, release (op.h). */
#include "op.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

struct q7_op *q7_ops_add(struct q7_op_table *t)
{
	Q7_GROW(t->ops, t->cap, t->n + 1);
	struct q7_op *op = &t->ops[t->n++];
	memset(op, 0, sizeof *op);
	return op;
}

static char *dup_or_empty(const char *s)
{
	return q7_xstrdup(s ? s : "");
}

void q7_ops_add_copy(struct q7_op_table *t, const struct q7_op *src)
{
	struct q7_op *op = q7_ops_add(t);
	*op = *src; /* the scalars; every string is copied below */
	op->name = dup_or_empty(src->name);
	op->qualname = dup_or_empty(src->qualname);
	op->ns = dup_or_empty(src->ns);
	op->ret_ctype = dup_or_empty(src->ret_ctype);
	op->ret_name = dup_or_empty(src->ret_name);
	op->params = q7_xcalloc(src->nparams, sizeof *op->params);
	for (size_t i = 0; i < src->nparams; i++) {
		op->params[i].kind = src->params[i].kind;
		op->params[i].name = dup_or_empty(src->params[i].name);
		op->params[i].ctype = dup_or_empty(src->params[i].ctype);
	}
	op->file = dup_or_empty(src->file);
	op->from = src->from ? q7_xstrdup(src->from) : NULL;
}

void q7_op_clear(struct q7_op *op)
{
	free(op->name);
	free(op->qualname);
	free(op->ns);
	free(op->ret_ctype);
	free(op->ret_name);
	for (size_t i = 0; i < op->nparams; i++) {
		free(op->params[i].name);
		free(op->params[i].ctype);
	}
	free(op->params);
	free(op->file);
	free(op->from);
	memset(op, 0, sizeof *op);
}

void q7_ops_add_def(struct q7_op_table *t, const struct q7_neuron_def *src)
{
	Q7_GROW(t->defs, t->defs_cap, t->ndefs + 1);
	struct q7_neuron_def *d = &t->defs[t->ndefs++];
	*d = *src; /* the places; every string is copied below */
	d->ns = dup_or_empty(src->ns);
	d->op = dup_or_empty(src->op);
	d->fn = dup_or_empty(src->fn);
	d->shape = dup_or_empty(src->shape);
	d->file = dup_or_empty(src->file);
	d->shape_file = dup_or_empty(src->shape_file);
}

void q7_ops_free(struct q7_op_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		q7_op_clear(&t->ops[i]);
	free(t->ops);
	for (size_t i = 0; i < t->ndefs; i++) {
		struct q7_neuron_def *d = &t->defs[i];
		free(d->ns);
		free(d->op);
		free(d->fn);
		free(d->shape);
		free(d->file);
		free(d->shape_file);
	}
	free(t->defs);
	memset(t, 0, sizeof *t);
}
