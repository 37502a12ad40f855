/* The lint rule table and the profiles' marshalling abilities: the facts
 * the rules, the SARIF writer and docs/lint-rules.md share. */
#include "internal.h"

#include <string.h>

/* Sorted by name. Keep docs/lint-rules.md in step (a test checks). */
const struct q7_rule q7_rules[] = {
	{Q7_RULE_C_LINKAGE, Q7_SEV_ERROR, "a kernel has C language linkage (extern \"C\")", false},
	{Q7_RULE_DUPLICATE, Q7_SEV_ERROR, "two kernels of one library have the same name", false},
	{Q7_RULE_FOREIGN_PP, Q7_SEV_WARNING, "preprocessed input that q7cc -E did not make has lost its kernel marks", false},
	{Q7_RULE_INLINE, Q7_SEV_ERROR, "a kernel is inline (or constexpr), so no object need define it", false},
	{Q7_RULE_INTERNAL, Q7_SEV_ERROR, "a kernel has internal linkage (static or in an unnamed namespace)", false},
	{Q7_RULE_INVALID_DECL, Q7_SEV_ERROR, "the kernel's declaration is invalid (a type could not be resolved)", false},
	{Q7_RULE_MEMBER, Q7_SEV_ERROR, "a kernel is a member function", false},
	{Q7_RULE_MULTICORE_ACCESSOR, Q7_SEV_WARNING, "a multicore kernel uses a standard or streaming accessor, which race between cores", false},
	{Q7_RULE_NAME_LENGTH, Q7_SEV_ERROR, "a kernel's name has 32 characters or more", false},
	{Q7_RULE_OVERLOAD, Q7_SEV_ERROR, "a kernel's name is overloaded", false},
	{Q7_RULE_PROFILE_KIND, Q7_SEV_WARNING, "the profile's runtime cannot pass a parameter of this kind", false},
	{Q7_RULE_RETURN, Q7_SEV_ERROR, "a kernel does not return exactly one Tensor", false},
	{Q7_RULE_STACK, Q7_SEV_ERROR, "a Q7_KERNEL_STACK or -DSTACK_SIZE= size is not a number of bytes up to 4 MiB", false},
	{Q7_RULE_TEMPLATE, Q7_SEV_ERROR, "a kernel is a template", false},
	{Q7_RULE_TOO_MANY, Q7_SEV_ERROR, "a library has more than 10 kernels", false},
	{Q7_RULE_UNDEFINED, Q7_SEV_ERROR, "a kernel is declared but defined in no object of the link", false},
	/* Demotable: a target that gives every file the same --q7-kernel=
	 * names may let the files without them pass. */
	{Q7_RULE_UNKNOWN_KERNEL, Q7_SEV_ERROR, "a --q7-kernel name is no function of the file", true},
	{Q7_RULE_UNSUPPORTED_PARAM, Q7_SEV_ERROR, "a parameter's type cannot be passed to a kernel", false},
	{Q7_RULE_VARIADIC, Q7_SEV_ERROR, "a kernel is variadic", false},
	{NULL, Q7_SEV_NOTE, NULL, false},
};

const struct q7_rule *q7_rule_find(const char *name)
{
	for (const struct q7_rule *r = q7_rules; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
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
