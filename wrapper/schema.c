/* --q7-lint and --q7-print-schema: analysis without a compile, and the
 * schemas carried by sources, objects and archives, or written as text in
 * a .schemas file. */
#include "modes.h"
#include "record.h"
#include "schema.h"
#include "symbols.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Analyses one C++ input (a unit of kind Q7_IN_CXX or Q7_IN_CXX_PP) into
 * ops/diags; wanted: the names shape files of the same line ask for (or
 * NULL). *ran: something was found out (else the pre-scan found nothing
 * that could mark a kernel). 0, or an exit code. */
static int analyse(struct q7_drv *d, const struct q7_unit *u, char *const *wanted,
                   struct q7_op_table *ops, struct q7_diags *diags, bool *ran)
{
	struct q7_input in;
	*ran = false;
	int rc = q7_input_open(d, u->tok[0], u->input, &in);
	if (rc == 0 && q7_input_analyse(d, &in, wanted, ops, diags, ran) != 0)
		rc = Q7_EXIT_ERROR;
	q7_input_close(&in);
	return rc;
}

static bool is_cxx(const struct q7_unit *u)
{
	return u->input == Q7_IN_CXX || u->input == Q7_IN_CXX_PP;
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
	if ((g->rc = q7_drv_check_diag_format(d)))
		return false;
	if (d->inv.ninputs)
		return true;
	q7_error("%s: no input files", what);
	g->rc = Q7_EXIT_USAGE;
	return false;
}

static int finish(struct q7_drv *d, struct gather *g)
{
	size_t errors = q7_diags_apply_policy(&g->diags, &d->policy);
	return g->rc ? g->rc : errors ? Q7_EXIT_ERROR : 0;
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
		bool ran;
		if (is_cxx(u))
			r = analyse(d, u, NULL, &g.ops, &g.diags, &ran);
		else
			q7_error("%s: --q7-lint reads C++ sources only", u->tok[0]);
		if (r)
			g.rc = r;
	}
	int rc = finish(d, &g);
	if (strcmp(format(d), "json") == 0) {
		q7_ops_adopt_namespaces(&g.ops);
		q7_lint_write_json(&g.diags, &g.ops, stdout);
	} else if (strcmp(format(d), "sarif") == 0)
		q7_diags_write_sarif(&g.diags, stdout);
	else /* Under GCC's json, an array even when empty, as g++ -fsyntax-only
	      * prints one. */
		q7_drv_show(d, &g.diags, q7_drv_capture_err(d) ? "[]\n" : NULL);
	if (g.diags.n)
		q7_drv_note_unknown(d);
	gather_free(&g);
	return rc;
}

/* ---- --q7-print-schema ---------------------------------------------------- */

/* What one input gave. */
struct item {
	struct q7_op_table ops;
	struct q7_diags diags;
	bool ran;  /* a source libclang looked at */
	bool asks; /* it has NEURON_LIBRARY requests */
};

static bool has_request(const struct q7_op_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->ops[i].by_name_only)
			return true;
	return false;
}

static bool defines(const struct item *items, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < items[i].ops.n; k++) {
			const struct q7_op *op = &items[i].ops.ops[k];
			if (!op->by_name_only && op->defined && strcmp(op->name, name) == 0)
				return true;
		}
	return false;
}

/* The names NEURON_LIBRARY blocks ask for that no input defines yet. */
static void wanted_names(const struct item *items, size_t n, struct q7_strvec *out)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < items[i].ops.n; k++) {
			const struct q7_op *op = &items[i].ops.ops[k];
			if (op->by_name_only && !q7_sv_has(out, op->name) && !defines(items, n, op->name))
				q7_sv_add(out, op->name);
		}
}

/* Moves the item's ops and diagnostics to the end of g's. */
static void take_item(struct gather *g, struct item *it)
{
	for (size_t k = 0; k < it->ops.n; k++)
		*q7_ops_add(&g->ops) = it->ops.ops[k];
	free(it->ops.ops);
	it->ops.ops = NULL;
	it->ops.n = 0;
	for (size_t k = 0; k < it->ops.ndefs; k++)
		q7_ops_add_def(&g->ops, &it->ops.defs[k]);
	q7_ops_free(&it->ops); /* the defs */
	for (size_t k = 0; k < it->diags.n; k++) {
		Q7_GROW(g->diags.d, g->diags.cap, g->diags.n + 1);
		g->diags.d[g->diags.n++] = it->diags.d[k];
	}
	free(it->diags.d);
	memset(it, 0, sizeof *it);
}

/* Kernels that shape files name: docs/driver.md, "What each invocation
 * does" (--q7-print-schema). A source read again replaces its first
 * reading, so nothing is said twice. */
