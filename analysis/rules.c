/* Finding a lint rule (the table is lint.c's) and the toolchains'
 * marshalling abilities: the facts the rules, the SARIF writer and
 * docs/lint-rules.md share. */
#include "internal.h"

#include <string.h>

const struct q7_rule *q7_rule_find(const char *name)
{
	for (const struct q7_rule *r = q7_rules; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

void q7_diags_add_rule(struct q7_diags *ds, const char *rule, const char *file, unsigned line,
                       unsigned col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_diags_vadd(ds, q7_rule_find(rule)->severity, file, line, col, rule, fmt, ap);
	va_end(ap);
}

bool q7_toolchain_marshals(const char *toolchain, enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	if (!r)
		return false;
	return r->xt || !toolchain || strcmp(toolchain, "xt") != 0;
}

char *q7_toolchain_kinds(const char *toolchain, const char *conj)
{
	struct q7_strbuf b = {0};
	q7_kinds_list(&b, toolchain && strcmp(toolchain, "xt") == 0, conj);
	return q7_sb_take(&b);
}
