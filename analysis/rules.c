/* Finding a lint rule (the table is lint.c's) and the profiles'
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

bool q7_profile_marshals(const char *profile, enum q7_kind k)
{
	const struct q7_kind_info *r = q7_kind_info(k);
	if (!r)
		return false;
	return r->xt || !profile || strcmp(profile, "xt") != 0;
}

char *q7_profile_kinds(const char *profile, const char *conj)
{
	struct q7_strbuf b = {0};
	q7_kinds_list(&b, profile && strcmp(profile, "xt") == 0, conj);
	return q7_sb_take(&b);
}

void q7_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default: {
			/* Controls (C0, DEL, C1) as \u escapes, so none reaches a
			 * terminal raw; a byte that is not UTF-8 as the text \xNN
			 * (JSON strings are Unicode: a file name's raw byte made
			 * the document invalid). */
			size_t n = *p < 0x80 ? 1 : q7_utf8_len(p);
			if (n == 1 && (*p < 0x20 || *p == 0x7f)) {
				fprintf(out, "\\u%04x", *p);
			} else if (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
				fprintf(out, "\\u%04x", p[1]);
				p++;
			} else if (n == 0) {
				fprintf(out, "\\\\x%02x", *p);
			} else {
				fwrite(p, 1, n, out);
				p += n - 1;
			}
		}
		}
	}
	fputc('"', out);
}
