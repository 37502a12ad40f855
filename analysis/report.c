/* Machine-readable output for CI: diagnostics as JSON and as SARIF 2.1.0,
 * op tables as JSON. Key order is fixed and output deterministic. */
#include "analysis.h"
#include "schema.h"
#include "internal.h"

#include <string.h>

static const char *sev_name(enum q7_severity s)
{
	return s == Q7_SEV_ERROR ? "error" : s == Q7_SEV_WARNING ? "warning" : "note";
}

/* "diagnostics": [{"file", "line", "column", "severity", "rule",
 *   "message"}, ...]; line/column 0 mean unknown. */
static void diags_members(const struct q7_diags *ds, FILE *out)
{
	fputs("\"diagnostics\": [", out);
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		fputs(i ? ",\n  {" : "\n  {", out);
		fputs("\"file\": ", out);
		q7_json_str(out, d->file);
		fprintf(out, ", \"line\": %u, \"column\": %u, \"severity\": \"%s\", \"rule\": ", d->line,
		        d->col, sev_name(d->severity));
		q7_json_str(out, d->rule);
		fputs(", \"message\": ", out);
		q7_json_str(out, d->message);
		fputc('}', out);
	}
	fputs(ds->n ? "\n]" : "]", out);
}

void q7_diags_write_json(const struct q7_diags *ds, FILE *out)
{
	fputc('{', out);
	diags_members(ds, out);
	fputs("}\n", out);
}

/* SARIF wants a URI: relative paths stay relative (resolved against the
 * run's working directory), absolute ones become file:// URIs; bytes other
 * than unreserved ones and '/' are percent-encoded. */
static void write_uri(FILE *out, const char *path)
{
	struct q7_strbuf b = {0};
	if (path[0] == '/')
		q7_sb_add(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			q7_sb_addc(&b, (char)*p);
		else
			q7_sb_addf(&b, "%%%02X", *p);
	}
	q7_json_str(out, b.s ? b.s : "");
	q7_sb_free(&b);
}

void q7_diags_write_sarif(const struct q7_diags *ds, FILE *out)
{
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n"
	      "  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": \"q7cc\", \"rules\": [",
	      out);
	for (const struct q7_rule *r = q7_rules; r->name; r++) {
		fputs(r == q7_rules ? "\n      " : ",\n      ", out);
		fputs("{\"id\": ", out);
		q7_json_str(out, r->name);
		fputs(", \"shortDescription\": {\"text\": ", out);
		q7_json_str(out, r->summary);
		fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}", sev_name(r->severity));
	}
	fputs("]}},\n    \"results\": [", out);
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		fputs(i ? ",\n      {" : "\n      {", out);
		if (*d->rule) {
			fputs("\"ruleId\": ", out);
			q7_json_str(out, d->rule);
			fputs(", ", out);
		}
		fprintf(out, "\"level\": \"%s\", \"message\": {\"text\": ", sev_name(d->severity));
		q7_json_str(out, d->message);
		fputc('}', out);
		if (*d->file) {
			fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ",
			      out);
			write_uri(out, d->file);
			fputc('}', out);
			if (d->line) {
				fprintf(out, ", \"region\": {\"startLine\": %u", d->line);
				if (d->col)
					fprintf(out, ", \"startColumn\": %u", d->col);
				fputc('}', out);
			}
			fputs("}}]", out);
		}
		fputc('}', out);
	}
	fputs(ds->n ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
}

/* "ops": [{"name", "qualname", "namespace", "schema", "return": {"type",
 *   "kind", "ctype", "name"}, "params": [{"name", "type", "kind",
 *   "ctype"}], "stack_size", "defined", "file", "line", "column",
 *   "by_name_only"}, ...]}; schema and type are TorchScript, kind the
 * exact kind ("long long"), qualname and ctype C++, namespace the op's in
 * PyTorch (op.h: ns); by_name_only: a NEURON_LIBRARY request without a
 * signature (op.h); "neuron_library": [{"namespace", "op", "compute",
 * "shape", "file", "line", "column", "shape_file", "shape_line"}, ...],
 * each m.def of the sources' NEURON_LIBRARY blocks (op.h: q7_neuron_def),
 * at the m.def. */
static void ops_members(const struct q7_op_table *ops, FILE *out)
{
	fputs("\"ops\": [", out);
	for (size_t i = 0; i < ops->n; i++) {
		const struct q7_op *op = &ops->ops[i];
		struct q7_strbuf schema = {0};
		q7_schema_print(op, NULL, &schema);
		fputs(i ? ",\n  {" : "\n  {", out);
		fputs("\"name\": ", out);
		q7_json_str(out, op->name);
		fputs(", \"qualname\": ", out);
		q7_json_str(out, op->qualname);
		fputs(", \"namespace\": ", out);
		q7_json_str(out, op->ns ? op->ns : "");
		fputs(", \"schema\": ", out);
		q7_json_str(out, schema.s);
		fprintf(out, ",\n   \"return\": {\"type\": \"%s\", \"kind\": \"%s\", \"ctype\": ",
		        q7_kind_torch(op->ret), q7_kind_name(op->ret));
		q7_json_str(out, op->ret_ctype);
		fputs(", \"name\": ", out);
		q7_json_str(out, op->ret_name);
		fputs("},\n   \"params\": [", out);
		for (size_t k = 0; k < op->nparams; k++) {
			const struct q7_param *p = &op->params[k];
			fputs(k ? ", {\"name\": " : "{\"name\": ", out);
			q7_json_str(out, p->name);
			fprintf(out, ", \"type\": \"%s\", \"kind\": \"%s\", \"ctype\": ", q7_kind_torch(p->kind),
			        q7_kind_name(p->kind));
			q7_json_str(out, p->ctype);
			fputc('}', out);
		}
		fprintf(out, "],\n   \"stack_size\": %u, \"defined\": %s, \"file\": ", op->stack_size,
		        op->defined ? "true" : "false");
		q7_json_str(out, op->file);
		fprintf(out, ", \"line\": %u, \"column\": %u, \"by_name_only\": %s}", op->line, op->col,
		        op->by_name_only ? "true" : "false");
		q7_sb_free(&schema);
	}
	fputs(ops->n ? "\n], \"neuron_library\": [" : "], \"neuron_library\": [", out);
	for (size_t i = 0; i < ops->ndefs; i++) {
		const struct q7_neuron_def *d = &ops->defs[i];
		fputs(i ? ",\n  {\"namespace\": " : "\n  {\"namespace\": ", out);
		q7_json_str(out, d->ns);
		fputs(", \"op\": ", out);
		q7_json_str(out, d->op);
		fputs(", \"compute\": ", out);
		q7_json_str(out, d->fn);
		fputs(", \"shape\": ", out);
		q7_json_str(out, d->shape);
		fputs(", \"file\": ", out);
		q7_json_str(out, d->file);
		fprintf(out, ", \"line\": %u, \"column\": %u, \"shape_file\": ", d->line, d->col);
		q7_json_str(out, d->shape_file);
		fprintf(out, ", \"shape_line\": %u}", d->shape_line);
	}
	fputs(ops->ndefs ? "\n]" : "]", out);
}

void q7_ops_write_json(const struct q7_op_table *ops, FILE *out)
{
	fputc('{', out);
	ops_members(ops, out);
	fputs("}\n", out);
}

void q7_lint_write_json(const struct q7_diags *ds, const struct q7_op_table *ops, FILE *out)
{
	fputc('{', out);
	diags_members(ds, out);
	fputs(",\n", out);
	ops_members(ops, out);
	fputs("}\n", out);
}
