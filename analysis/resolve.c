/* Link-time: kernels whose definition carries no record, found by symbol.
 *
 * A NEURON_LIBRARY shape file names compute functions that other TUs
 * define without any mark; those TUs' objects have no .q7.ops, but their
 * symbol tables say which function is defined and, mangled, with which
 * parameter types. The op is derived from that symbol here and linted
 * with the usual rules at the m.def's place. The same lookup completes a
 * kernel declared (marked) in a header whose defining TU did not see the
 * mark. */
#include "analysis.h"
#include "internal.h"
#include "mangle.h"

#include <stdlib.h>
#include <string.h>

static bool has_definition(const struct q7_op_table *all, const char *name)
{
	for (size_t i = 0; i < all->n; i++)
		if (all->ops[i].defined && !all->ops[i].by_name_only &&
		    strcmp(all->ops[i].name, name) == 0)
			return true;
	return false;
}

void q7_ops_unresolved(const struct q7_op_table *all, struct q7_strvec *names)
{
	for (size_t i = 0; i < all->n; i++) {
		const struct q7_op *op = &all->ops[i];
		if (!op->defined && !q7_sv_has(names, op->name) && !has_definition(all, op->name))
			q7_sv_add(names, op->name);
	}
}

/* One name's lookup. */
struct look {
	const struct q7_op *req;  /* the first request (for its place), or NULL */
	const struct q7_op *decl; /* the first declaration, or NULL */
	const char *want_qual;    /* "" unless the name is known qualified */
	struct q7_mfunc found;    /* the one global definition */
	const struct q7_fsym *found_sym, *other_sym;
	struct q7_mfunc other;
	const struct q7_fsym *weak, *local, *c_linkage, *unreadable;
	const char *unreadable_why;
};

static bool same_params(const struct q7_op *decl, const struct q7_mfunc *f)
{
	if (decl->nparams != f->nparams)
		return false;
	for (size_t i = 0; i < f->nparams; i++)
		if (f->params[i].kind == Q7_KIND_INVALID ||
		    strcmp(decl->params[i].ctype, f->params[i].ctype) != 0)
			return false;
	return true;
}

static void consider(struct look *lk, const char *name, const struct q7_fsym *s)
{
	if (strcmp(s->name, name) == 0) {
		if (!s->local && !lk->c_linkage)
			lk->c_linkage = s;
		return;
	}
	struct q7_mfunc f;
	const char *why;
	if (q7_demangle(s->name, s->lp64, &f, &why) != 0) {
		if (!lk->unreadable) {
			lk->unreadable = s;
			lk->unreadable_why = why;
		}
		return;
	}
	bool match = strcmp(f.name, name) == 0 &&
	             (!*lk->want_qual || strcmp(f.qualname, lk->want_qual) == 0) &&
	             (!lk->decl || same_params(lk->decl, &f));
	if (!match) {
		q7_mfunc_free(&f);
		return;
	}
	if (s->local || f.what == Q7_MF_INTERNAL) {
		if (!lk->local)
			lk->local = s;
	} else if (s->weak) {
		if (!lk->weak)
			lk->weak = s;
	} else if (!lk->found_sym) {
		lk->found = f;
		lk->found_sym = s;
		return;
	} else if (!lk->other_sym && strcmp(lk->found_sym->name, s->name) != 0) {
		lk->other = f;
		lk->other_sym = s;
		return;
	}
	q7_mfunc_free(&f);
}

#define AT(op) (op)->file, (op)->line, (op)->col

/* "'relu' named by NEURON_LIBRARY at shape.cpp:12" or "kernel 'ns::relu'". */
static char *subject(const struct look *lk, const char *name)
{
	if (lk->decl)
		return q7_xasprintf("kernel '%s'", lk->decl->qualname);
	return q7_xasprintf("'%s' named by NEURON_LIBRARY at %s:%u", name, lk->req->file,
	                    lk->req->line);
}

