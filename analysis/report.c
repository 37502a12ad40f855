/* Machine-readable output for CI: diagnostics as JSON and as SARIF 2.1.0,
 * op tables as JSON, each one line (json.c). Key order is fixed and output
 * deterministic. */
#include "analysis.h"
#include "schema.h"
#include "internal.h"

#include <json-c/json.h>
#include <stdlib.h>

/* "diagnostics": [{"file", "line", "column", "severity", "rule",
 *   "message"}, ...]; line/column 0 mean unknown. */
static void put_diags(struct json_object *doc, const struct q7_diags *ds)
{
	struct json_object *a = q7_json_arr(doc, "diagnostics");
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		struct json_object *o = q7_json_obj(a, NULL);
		q7_json_str(o, "file", d->file);
		q7_json_int(o, "line", d->line);
		q7_json_int(o, "column", d->col);
		q7_json_str(o, "severity", q7_severity_name(d->severity));
		q7_json_str(o, "rule", d->rule);
		q7_json_str(o, "message", d->message);
	}
}

static void print_doc(struct json_object *doc, FILE *out)
{
	q7_json_print(doc, out);
	json_object_put(doc);
}

static void sarif_result(struct json_object *results, const struct q7_diag *d)
{
	struct json_object *o = q7_json_obj(results, NULL);
	if (*d->rule)
		q7_json_str(o, "ruleId", d->rule);
	q7_json_str(o, "level", q7_severity_name(d->severity));
	q7_json_str(q7_json_obj(o, "message"), "text", d->message);
	if (!*d->file)
		return;
	struct json_object *loc = q7_json_obj(q7_json_obj(q7_json_arr(o, "locations"), NULL),
	                                      "physicalLocation");
	/* SARIF wants a URI: relative paths stay relative (resolved against
	 * the run's working directory), absolute ones become file:// URIs;
	 * bytes other than unreserved ones and '/' are percent-encoded. */
	struct q7_strbuf uri = {0};
	q7_sb_add(&uri, d->file[0] == '/' ? "file://" : "");
	q7_sb_add_uri_path(&uri, d->file);
	q7_json_str(q7_json_obj(loc, "artifactLocation"), "uri", uri.s);
	q7_sb_free(&uri);
	if (d->line) {
		struct json_object *region = q7_json_obj(loc, "region");
		q7_json_int(region, "startLine", d->line);
		if (d->col)
			q7_json_int(region, "startColumn", d->col);
	}
}

void q7_diags_write_sarif(const struct q7_diags *ds, FILE *out)
{
	struct json_object *doc = q7_json_obj(NULL, NULL);
	q7_json_str(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	q7_json_str(doc, "version", "2.1.0");
	struct json_object *run = q7_json_obj(q7_json_arr(doc, "runs"), NULL);
	struct json_object *driver = q7_json_obj(q7_json_obj(run, "tool"), "driver");
	q7_json_str(driver, "name", "q7cc");
	struct json_object *rules = q7_json_arr(driver, "rules");
	for (const struct q7_rule *r = q7_rules; r->name; r++) {
		struct json_object *o = q7_json_obj(rules, NULL);
		q7_json_str(o, "id", r->name);
		q7_json_str(q7_json_obj(o, "shortDescription"), "text", r->summary);
		q7_json_str(q7_json_obj(o, "defaultConfiguration"), "level",
		            q7_severity_name(r->severity));
	}
	struct json_object *results = q7_json_arr(run, "results");
	for (size_t i = 0; i < ds->n; i++)
		sarif_result(results, &ds->d[i]);
	print_doc(doc, out);
}

static void put_op(struct json_object *ops, const struct q7_op *op)
{
	struct json_object *o = q7_json_obj(ops, NULL);
	struct q7_strbuf schema = {0};
	q7_schema_print(op, NULL, &schema);
	q7_json_str(o, "name", op->name);
	q7_json_str(o, "qualname", op->qualname);
	q7_json_str(o, "namespace", op->ns);
	q7_json_str(o, "schema", schema.s);
	q7_sb_free(&schema);
	struct json_object *ret = q7_json_obj(o, "return");
	q7_json_str(ret, "type", q7_kind_torch(op->ret));
	q7_json_str(ret, "kind", q7_kind_name(op->ret));
	q7_json_str(ret, "ctype", op->ret_ctype);
	q7_json_str(ret, "name", op->ret_name);
	struct json_object *params = q7_json_arr(o, "params");
	for (size_t k = 0; k < op->nparams; k++) {
		const struct q7_param *p = &op->params[k];
		struct json_object *po = q7_json_obj(params, NULL);
		q7_json_str(po, "name", p->name);
		q7_json_str(po, "type", q7_kind_torch(p->kind));
		q7_json_str(po, "kind", q7_kind_name(p->kind));
		q7_json_str(po, "ctype", p->ctype);
	}
	q7_json_int(o, "stack_size", op->stack_size);
	q7_json_bool(o, "defined", op->defined);
	q7_json_str(o, "file", op->file);
	q7_json_int(o, "line", op->line);
	q7_json_int(o, "column", op->col);
	q7_json_bool(o, "by_name_only", op->by_name_only);
}

/* "ops" and "neuron_library" (docs/driver.md, --q7-print-schema): schema
 * and type are TorchScript, kind the exact kind, qualname and ctype C++. */
static void put_ops(struct json_object *doc, const struct q7_op_table *ops)
{
	struct json_object *a = q7_json_arr(doc, "ops");
	for (size_t i = 0; i < ops->n; i++)
		put_op(a, &ops->ops[i]);
	a = q7_json_arr(doc, "neuron_library");
	for (size_t i = 0; i < ops->ndefs; i++)
		q7_json_put_def(q7_json_obj(a, NULL), &ops->defs[i]);
}

void q7_ops_write_json(const struct q7_op_table *ops, FILE *out)
{
	struct json_object *doc = q7_json_obj(NULL, NULL);
	put_ops(doc, ops);
	print_doc(doc, out);
}

void q7_lint_write_json(const struct q7_diags *ds, const struct q7_op_table *ops, FILE *out)
{
	struct json_object *doc = q7_json_obj(NULL, NULL);
	put_diags(doc, ds);
	put_ops(doc, ops);
	print_doc(doc, out);
}
