/* Quick fixes: see fix.h. */
#include "fix.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The table of fixes known to be good (docs/editors.md, "Quick fixes"):
 * the parameter types, as the text spells them without a leading const,
 * whose fix gives a type the lint takes (lint-rules.md's kinds). Each
 * row's fix is applied and linted again by editor.lsp.fixes. */
enum fix_kind { FIX_NONE, FIX_SCALAR, FIX_PROFILE, FIX_OBJECT };
static const struct {
	const char *type;
	enum fix_kind kind;
} fix_table[] = {
    /* By value; a pointer or a reference to non-const. */
    {"int", FIX_SCALAR},          {"int32_t", FIX_SCALAR},     {"std::int32_t", FIX_SCALAR},
    {"long", FIX_SCALAR},         {"long long", FIX_SCALAR},   {"int64_t", FIX_SCALAR},
    {"std::int64_t", FIX_SCALAR}, {"float", FIX_SCALAR},
    /* By value too, but the vendor toolchain cannot pass them
     * (q7-profile-kind): offered, not preferred. */
    {"double", FIX_PROFILE},      {"bool", FIX_PROFILE},
    /* By value (a pointer), const& (a reference). */
    {"Tensor", FIX_OBJECT},       {"at::Tensor", FIX_OBJECT},  {"torch::Tensor", FIX_OBJECT},
    {"Scalar", FIX_OBJECT},       {"at::Scalar", FIX_OBJECT},  {"c10::Scalar", FIX_OBJECT},
    {"torch::Scalar", FIX_OBJECT},
};

/* The kind of the type text[0..n) (blanks and comments collapsed, a leading const
 * noted in *is_const and left out), FIX_NONE for any other type: an
 * unsigned, an int8_t, a TensorOptions, a template, a function pointer. */
static enum fix_kind kind_of(const char *type, size_t n, bool *is_const)
{
	char norm[64];
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		bool blank = isspace((unsigned char)type[i]);
		if (i + 1 < n && type[i] == '/' && (type[i + 1] == '*' || type[i + 1] == '/')) {
			/* A comment is a blank. */
			const char *close = type[i + 1] == '*' ? "*/" : "\n";
			const char *e = memmem(type + i + 2, n - i - 2, close, strlen(close));
			if (!e)
				return FIX_NONE;
			i = (size_t)(e - type) + strlen(close) - 1;
			blank = true;
		}
		if (blank && (len == 0 || norm[len - 1] == ' '))
			continue;
		if (len + 1 >= sizeof norm)
			return FIX_NONE;
		norm[len++] = blank ? ' ' : type[i];
	}
	while (len > 0 && norm[len - 1] == ' ')
		len--;
	norm[len] = '\0';
	const char *t = norm;
	*is_const = strncmp(t, "const ", 6) == 0;
	if (*is_const)
		t += 6;
	for (size_t i = 0; i < sizeof fix_table / sizeof *fix_table; i++)
		if (strcmp(t, fix_table[i].type) == 0)
			return fix_table[i].kind;
	return FIX_NONE;
}

/* The parameter whose name starts at at: by pointer or by reference, of
 * a type of the table, and nothing after its name (a default argument
 * `= nullptr`, an array's `[4]`: no fix). */