/* "ns::f(const at::Tensor &, float)" */
static char *signature(const struct q7_mfunc *f)
{
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s(", f->qualname);
	for (size_t i = 0; i < f->nparams; i++)
		q7_sb_addf(&b, "%s%s", i ? ", " : "", f->params[i].ctype);
	q7_sb_add(&b, f->variadic ? (f->nparams ? ", ...)" : "...)") : ")");
	return q7_sb_take(&b);
}

static void report_params(const struct look *lk, const char *profile, const struct q7_op *at,
                          bool *ok, struct q7_diags *ds)
{
	const struct q7_mfunc *f = &lk->found;
	for (size_t i = 0; i < f->nparams; i++) {
		const struct q7_mparam *p = &f->params[i];
		if (p->kind == Q7_KIND_INVALID) {
			char *kinds = q7_profile_kinds(NULL, "or");
			q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_UNSUPPORTED_PARAM,
			             "parameter %zu of kernel '%s' (defined in %s) has type '%s' (%s), "
			             "which a kernel cannot take; use %s (Tensor and Scalar by value or "
			             "const&)",
			             i + 1, f->qualname, lk->found_sym->where, p->ctype, p->why, kinds);
			free(kinds);
			*ok = false;
		} else if (!q7_profile_marshals(profile, p->kind)) {
			char *kinds = q7_profile_kinds(profile, "and");
			q7_diags_add(ds, Q7_SEV_WARNING, AT(at), Q7_RULE_PROFILE_KIND,
			             "parameter %zu of kernel '%s' (defined in %s) is a %s, which the %s "
			             "profile's runtime cannot pass (it has %s)",
			             i + 1, f->qualname, lk->found_sym->where, q7_kind_name(p->kind),
			             profile, kinds);
			free(kinds);
		}
	}
}

/* The error rules a symbol can show; false when one fails. */
static bool lint(const struct look *lk, const char *profile, const struct q7_op *at,
                 struct q7_diags *ds)
{
	const struct q7_mfunc *f = &lk->found;
	const char *where = lk->found_sym->where;
	bool ok = true;
	if (f->what == Q7_MF_MEMBER) {
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_MEMBER,
		             "kernel '%s' (defined in %s) is a member function; a kernel is a free "
		             "function",
		             f->qualname, where);
		ok = false;
	} else if (f->what == Q7_MF_TEMPLATE) {
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_TEMPLATE,
		             "kernel '%s' (defined in %s) is a template; a kernel is one plain function",
		             f->qualname, where);
		ok = false;
	}
	if (!ok)
		return false; /* a template's parameters say nothing more */
	if (strlen(f->name) > Q7_NAME_MAX) {
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_NAME_LENGTH,
		             "kernel name '%s' has %zu characters; the runtime takes at most %d",
		             f->name, strlen(f->name), Q7_NAME_MAX);
		ok = false;
	}
	if (f->variadic) {
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_VARIADIC,
		             "kernel '%s' (defined in %s) is variadic; a kernel has a fixed parameter "
		             "list",
		             f->qualname, where);
		ok = false;
	}
	report_params(lk, profile, at, &ok, ds);
	return ok;
}

/* Why nothing usable was found, when something was. True when reported. */
static bool report_unusable(const struct look *lk, const char *name, struct q7_diags *ds)
{
	const struct q7_op *at = lk->decl ? lk->decl : lk->req;
	char *who = subject(lk, name);
	bool reported = true;
	if (lk->local)
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_INTERNAL,
		             "%s is defined in %s with internal linkage (static, or in an unnamed "
		             "namespace); the generated wrapper cannot call it",
		             who, lk->local->where);
	else if (lk->weak)
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_INLINE,
		             "%s is defined in %s only as an inline (weak) function: only objects "
		             "that call it define it, and the generated wrapper is not one of them",
		             who, lk->weak->where);
	else if (lk->c_linkage)
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_C_LINKAGE,
		             "%s is defined in %s with C linkage (extern \"C\"); the generated wrapper "
		             "declares kernels as C++ functions, so it would not link",
		             who, lk->c_linkage->where);
	else if (lk->unreadable && !lk->decl)
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_UNDEFINED,
		             "%s: the symbol '%s' in %s may define it, but q7cc cannot read it (%s)",
		             who, lk->unreadable->name, lk->unreadable->where, lk->unreadable_why);
	else
		reported = false;
	free(who);
	return reported;
}

