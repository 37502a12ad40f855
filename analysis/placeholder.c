/* PLACEHOLDER until analysis lands: every entry point fails loudly.
 * Delete each function here as its real implementation is written. */
#include "analysis.h"

#include <stdlib.h>

static void not_yet(const char *what)
{
	q7_error("%s: not implemented yet", what);
}

void q7_diags_add(struct q7_diags *ds, enum q7_severity sev, const char *file, unsigned line,
                  unsigned col, const char *rule, const char *fmt, ...)
{
	(void)ds; (void)sev; (void)file; (void)line; (void)col; (void)rule; (void)fmt;
	not_yet("q7_diags_add");
}
void q7_diags_free(struct q7_diags *ds) { (void)ds; }
bool q7_warn_policy_take(struct q7_warn_policy *p, const char *arg, bool *q7_only)
{
	(void)p; (void)arg; *q7_only = false;
	return false;
}
size_t q7_diags_apply_policy(struct q7_diags *ds, const struct q7_warn_policy *p)
{
	(void)p;
	return ds->n;
}
void q7_warn_policy_free(struct q7_warn_policy *p) { (void)p; }
void q7_diags_print(const struct q7_diags *ds, FILE *out, bool color) { (void)ds; (void)out; (void)color; }
void q7_diags_write_json(const struct q7_diags *ds, FILE *out) { (void)ds; (void)out; }
void q7_diags_write_sarif(const struct q7_diags *ds, FILE *out) { (void)ds; (void)out; }
bool q7_analysis_needed(const struct q7_analysis_opts *o) { (void)o; return false; }
int q7_analyze(const struct q7_analysis_opts *o, struct q7_op_table *ops, struct q7_diags *diags)
{
	(void)o; (void)ops; (void)diags;
	not_yet("q7_analyze");
	return -1;
}
void q7_ops_merge(const struct q7_op_table *in, const char *profile, struct q7_op_table *out,
                  struct q7_diags *diags)
{
	(void)profile; (void)diags;
	for (size_t i = 0; i < in->n; i++)
		q7_ops_add_copy(out, &in->ops[i]);
}
void q7_schema_print(const struct q7_op *op, struct q7_strbuf *out) { q7_sb_add(out, op->name); }
int q7_schema_parse(const char *text, struct q7_op *op, char **err)
{
	(void)text; (void)op;
	*err = q7_xstrdup("not implemented yet");
	return -1;
}
void q7_ops_write_json(const struct q7_op_table *ops, FILE *out) { (void)ops; (void)out; }