static bool fix_param(const char *text, size_t at, struct q7_fix *fix)
{
	size_t end = at;
	while (q7_text_is_word(text[end]))
		end++;
	int n = (int)(end - at);
	if (n == 0)
		return false; /* no name there: no fix titled "pass ''" */
	while (isspace((unsigned char)text[end]))
		end++;
	if (text[end] != ',' && text[end] != ')')
		return false;
	size_t p = at;
	while (p > 0 && isspace((unsigned char)text[p - 1]))
		p--;
	if (p < 2 || (text[p - 1] != '*' && text[p - 1] != '&'))
		return false;
	char mark = text[p - 1];
	/* The parameter's first byte: after the '(' or ',' before it. */
	size_t start = p - 1;
	while (start > 0 && text[start - 1] != '(' && text[start - 1] != ',')
		start--;
	bool is_const;
	enum fix_kind kind = kind_of(text + start, p - 1 - start, &is_const);
	if (kind == FIX_NONE || (mark == '&' && is_const))
		return false; /* && and ** end in no type of the table either */
	while (isspace((unsigned char)text[start]))
		start++;
	fix->preferred = kind != FIX_PROFILE;
	if (mark == '&' && kind == FIX_OBJECT) {
		fix->from = fix->to = start;
		fix->with = "const ";
		snprintf(fix->title, sizeof fix->title, "q7cc: pass '%.*s' as const&", n, text + at);
		return true;
	}
	/* The '*' or '&', and the blanks between it and the name if the type
	 * ends in a blank already ("float *by" -> "float by"). */
	fix->from = p - 1;
	fix->to = p;
	if (fix->from > 0 && isspace((unsigned char)text[fix->from - 1]))
		fix->to = at;
	fix->with = "";
	snprintf(fix->title, sizeof fix->title, "q7cc: pass '%.*s' by value", n, text + at);
	return true;
}

/* The keyword word before at on its line, removed with the blanks after
 * it (`static` of a kernel with internal linkage, `inline`). */
static bool fix_keyword(const char *text, size_t len, size_t at, const char *word,
                        const char *why, struct q7_fix *fix)
{
	size_t n = strlen(word), line = at;
	while (line > 0 && text[line - 1] != '\n')
		line--;
	for (size_t i = line; i + n <= at; i++) {
		if (!q7_text_word_at(text, len, i, word))
			continue;
		fix->from = i;
		fix->to = i + n;
		while (fix->to < at && (text[fix->to] == ' ' || text[fix->to] == '\t'))
			fix->to++;
		fix->with = "";
		fix->preferred = true;
		snprintf(fix->title, sizeof fix->title, "q7cc: remove '%s' (%s)", word, why);
		return true;
	}
	return false;
}

/* Whether the finding's place in the text is what its message names: the
 * parameter in the kernel's own parameter list, or the kernel's name, so
 * that a place that is off (a #line the editor could not follow) never
 * edits another function. */
static bool place_is_named(const char *rule, const char *message, const char *text, size_t len,
                           size_t at)
{
	char kernel[128], param[128];
	if (!q7_text_quoted(message, "kernel '", kernel, sizeof kernel))
		return false;
	if (strcmp(rule, "q7-unsupported-param") != 0)
		return q7_text_word_at(text, len, at, kernel);
	if (!q7_text_quoted(message, "parameter '", param, sizeof param) || !q7_text_word_at(text, len, at, param))
		return false;
	/* Back to the '(' that opens the parameter list: the kernel's name. */
	int depth = 0;
	size_t p = at;
	while (p > 0 && (depth > 0 || text[p - 1] != '(')) {
		p--;
		depth += text[p] == ')' || text[p] == '>' ? 1 : text[p] == '(' || text[p] == '<' ? -1 : 0;
		if (text[p] == ';' || text[p] == '{' || text[p] == '}')
			return false;
	}
	if (p == 0)
		return false;
	p--;
	while (p > 0 && isspace((unsigned char)text[p - 1]))
		p--;
	size_t end = p;
	while (p > 0 && q7_text_is_word(text[p - 1]))
		p--;
	return end - p == strlen(kernel) && q7_text_word_at(text, len, p, kernel);
}

bool q7_fix_find(const char *rule, const char *message, const char *text, size_t len, size_t at,
                 struct q7_fix *fix)
{
	if (at >= len || !place_is_named(rule, message, text, len, at))
		return false;
	memset(fix, 0, sizeof *fix);
	if (strcmp(rule, "q7-unsupported-param") == 0)
		return fix_param(text, at, fix);
	if (strcmp(rule, "q7-internal-linkage") == 0)
		return fix_keyword(text, len, at, "static", "a kernel needs external linkage", fix);
	if (strcmp(rule, "q7-inline") == 0)
		return fix_keyword(text, len, at, "inline", "an object must define the kernel", fix);
	return false;
}