/* The op of the found definition. */
static void derive(const struct look *lk, unsigned stack, struct q7_op_table *out)
{
	const struct q7_mfunc *f = &lk->found;
	const struct q7_op *at = lk->decl ? lk->decl : lk->req;
	/* Parameter names: the declaration's, else the shape function's when
	 * its arity matches (a shape function mirrors its kernel), else argN. */
	const struct q7_op *names = lk->decl;
	if (!names && lk->req->nparams == f->nparams)
		names = lk->req;
	struct q7_op *op = q7_ops_add(out);
	op->name = q7_xstrdup(f->name);
	op->qualname = q7_xstrdup(f->qualname);
	op->ret_ctype = q7_xstrdup("at::Tensor"); /* not in the symbol; the vendor's rule */
	op->ret = Q7_KIND_TENSOR;
	op->ret_name = q7_xstrdup("");
	op->nparams = f->nparams;
	op->params = q7_xcalloc(f->nparams ? f->nparams : 1, sizeof *op->params);
	for (size_t i = 0; i < f->nparams; i++) {
		op->params[i].kind = f->params[i].kind;
		op->params[i].ctype = q7_xstrdup(f->params[i].ctype);
		op->params[i].name = names && *names->params[i].name
		                         ? q7_xstrdup(names->params[i].name)
		                         : q7_xasprintf("arg%zu", i);
	}
	op->stack_size = stack;
	op->defined = true;
	op->file = q7_xstrdup(at->file);
	op->line = at->line;
	op->col = at->col;
}

/* Resolves one name; drop[i] is set for the requests it settles. */
static void resolve_name(struct q7_op_table *all, const char *name, const struct q7_fsyms *syms,
                         const char *profile, bool *drop, struct q7_op_table *add,
                         struct q7_diags *ds)
{
	struct look lk = {.want_qual = ""};
	unsigned stack = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct q7_op *op = &all->ops[i];
		if (strcmp(op->name, name) != 0)
			continue;
		if (op->stack_size > stack)
			stack = op->stack_size;
		if (op->by_name_only && !lk.req)
			lk.req = op;
		else if (!op->by_name_only && !lk.decl)
			lk.decl = op;
	}
	if (lk.decl)
		lk.want_qual = lk.decl->qualname;
	else if (lk.req && *lk.req->qualname)
		lk.want_qual = lk.req->qualname;
	for (size_t i = 0; i < syms->n; i++)
		consider(&lk, name, &syms->v[i]);

	bool settled = true;
	const struct q7_op *at = lk.decl ? lk.decl : lk.req;
	if (lk.found_sym && lk.other_sym) {
		char *who = subject(&lk, name), *a = signature(&lk.found), *b = signature(&lk.other);
		q7_diags_add(ds, Q7_SEV_ERROR, AT(at), Q7_RULE_OVERLOAD,
		             "%s has two definitions in this link: %s ('%s' in %s) and %s ('%s' in %s); "
		             "the op name must name one function",
		             who, a, lk.found_sym->name, lk.found_sym->where, b, lk.other_sym->name,
		             lk.other_sym->where);
		free(who);
		free(a);
		free(b);
	} else if (lk.found_sym) {
		if (lint(&lk, profile, at, ds)) {
			derive(&lk, stack, add);
			add->ops[add->n - 1].ns = q7_xstrdup(q7_request_ns(all, name));
		}
	} else {
		settled = report_unusable(&lk, name, ds);
	}
	/* Requests settled here (found, or reported) leave the table, so the
	 * merge neither reports them again nor sees them. */
	for (size_t i = 0; settled && i < all->n; i++)
		if (all->ops[i].by_name_only && strcmp(all->ops[i].name, name) == 0)
			drop[i] = true;
	q7_mfunc_free(&lk.found);
	q7_mfunc_free(&lk.other);
}

void q7_ops_resolve(struct q7_op_table *all, const struct q7_fsyms *syms, const char *profile,
                    struct q7_diags *diags)
{
	struct q7_strvec names = {0};
	q7_ops_adopt_namespaces(all); /* before the requests leave */
	q7_ops_unresolved(all, &names);
	bool *drop = q7_xcalloc(all->n ? all->n : 1, sizeof *drop);
	struct q7_op_table add = {0};
	for (size_t i = 0; i < all->n; i++)
		if (all->ops[i].by_name_only && has_definition(all, all->ops[i].name))
			drop[i] = true; /* satisfied by a record (a marked definition) */
	for (size_t i = 0; i < names.n; i++)
		resolve_name(all, names.v[i], syms, profile, drop, &add, diags);
	size_t n = 0;
	for (size_t i = 0; i < all->n; i++) {
		if (drop[i])
			q7_op_clear(&all->ops[i]);
		else
			all->ops[n++] = all->ops[i];
	}
	all->n = n;
	for (size_t i = 0; i < add.n; i++)
		*q7_ops_add(all) = add.ops[i]; /* moves */
	free(add.ops);
	free(drop);
	q7_sv_free(&names);
}
