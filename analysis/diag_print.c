/* Diagnostics as clang prints them (docs/lint-rules.md, "How findings
 * look"). GCC's style is diag_gcc.c's; q7_diags_print picks one. */
#include "internal.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* clang's colours (TextDiagnostic.cpp): the place and a warning or
 * error's message bold, the severity in its colour, the caret line green. */
#define C_BOLD "\033[1m"
#define C_RED "\033[0;1;31m"
#define C_MAGENTA "\033[0;1;35m"
#define C_NOTE "\033[0;1;30m"
#define C_GREEN "\033[0;1;32m"
#define C_RESET "\033[0m"

static void print_source(FILE *out, struct q7_src_cache *cache, const struct q7_diag *d,
                         bool color)
{
	size_t len;
	const char *l = q7_src_line(cache, d, &len);
	unsigned col = d->col;
	if (!l)
		return;
	char *copy = q7_xstrndup(l, len);
	struct q7_strbuf shown = {0};
	q7_sb_add(&shown, "");
	q7_sb_add_shown(&shown, copy, true);
	fprintf(out, "%s\n", shown.s);
	q7_sb_free(&shown);
	free(copy);
	if (col == 0)
		return;
	/* Copy tabs so that the caret lines up however tabs are shown. */
	if (color)
		fputs(C_GREEN, out);
	for (size_t i = 0; i + 1 < col && i < len; i++)
		fputc(l[i] == '\t' ? '\t' : ' ', out);
	fprintf(out, "^\n%s", color ? C_RESET : "");
}

/* ":3:6", "(3,6)" or " +3:6" after the file's name. */
static void print_place(FILE *out, const struct q7_diag *d, enum q7_clang_format format,
                        bool column)
{
	if (!d->line)
		return;
	column = column && d->col;
	if (format == Q7_CLANG_FORMAT_MSVC) {
		fprintf(out, "(%u", d->line);
		if (column)
			fprintf(out, ",%u", d->col);
		fputc(')', out);
		return;
	}
	fprintf(out, format == Q7_CLANG_FORMAT_VI ? " +%u" : ":%u", d->line);
	if (column)
		fprintf(out, ":%u", d->col);
}

static void print_clang(const struct q7_diags *ds, FILE *out, const struct q7_diag_render *r)
{
	bool color = r->color;
	struct q7_src_cache cache = {0};
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		const char *sev = q7_severity_name(d->severity);
		const char *sev_color = d->severity == Q7_SEV_ERROR     ? C_RED
		                        : d->severity == Q7_SEV_WARNING ? C_MAGENTA
		                                                        : C_NOTE;
		if (color && *d->file)
			fputs(C_BOLD, out);
		if (*d->file) {
			q7_fputs_shown(d->file, out);
			print_place(out, d, r->clang_format, !r->no_column);
		} else {
			fputs(q7_progname(), out);
		}
		fputs(": ", out);
		if (color)
			fprintf(out, "%s%s%s: %s%s", *d->file ? C_RESET : "", sev_color, sev, C_RESET,
			        d->severity == Q7_SEV_NOTE ? "" : C_BOLD);
		else
			fprintf(out, "%s: ", sev);
		q7_fputs_shown(d->message, out);
		if (*d->rule) {
			fprintf(out, " [%s-W", d->promoted ? "-Werror," : "");
			q7_fputs_shown(d->rule, out);
			fputc(']', out);
		}
		if (color)
			fputs(C_RESET, out);
		fputc('\n', out);
		if (!r->no_caret)
			print_source(out, &cache, d, color);
	}
	q7_src_cache_free(&cache);
}

void q7_diags_print(const struct q7_diags *ds, FILE *out, const struct q7_diag_render *r)
{
	if (r->style == Q7_DIAG_CLANG) {
		print_clang(ds, out, r);
	} else if (!r->json) {
		q7_diags_print_gcc(ds, out, r);
	} else if (ds->n) { /* GCC's JSON array; nothing for no diagnostics */
		struct json_object *a = q7_json_arr(NULL, NULL);
		q7_diags_add_gcc_json(ds, a, r);
		q7_json_print(a, out);
		json_object_put(a);
	}
}
