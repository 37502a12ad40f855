/* How q7cc's own diagnostics reach stderr: in the style of the compiler
 * the toolchain runs (clang's or GCC's), in its colours, and under GCC's
 * -fdiagnostics-format=json merged into the one JSON array the compiler
 * prints, so that a tool reading stderr reads one valid array. */
#include "modes.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How q7cc's own diagnostics look: the toolchain's compiler's style
 * (q7_toolchain_clang_style) and colours (docs/lint-rules.md, "How
 * findings look"). */
static void render(const struct q7_drv *d, struct q7_diag_render *r)
{
	bool clang = q7_toolchain_clang_style(&d->tc);
	/* GCC 12 takes text and json, the last one given; clang 14 refuses
	 * json itself (its own error ends the compile). */
	const char *format = d->inv.diag_format ? d->inv.diag_format : "";
	*r = (struct q7_diag_render){
		.style = clang ? Q7_DIAG_CLANG : Q7_DIAG_GCC,
		.json = !clang && strcmp(format, "json") == 0,
		.werror_all = d->policy.werror, .no_caret = d->inv.no_caret,
		.no_line_numbers = d->inv.no_line_numbers, .no_column = d->inv.no_column,
		.byte_columns = d->inv.byte_columns, .column_shift = d->inv.column_shift,
	};
	if (clang && strcmp(format, "msvc") == 0)
		r->clang_format = Q7_CLANG_FORMAT_MSVC;
	else if (clang && strcmp(format, "vi") == 0)
		r->clang_format = Q7_CLANG_FORMAT_VI;
	const char *gcc_colors = clang ? NULL : getenv("GCC_COLORS");
	q7_gcc_colors_init(&r->gcc, gcc_colors);
	const char *term = getenv("TERM");
	bool color = d->inv.color >= 0 ? d->inv.color == 1
	                               : isatty(2) && term && strcmp(term, "dumb") != 0;
	/* GCC: GCC_COLORS set but empty turns colour off, even "always". */
	if (gcc_colors && !*gcc_colors)
		color = false;
	r->color = color && !r->json;
}

void q7_drv_print(const struct q7_drv *d, const struct q7_diags *ds)
{
	struct q7_diag_render r;
	render(d, &r);
	q7_diags_print(ds, stderr, &r);
	fflush(stderr);
}

int q7_drv_check_diag_format(const struct q7_drv *d)
{
	const char *f = d->inv.diag_format;
	if (!f)
		return 0;
	if (q7_toolchain_clang_style(&d->tc)) {
		if (strcmp(f, "clang") == 0 || strcmp(f, "msvc") == 0 || strcmp(f, "vi") == 0)
			return 0;
		q7_error("invalid value '%s' in '-fdiagnostics-format %s'", f, f);
	} else {
		if (strcmp(f, "text") == 0 || strcmp(f, "json") == 0)
			return 0;
		q7_error("unrecognized argument in option '-fdiagnostics-format=%s'", f);
		q7_note("valid arguments to '-fdiagnostics-format=' are: json text");
	}
	return Q7_EXIT_USAGE;
}

bool q7_drv_capture_err(const struct q7_drv *d)
{
	struct q7_diag_render r;
	render(d, &r);
	return r.json && !d->dry;
}

int q7_drv_capture_open(const struct q7_drv *d, const char *name, char **path)
{
	*path = NULL;
	if (!q7_drv_capture_err(d))
		return 0;
	*path = q7_drv_temp_path(d, name);
	int fd = open(*path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		q7_error("%s: cannot create: %s", *path, strerror(errno));
		free(*path);
		*path = NULL;
	}
	return fd;
}

/* The notes about -Wno-q7-NAME naming no rule, as text or, under json,
 * as diagnostics of their own (GCC's note has no place either). */
static void unknown_notes(struct q7_drv *d, struct q7_diags *json_ds)
{
	if (d->noted_unknown)
		return;
	d->noted_unknown = true;
	for (size_t i = 0; i < d->unknown_no.n; i++) {
		static const char what[] =
		        "unrecognized command-line option '%s' may have been intended to silence "
		        "earlier diagnostics";
		if (json_ds)
			q7_diags_add(json_ds, Q7_SEV_NOTE, "", 0, 0, "", what, d->unknown_no.v[i]);
		else
			q7_note(what, d->unknown_no.v[i]);
	}
}

void q7_drv_note_unknown(struct q7_drv *d)
{
	struct q7_diag_render r;
	render(d, &r);
	struct q7_diags notes = {0};
	unknown_notes(d, r.json ? &notes : NULL);
	q7_drv_print(d, &notes);
	q7_diags_free(&notes);
}

/* A line that is one JSON array as GCC 12 prints its diagnostics, parsed:
 * empty, or GCC's objects, each with its "kind" (an assembler's "[x]" is
 * not one); else NULL. The caller puts it. */
static struct json_object *gcc_array(const char *l, size_t n)
{
	while (n && (l[n - 1] == ' ' || l[n - 1] == '\r'))
		n--;
	if (n < 2 || l[0] != '[' || l[n - 1] != ']')
		return NULL;
	struct json_tokener *tok = json_tokener_new();
	struct json_object *a = json_tokener_parse_ex(tok, l, (int)n);
	bool whole = a && json_tokener_get_parse_end(tok) == n && json_object_is_type(a, json_type_array);
	json_tokener_free(tok);
	for (size_t k = 0; whole && k < json_object_array_length(a); k++)
		whole = json_object_object_get_ex(json_object_array_get_idx(a, k), "kind", NULL);
	if (!whole) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

/* The line that starts the assembler's messages (GCC's "x.s: Assembler
 * messages:"): what follows is the assembler's, whose text a source
 * controls (.error "...\n[{...}]"), never the compiler's array. */
static bool assembler_line(const char *l, size_t n)
{
	static const char tail[] = ": Assembler messages:";
	size_t k = sizeof tail - 1;
	while (n && l[n - 1] == '\r')
		n--;
	return n >= k && memcmp(l + n - k, tail, k) == 0;
}

void q7_drv_show(struct q7_drv *d, struct q7_diags *ds, const char *compiler_err)
{
	struct q7_diags none = {0};
	if (!ds)
		ds = &none;
	struct q7_diag_render r;
	render(d, &r);
	if (!r.json) {
		if (compiler_err)
			fputs(compiler_err, stderr);
		q7_diags_print(ds, stderr, &r);
		if (ds->n)
			unknown_notes(d, NULL);
		fflush(stderr);
		return;
	}
	if (ds->n)
		unknown_notes(d, ds);
	/* The compiler's other lines first (its driver's, the linker's), then
	 * one array of its objects and q7cc's. */
	struct json_object *all = json_object_new_array();
	bool arrays = false, assembler = false;
	for (const char *p = compiler_err ? compiler_err : ""; *p;) {
		size_t n = strcspn(p, "\n");
		assembler = assembler || assembler_line(p, n);
		struct json_object *a = assembler ? NULL : gcc_array(p, n);
		if (a) {
			arrays = true;
			for (size_t k = 0; k < json_object_array_length(a); k++)
				json_object_array_add(all, json_object_get(json_object_array_get_idx(a, k)));
			json_object_put(a);
		} else {
			fwrite(p, 1, n + (p[n] == '\n'), stderr);
		}
		p += n + (p[n] == '\n');
	}
	if (arrays || ds->n) {
		q7_diags_add_gcc_json(ds, all, &r);
		q7_json_print(all, stderr);
	}
	fflush(stderr);
	json_object_put(all);
	q7_diags_free(&none);
}

bool q7_diag_text_empty(const char *err)
{
	for (const char *p = err; *p;) {
		size_t n = strcspn(p, "\n");
		struct json_object *a = n ? gcc_array(p, n) : NULL;
		bool empty = a && json_object_array_length(a) == 0;
		json_object_put(a);
		if (n && !empty)
			return false;
		p += n + (p[n] == '\n');
	}
	return true;
}

size_t q7_drv_report(struct q7_drv *d, struct q7_diags *ds, const char *compiler_err)
{
	size_t errors = ds ? q7_diags_apply_policy(ds, &d->policy) : 0;
	q7_drv_show(d, ds, compiler_err);
	return errors;
}