static void resolve_requests(struct q7_drv *d, struct item *items, struct gather *g)
{
	struct q7_strvec wanted = {0};
	wanted_names(items, d->inv.n, &wanted);
	for (size_t i = 0; i < d->inv.n && wanted.n && !d->dry; i++) {
		if (!is_cxx(&d->inv.u[i]) || items[i].asks)
			continue;
		struct item again = {0};
		if (analyse(d, &d->inv.u[i], wanted.v, &again.ops, &again.diags, &again.ran) ==
		        0 &&
		    again.ran) {
			q7_ops_free(&items[i].ops);
			q7_diags_free(&items[i].diags);
			items[i] = again;
		} else {
			q7_ops_free(&again.ops);
			q7_diags_free(&again.diags);
		}
	}
	q7_sv_free(&wanted);
	for (size_t i = 0; i < d->inv.n; i++) {
		if (is_cxx(&d->inv.u[i]) && !d->dry && !items[i].ops.n &&
		    !items[i].diags.n)
			q7_note("%s: no kernels: nothing marks a function of it as one (Q7_KERNEL, "
			        "--q7-kernel=NAME, or a NEURON_LIBRARY shape file on the same line)",
			        d->inv.u[i].tok[0]);
		take_item(g, &items[i]);
	}
	struct q7_strvec names = {0};
	for (size_t i = 0; i < g->ops.n; i++)
		if (g->ops.ops[i].by_name_only)
			q7_sv_add(&names, g->ops.ops[i].name);
	if (names.n && !g->rc && !d->dry) {
		struct q7_fsyms syms = {0};
		struct q7_err err = Q7_ERR_GROWING;
		for (size_t i = 0; i < d->inv.n && !g->rc; i++)
			if (d->inv.u[i].input == Q7_IN_LINK &&
			    q7_symbols_read(d->inv.u[i].tok[0], &names, &syms, &err) != 0)
				g->rc = Q7_EXIT_ERROR;
		q7_err_print(&err);
		/* Also drops the requests the sources' kernels answer. */
		if (!g->rc)
			q7_ops_resolve(&g->ops, &syms, d->tc.name, &g->diags);
		q7_fsyms_free(&syms);
	}
	for (size_t i = 0; i < g->ops.n; i++) {
		const struct q7_op *op = &g->ops.ops[i];
		if (op->by_name_only)
			q7_note("%s:%u: '%s' is named by NEURON_LIBRARY; its schema comes from the "
			        "source or object that defines it (give that file too)",
			        op->file, op->line, op->name);
	}
	q7_sv_free(&names);
}

static bool is_schemas_file(const char *path)
{
	size_t n = strlen(path);
	return n > 8 && strcmp(path + n - 8, ".schemas") == 0;
}

/* A .schemas file (docs/driver.md, "What each invocation does"): each
 * schema an op of that file and line. 0, or an exit code. */
static int read_schemas(const char *path, struct q7_op_table *ops, struct q7_diags *diags)
{
	size_t len;
	const char *why;
	char *text = q7_read_regular(path, Q7_READ_ARGS_MAX, &len, &why);
	if (!text) {
		q7_error("%s: cannot read: %s", path, why);
		return Q7_EXIT_IO;
	}
	if (memchr(text, '\0', len)) {
		q7_error("%s: not a text file of schemas (a NUL byte)", path);
		free(text);
		return Q7_EXIT_ERROR;
	}
	int rc = 0;
	unsigned lineno = 0;
	for (char *rest = text, *line; (line = strsep(&rest, "\n"));) {
		lineno++;
		line[strcspn(line, "#")] = '\0';
		const char *start = line;
		while (isspace((unsigned char)*start))
			start++;
		if (!*start)
			continue;
		struct q7_op op;
		struct q7_err err = Q7_ERR_GROWING;
		unsigned col = 0;
		if (q7_schema_parse(line, &op, &err, &col) != 0) {
			q7_diags_add(diags, Q7_SEV_ERROR, path, lineno, col, "", "%s", err.msg);
			q7_err_free(&err);
			rc = Q7_EXIT_ERROR;
			continue;
		}
		free(op.file);
		op.file = q7_xstrdup(path);
		op.line = lineno;
		op.col = (unsigned)(start - line) + 1;
		op.defined = true;
		q7_ops_add_copy(ops, &op);
		q7_op_clear(&op);
	}
	free(text);
	return rc;
}

int q7_mode_schema(struct q7_drv *d)
{
	struct gather g;
	if (!start(d, "--q7-print-schema", &g))
		return g.rc;
	struct item *items = q7_xcalloc(d->inv.n, sizeof *items);
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		struct item *it = &items[i];
		int r = 0;
		if (is_cxx(u)) {
			r = analyse(d, u, NULL, &it->ops, &it->diags, &it->ran);
			it->asks = has_request(&it->ops);
		} else if (u->input == Q7_IN_LINK && is_schemas_file(u->tok[0])) {
			if (q7_step_do(d, "read schemas from %s", u->tok[0]))
				r = read_schemas(u->tok[0], &it->ops, &it->diags);
		} else if (u->input == Q7_IN_LINK) {
			if (!q7_step_do(d, "read records from %s", u->tok[0])) {
				/* -###: shown only */
			} else if (!q7_path_exists(u->tok[0])) {
				q7_error("%s: cannot read: no such file", u->tok[0]);
				r = Q7_EXIT_IO;
			} else {
				struct q7_err err = Q7_ERR_GROWING;
				if (q7_record_read(u->tok[0], &it->ops, &err) != 0)
					r = Q7_EXIT_ERROR;
				q7_err_print(&err);
			}
		} else if (u->input) {
			q7_error("%s: not a C++ source, object or archive", u->tok[0]);
			r = Q7_EXIT_USAGE;
		}
		if (r)
			g.rc = r;
	}
	resolve_requests(d, items, &g);
	free(items);
	if (!d->dry)
		q7_ops_adopt_namespaces(&g.ops);
	int rc = finish(d, &g);
	if (strcmp(format(d), "sarif") == 0)
		q7_diags_write_sarif(&g.diags, stderr);
	else
		q7_drv_show(d, &g.diags, NULL);
	if (g.diags.n)
		q7_drv_note_unknown(d);
	if (strcmp(format(d), "json") == 0) {
		q7_ops_write_json(&g.ops, stdout);
	} else {
		for (size_t i = 0; i < g.ops.n; i++) {
			if (g.ops.ops[i].by_name_only)
				continue;
			struct q7_strbuf b = {0};
			q7_schema_print(&g.ops.ops[i], NULL, &b);
			printf("%s\n", b.s ? b.s : "");
			q7_sb_free(&b);
		}
	}
	fflush(stdout);
	gather_free(&g);
	return rc;
}
