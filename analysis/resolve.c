/* Link-time: kernels whose definition carries no record, found by symbol
 * (docs/lint-rules.md, "Kernels named in another file"): the op is derived
 * from the defining object's symbol and linted with the usual rules at the
 * m.def's place. */
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

/* What the symbols say of the kernel, for lint.c: of the one definition
 * found (or of the two, an overload), else of the unusable one (static,
 * weak or C). who, sig and the parameters' labels are owned here. */
struct facts {
	struct q7_kfacts k;
	char *who, *sig[2];
	struct q7_kparam *params;
	char **labels;
};

static void params_facts(const struct q7_mfunc *f, struct facts *fs)
{
	fs->params = q7_xcalloc(f->nparams, sizeof *fs->params);
	fs->labels = q7_xcalloc(f->nparams, sizeof *fs->labels);
	for (size_t i = 0; i < f->nparams; i++) {
		const struct q7_mparam *p = &f->params[i];
		fs->labels[i] = q7_xasprintf("%zu", i + 1);
		fs->params[i] = (struct q7_kparam){
			.label = fs->labels[i],
			.kind = p->kind,
			.ctype = p->ctype,
			.why = p->why,
			.at = fs->k.at,
		};
	}
	fs->k.nparams = f->nparams;
	fs->k.params = fs->params;
}

/* False when nothing was found to judge. */
static bool gather(const struct look *lk, const char *name, const char *toolchain,
                   struct facts *fs)
{
	const struct q7_op *at = lk->decl ? lk->decl : lk->req;
	struct q7_kfacts *k = &fs->k;
	fs->who = subject(lk, name);
	k->who = fs->who;
	k->at = (struct q7_kplace){AT(at)};
	k->toolchain = toolchain;
	k->qualname = name;
	const struct q7_mfunc *f = &lk->found;
	if (lk->found_sym && lk->other_sym) {
		fs->sig[0] = signature(&lk->found);
		fs->sig[1] = signature(&lk->other);
		k->defs[0] = (struct q7_kdef){fs->sig[0], lk->found_sym->name, lk->found_sym->where};
		k->defs[1] = (struct q7_kdef){fs->sig[1], lk->other_sym->name, lk->other_sym->where};
		k->where = lk->found_sym->where;
	} else if (lk->found_sym) {
		k->qualname = f->qualname;
		k->where = lk->found_sym->where;
		k->member = f->what == Q7_MF_MEMBER;
		k->is_template = f->what == Q7_MF_TEMPLATE;
		/* A member's or template's symbol is read no further: neither
		 * its name nor its prototype is judged. */
		k->proto = !k->member && !k->is_template;
		k->name = k->proto ? f->name : NULL;
		k->variadic = f->variadic;
		params_facts(f, fs);
	} else {
		/* The unusable definition, whose linkage alone is judged: the
		 * rules take the first of these. */
		const struct q7_fsym *s = lk->local ? lk->local : lk->weak ? lk->weak : lk->c_linkage;
		if (!s)
			return false;
		k->where = s->where;
		k->internal = lk->local != NULL;
		k->is_inline = lk->weak != NULL;
		k->c_linkage = lk->c_linkage != NULL;
	}
	return true;
}

static void facts_free(struct facts *fs)
{
	for (size_t i = 0; i < fs->k.nparams; i++)
		free(fs->labels[i]);
	free(fs->labels);
	free(fs->params);
	free(fs->who);
	free(fs->sig[0]);
	free(fs->sig[1]);
}

/* A symbol that may define it but that q7cc cannot read. True when
 * reported. */
static bool report_unreadable(const struct look *lk, const char *name, struct q7_diags *ds)
{
	if (!lk->unreadable || lk->decl)
		return false;
	const struct q7_op *at = lk->req;
	char *who = subject(lk, name);
	q7_diags_add_rule(ds, Q7_RULE_UNDEFINED, AT(at),
	                  "%s: the symbol '%s' in %s may define it, but q7cc cannot read it (%s)", who,
	                  lk->unreadable->name, lk->unreadable->where, lk->unreadable_why);
	free(who);
	return true;
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
	op->params = q7_xcalloc(f->nparams, sizeof *op->params);
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
                         const char *toolchain, bool *drop, struct q7_op_table *add,
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
	struct facts fs = {0};
	if (gather(&lk, name, toolchain, &fs)) {
		if (q7_lint_kernel(&fs.k, ds) && lk.found_sym && !lk.other_sym) {
			derive(&lk, stack, add);
			add->ops[add->n - 1].ns = q7_xstrdup(q7_request_ns(all, name));
		}
	} else {
		settled = report_unreadable(&lk, name, ds);
	}
	facts_free(&fs);
	/* Requests settled here (found, or reported) leave the table, so the
	 * merge neither reports them again nor sees them. */
	for (size_t i = 0; settled && i < all->n; i++)
		if (all->ops[i].by_name_only && strcmp(all->ops[i].name, name) == 0)
			drop[i] = true;
	q7_mfunc_free(&lk.found);
	q7_mfunc_free(&lk.other);
}

void q7_ops_resolve(struct q7_op_table *all, const struct q7_fsyms *syms, const char *toolchain,
                    struct q7_diags *diags)
{
	struct q7_strvec names = {0};
	q7_ops_adopt_namespaces(all); /* before the requests leave */
	q7_ops_unresolved(all, &names);
	bool *drop = q7_xcalloc(all->n, sizeof *drop);
	struct q7_op_table add = {0};
	for (size_t i = 0; i < all->n; i++)
		if (all->ops[i].by_name_only && has_definition(all, all->ops[i].name))
			drop[i] = true; /* satisfied by a record (a marked definition) */
	for (size_t i = 0; i < names.n; i++)
		resolve_name(all, names.v[i], syms, toolchain, drop, &add, diags);
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

void q7_kernel_lookalikes(const struct q7_fsyms *syms, struct q7_strvec *out)
{
	for (size_t i = 0; i < syms->n; i++) {
		const struct q7_fsym *s = &syms->v[i];
		struct q7_mfunc f;
		const char *why;
		if (s->local || s->weak || q7_demangle(s->name, s->lp64, &f, &why) != 0)
			continue;
		bool tensor = false;
		for (size_t k = 0; k < f.nparams; k++)
			tensor = tensor || f.params[k].kind == Q7_KIND_TENSOR;
		if (f.what == Q7_MF_FREE && tensor) {
			char *sig = signature(&f);
			char *line = q7_xasprintf("%s in %s", sig, s->where);
			if (!q7_sv_has(out, line))
				q7_sv_add(out, line);
			free(line);
			free(sig);
		}
		q7_mfunc_free(&f);
	}
}
