/* --q7-lint and --q7-print-schema: analysis without a compile, and the
 * schemas carried by sources, objects and archives. */
#include "modes.h"
#include "record.h"
#include "symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Analyses one source into ops/diags. 0, or an exit code. */
static int analyse(struct q7_drv *d, const char *src, struct q7_op_table *ops,
                   struct q7_diags *diags)
{
	struct q7_strvec args = {0};
	struct q7_analysis_opts o;
	q7_drv_analysis_opts(d, src, &args, &o);
	int rc = 0;
	if (q7_analysis_needed(&o)) {
		q7_step_note(d, "analyze %s", src);
		if (!d->dry) {
			q7_drv_sysinfo(d, &o);
			if (q7_analyze(&o, ops, diags) != 0)
				rc = Q7_EXIT_ERROR;
		}
	}
	q7_sv_free(&args);
	return rc;
}

static const char *format(const struct q7_drv *d)
{
	return d->inv.format ? d->inv.format : "text";
}

/* What both modes gather: ops and findings over every input. */
struct gather {
	struct q7_op_table ops;
	struct q7_diags diags;
	int rc;
};

static bool start(const struct q7_drv *d, const char *what, struct gather *g)
{
	memset(g, 0, sizeof *g);
	if (d->inv.ninputs)
		return true;
	q7_error("%s: no input files", what);
	g->rc = Q7_EXIT_USAGE;
	return false;
}

/* Applies the policy; returns the exit code. */
static int finish(struct q7_drv *d, struct gather *g, size_t *errors)
{
	*errors = q7_diags_apply_policy(&g->diags, &d->policy);
	return g->rc ? g->rc : *errors ? Q7_EXIT_ERROR : 0;
}

static void gather_free(struct gather *g)
{
	q7_ops_free(&g->ops);
	q7_diags_free(&g->diags);
}

int q7_mode_lint(struct q7_drv *d)
{
	struct gather g;
	if (!start(d, "--q7-lint", &g))
		return g.rc;
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		if (!u->input)
			continue;
		int r = Q7_EXIT_USAGE;
		if (u->input == Q7_IN_CXX)
			r = analyse(d, u->tok[0], &g.ops, &g.diags);
		else
			q7_error("%s: --q7-lint reads C++ sources only", u->tok[0]);
		if (r)
			g.rc = r;
	}
	size_t errors;
	int rc = finish(d, &g, &errors);
	if (strcmp(format(d), "json") == 0)
		q7_diags_write_json(&g.diags, stdout);
	else if (strcmp(format(d), "sarif") == 0)
		q7_diags_write_sarif(&g.diags, stdout);
	else
		q7_diags_print(&g.diags, stderr, q7_drv_color(d));
	gather_free(&g);
	return rc;
}

/* NEURON_LIBRARY requests among the records: their ops come from the
 * symbols of the objects given, as at link time. Those still unresolved
 * have no schema to print; a note says where it will come from. */
static void resolve_requests(struct q7_drv *d, struct gather *g)
{
	struct q7_strvec names = {0}, files = {0};
	for (size_t i = 0; i < g->ops.n; i++)
		if (g->ops.ops[i].by_name_only)
			q7_sv_add(&names, g->ops.ops[i].name);
	for (size_t i = 0; i < d->inv.n; i++)
		if (d->inv.u[i].input == Q7_IN_LINK)
			q7_sv_add(&files, d->inv.u[i].tok[0]);
	if (names.n && files.n && !g->rc) {
		struct q7_fsyms syms = {0};
		for (size_t i = 0; i < files.n && !g->rc; i++)
			if (q7_symbols_read(files.v[i], &names, &syms) != 0)
				g->rc = Q7_EXIT_ERROR;
		if (!g->rc)
			q7_ops_resolve(&g->ops, &syms, d->prof.name, &g->diags);
		q7_fsyms_free(&syms);
	}
	for (size_t i = 0; i < g->ops.n; i++) {
		const struct q7_op *op = &g->ops.ops[i];
		if (op->by_name_only)
			q7_note("%s:%u: '%s' is named by NEURON_LIBRARY; its schema comes from the "
			        "object that defines it (give that object too)",
			        op->file, op->line, op->name);
	}
	q7_sv_free(&names);
	q7_sv_free(&files);
}

int q7_mode_schema(struct q7_drv *d)
{
	struct gather g;
	if (!start(d, "--q7-print-schema", &g))
		return g.rc;
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		int r = 0;
		if (u->input == Q7_IN_CXX) {
			r = analyse(d, u->tok[0], &g.ops, &g.diags);
		} else if (u->input == Q7_IN_LINK) {
			q7_step_note(d, "read records from %s", u->tok[0]);
			if (!d->dry && !q7_path_exists(u->tok[0])) {
				q7_error("%s: cannot read: no such file", u->tok[0]);
				r = Q7_EXIT_IO;
			} else if (!d->dry && q7_record_read(u->tok[0], &g.ops) != 0) {
				r = Q7_EXIT_ERROR;
			}
		} else if (u->input) {
			q7_error("%s: not a C++ source, object or archive", u->tok[0]);
			r = Q7_EXIT_USAGE;
		}
		if (r)
			g.rc = r;
	}
	if (!d->dry)
		resolve_requests(d, &g);
	size_t errors;
	int rc = finish(d, &g, &errors);
	if (strcmp(format(d), "sarif") == 0)
		q7_diags_write_sarif(&g.diags, stderr);
	else
		q7_diags_print(&g.diags, stderr, q7_drv_color(d));
	if (strcmp(format(d), "json") == 0) {
		q7_ops_write_json(&g.ops, stdout);
	} else {
		for (size_t i = 0; i < g.ops.n; i++) {
			if (g.ops.ops[i].by_name_only)
				continue;
			struct q7_strbuf b = {0};
			q7_schema_print(&g.ops.ops[i], &b);
			printf("%s\n", b.s ? b.s : "");
			q7_sb_free(&b);
		}
	}
	fflush(stdout);
	gather_free(&g);
	return rc;
}
