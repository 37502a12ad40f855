/* The lint rule table and the profiles' marshalling abilities: the facts
 * the rules, the SARIF writer and docs/lint-rules.md share. */
#include "internal.h"

#include <string.h>

/* Sorted by name. Keep docs/lint-rules.md in step (a test checks). */
const struct q7_rule q7_rules[] = {
	{Q7_RULE_C_LINKAGE, Q7_SEV_ERROR, "a kernel has C language linkage (extern \"C\")"},
	{Q7_RULE_DUPLICATE, Q7_SEV_ERROR, "two kernels of one library have the same name"},
	{Q7_RULE_INLINE, Q7_SEV_ERROR, "a kernel is inline (or constexpr), so no object need define it"},
	{Q7_RULE_INTERNAL, Q7_SEV_ERROR, "a kernel has internal linkage (static or in an unnamed namespace)"},
	{Q7_RULE_INVALID_DECL, Q7_SEV_ERROR, "the kernel's declaration is invalid (a type could not be resolved)"},
	{Q7_RULE_MEMBER, Q7_SEV_ERROR, "a kernel is a member function"},
	{Q7_RULE_MULTICORE_ACCESSOR, Q7_SEV_WARNING, "a multicore kernel uses a standard or streaming accessor, which race between cores"},
	{Q7_RULE_NAME_LENGTH, Q7_SEV_ERROR, "a kernel's name has 32 characters or more"},
	{Q7_RULE_OVERLOAD, Q7_SEV_ERROR, "a kernel's name is overloaded"},
	{Q7_RULE_PROFILE_KIND, Q7_SEV_WARNING, "the profile's runtime cannot pass a parameter of this kind"},
	{Q7_RULE_RETURN, Q7_SEV_ERROR, "a kernel does not return exactly one Tensor"},
	{Q7_RULE_STACK, Q7_SEV_ERROR, "a Q7_KERNEL_STACK or -DSTACK_SIZE= size is not a number of bytes up to 4 MiB"},
	{Q7_RULE_TEMPLATE, Q7_SEV_ERROR, "a kernel is a template"},
	{Q7_RULE_TOO_MANY, Q7_SEV_ERROR, "a library has more than 10 kernels"},
	{Q7_RULE_UNDEFINED, Q7_SEV_ERROR, "a kernel is declared but defined in no object of the link"},
	{Q7_RULE_UNSUPPORTED_PARAM, Q7_SEV_ERROR, "a parameter's type cannot be passed to a kernel"},
	{Q7_RULE_VARIADIC, Q7_SEV_ERROR, "a kernel is variadic"},
	{NULL, Q7_SEV_NOTE, NULL},
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
	if (k == Q7_KIND_INVALID)
		return false;
	if (profile && strcmp(profile, "xt") == 0)
		return k != Q7_KIND_DOUBLE && k != Q7_KIND_BOOL;
	return true;
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
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}
