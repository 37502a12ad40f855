/* Diagnostics as GCC 12 prints them, for the gnu toolchain (and a host
 * toolchain whose compiler is GCC), as text or GCC's JSON array:
 * docs/lint-rules.md, "How findings look". */
#include "internal.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#define TABSTOP 8
/* GCC's -fdiagnostics-minimum-margin-width=6: a line number takes 5. */
#define MIN_LINENO_WIDTH 5

static const struct q7_gcc_colors gcc_default_colors = {
	.error = "01;31", .warning = "01;35", .note = "01;36", .locus = "01",
};

void q7_gcc_colors_init(struct q7_gcc_colors *c, const char *gcc_colors)
{
	*c = gcc_default_colors;
	if (!gcc_colors)
		return;
	/* "error=01;31:warning=01;35:...", as GCC reads it: a malformed entry
	 * ends the reading, names q7cc does not use are skipped. */
	for (const char *p = gcc_colors; *p;) {
		size_t name = strcspn(p, "=:");
		if (p[name] != '=')
			return;
		const char *val = p + name + 1;
		size_t n = strspn(val, "0123456789;");
		if (val[n] && val[n] != ':')
			return;
		char *slot = strncmp(p, "error", name) == 0 && name == 5     ? c->error
		             : strncmp(p, "warning", name) == 0 && name == 7 ? c->warning
		             : strncmp(p, "note", name) == 0 && name == 4    ? c->note
		             : strncmp(p, "locus", name) == 0 && name == 5   ? c->locus
		                                                             : NULL;
		if (slot && n < sizeof c->error)
			snprintf(slot, sizeof c->error, "%.*s", (int)n, val);
		p = val + n + (val[n] == ':');
	}
}

static const char *sev_color(const struct q7_gcc_colors *c, enum q7_severity s)
{
	return s == Q7_SEV_ERROR ? c->error : s == Q7_SEV_WARNING ? c->warning : c->note;
}

/* GCC's SGR: start, then erase to the end of the line (\033[K). */
static void sgr_start(FILE *out, bool color, const char *params)
{
	if (color && *params)
		fprintf(out, "\033[%sm\033[K", params);
}

static void sgr_end(FILE *out, bool color, const char *params)
{
	if (color && *params)
		fputs("\033[m\033[K", out);
}

static bool ident_byte(unsigned char c)
{
	return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Bytes of the character at l[i]: a UTF-8 sequence's, else one. */
static size_t char_len(const char *l, size_t len, size_t i)
{
	size_t n = 1;
	if ((unsigned char)l[i] >= 0xc0)
		while (i + n < len && ((unsigned char)l[i + n] & 0xc0) == 0x80)
			n++;
	return n;
}

/* Where a diagnostic points in its source line, in GCC's terms: the token
 * at the column (an identifier as a whole, else one character), as bytes
 * [start, end) and as display columns. */
struct span {
	size_t start, end, last; /* bytes; last: where the token's last char starts */
	unsigned disp, last_disp;   /* 1-based display columns of start and last */
};

/* GCC's display column (0-based) of byte i. */
static unsigned display_col(const char *l, size_t i)
{
	unsigned c = 0;
	for (size_t k = 0; k < i; k++) {
		unsigned char b = (unsigned char)l[k];
		if (b == '\t')
			c = (c / TABSTOP + 1) * TABSTOP;
		else if ((b & 0xc0) != 0x80)
			c++;
	}
	return c;
}

static void span_of(const char *l, size_t len, unsigned col, struct span *s)
{
	s->start = col - 1;
	/* A column inside a UTF-8 character means the character. */
	while (s->start > 0 && s->start < len && ((unsigned char)l[s->start] & 0xc0) == 0x80)
		s->start--;
	s->end = s->start;
	if (s->start < len) {
		s->end = s->start + char_len(l, len, s->start);
		if (ident_byte((unsigned char)l[s->start]) &&
		    !((unsigned char)l[s->start] >= '0' && (unsigned char)l[s->start] <= '9'))
			while (s->end < len && ident_byte((unsigned char)l[s->end]))
				s->end++;
	}
	s->last = s->start;
	for (size_t k = s->start; k < s->end; k += char_len(l, len, k))
		s->last = k;
	s->disp = display_col(l, s->start < len ? s->start : len) + 1 +
	          (unsigned)(s->start > len ? s->start - len : 0);
	s->last_disp = s->start < len ? display_col(l, s->last) + 1 : s->disp;
}

/* The source line as GCC shows it (tabs expanded to the next stop, what
 * would drive the terminal escaped as q7_sb_add_shown escapes it), the
 * span's bytes in colour; *from and *to get the shown columns (0-based)
 * of the span's start and end. */
static void show_line(struct q7_strbuf *b, const char *l, size_t len, const struct span *s,
                      const char *color, unsigned *from, unsigned *to)
{
	unsigned shown = 0;
	*from = *to = 0;
	for (size_t i = 0; i <= len;) {
		if (i == s->start)
			*from = shown;
		if (i == s->end)
			*to = shown;
		if (color && s->end > s->start && (i == s->start || i == s->end))
			q7_sb_addf(b, i == s->start ? "\033[%sm\033[K" : "\033[m\033[K", color);
		if (i == len)
			break;
		size_t n = char_len(l, len, i);
		if (l[i] == '\t') {
			do
				q7_sb_addc(b, ' ');
			while (++shown % TABSTOP);
		} else {
			char piece[8] = {0};
			memcpy(piece, l + i, n < sizeof piece ? n : sizeof piece - 1);
			size_t before = b->len;
			q7_sb_add_shown(b, piece, false);
			size_t added = b->len - before;
			shown += added == strlen(piece) ? 1 : (unsigned)added;
		}
		i += n;
	}
	if (s->start > len)
		*from = *to = shown + (unsigned)(s->start - len);
}

/* The source line under the gutter (" 12 | "), or after one space with
 * -fno-diagnostics-show-line-numbers, and the caret line. */
static void print_source(FILE *out, const char *l, size_t len, const struct q7_diag *d,
                         const struct span *s, const struct q7_diag_render *r)
{
	bool color = r->color;
	int width = snprintf(NULL, 0, "%u", d->line);
	if (width < MIN_LINENO_WIDTH)
		width = MIN_LINENO_WIDTH;
	const char *sc = color ? sev_color(&r->gcc, d->severity) : NULL;
	struct q7_strbuf b = {0};
	unsigned from, to;
	show_line(&b, l, len, s, sc && *sc ? sc : NULL, &from, &to);
	if (r->no_line_numbers)
		fprintf(out, " %s\n ", b.s ? b.s : "");
	else
		fprintf(out, "%*u | %s\n%*s | ", width, d->line, b.s ? b.s : "", width, "");
	q7_sb_free(&b);
	fprintf(out, "%*s", (int)from, "");
	sgr_start(out, color, sc ? sc : "");
	fputc('^', out);
	for (unsigned k = from + 1; k < to; k++)
		fputc('~', out);
	sgr_end(out, color, sc ? sc : "");
	fputc('\n', out);
}

/* The option GCC names in brackets and in "option": -Wq7-RULE, or
 * -Werror=q7-RULE for a warning made an error. */
static char *option_of(const struct q7_diag *d)
{
	return q7_xasprintf("%s%s", d->promoted ? "-Werror=" : "-W", d->rule);
}

/* The column GCC prints and puts in "column": display or byte, from the
 * origin asked for. */
static unsigned shown_column(const struct q7_diag_render *r, unsigned disp, unsigned byte)
{
	return (unsigned)((int)(r->byte_columns ? byte : disp) + r->column_shift);
}

void q7_diags_print_gcc(const struct q7_diags *ds, FILE *out, const struct q7_diag_render *r)
{
	bool color = r->color;
	const struct q7_gcc_colors *c = &r->gcc;
	struct q7_src_cache cache = {0};
	bool promoted = false;
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		size_t len = 0;
		const char *l = d->col ? q7_src_line(&cache, d, &len) : NULL;
		struct span s;
		if (l)
			span_of(l, len, d->col, &s);
		sgr_start(out, color, c->locus);
		if (*d->file) {
			q7_fputs_shown(d->file, out);
			if (d->line)
				fprintf(out, ":%u", d->line);
			if (d->line && d->col && !r->no_column)
				fprintf(out, ":%u", shown_column(r, l ? s.disp : d->col, d->col));
		} else {
			fputs(q7_progname(), out);
		}
		fputc(':', out);
		sgr_end(out, color, c->locus);
		fputc(' ', out);
		const char *sc = sev_color(c, d->severity);
		sgr_start(out, color, sc);
		fprintf(out, "%s: ", q7_severity_name(d->severity));
		sgr_end(out, color, sc);
		q7_fputs_shown(d->message, out);
		if (*d->rule) {
			char *opt = option_of(d);
			fputs(" [", out);
			sgr_start(out, color, sc);
			q7_fputs_shown(opt, out);
			sgr_end(out, color, sc);
			fputc(']', out);
			free(opt);
		}
		fputc('\n', out);
		if (l && !r->no_caret)
			print_source(out, l, len, d, &s, r);
		promoted |= d->promoted;
	}
	q7_src_cache_free(&cache);
	if (promoted)
		fprintf(out, "%s: %s warnings being treated as errors\n", q7_progname(),
		        r->werror_all ? "all" : "some");
}

/* {"file", "line", "column", "display-column", "byte-column"}, each
 * column from the origin asked for, "column" in the unit asked for. */
static void gcc_point(struct json_object *o, const struct q7_diag_render *r, const char *file,
                       unsigned line, unsigned disp, unsigned byte)
{
	q7_json_str(o, "file", file);
	q7_json_int(o, "line", line);
	q7_json_int(o, "column", shown_column(r, disp, byte));
	q7_json_int(o, "display-column", (int)disp + r->column_shift);
	q7_json_int(o, "byte-column", (int)byte + r->column_shift);
}

static void gcc_locations(struct json_object *o, struct q7_src_cache *cache,
                           const struct q7_diag *d, const struct q7_diag_render *r)
{
	struct json_object *a = q7_json_arr(o, "locations");
	if (!*d->file)
		return;
	size_t len = 0;
	const char *l = d->col ? q7_src_line(cache, d, &len) : NULL;
	struct span s = {.disp = d->col, .last_disp = d->col};
	if (l)
		span_of(l, len, d->col, &s);
	struct json_object *loc = q7_json_obj(a, NULL);
	gcc_point(q7_json_obj(loc, "caret"), r, d->file, d->line, s.disp, d->col);
	/* GCC gives a finish when the token has more than one byte. */
	if (l && s.end > s.start + 1)
		gcc_point(q7_json_obj(loc, "finish"), r, d->file, d->line, s.last_disp,
		           (unsigned)s.end);
}

/* One object in the array a; top: one of the array's (with its children,
 * the notes after it), else a child. */
static void gcc_object(struct json_object *a, struct q7_src_cache *cache,
                        const struct q7_diag_render *r, const struct q7_diag *d, bool top,
                        const struct q7_diag *notes, size_t nnotes)
{
	struct json_object *o = q7_json_obj(a, NULL);
	q7_json_str(o, "kind", q7_severity_name(d->severity));
	q7_json_str(o, "message", d->message);
	if (*d->rule) {
		char *opt = option_of(d);
		q7_json_str(o, "option", opt);
		free(opt);
	}
	gcc_locations(o, cache, d, r);
	q7_json_int(o, "column-origin", r->column_shift + 1);
	q7_json_bool(o, "escape-source", false);
	if (top) {
		struct json_object *children = q7_json_arr(o, "children");
		for (size_t k = 0; k < nnotes; k++)
			gcc_object(children, cache, r, &notes[k], false, NULL, 0);
	}
}

void q7_diags_add_gcc_json(const struct q7_diags *ds, struct json_object *a,
                           const struct q7_diag_render *r)
{
	struct q7_src_cache cache = {0};
	for (size_t i = 0; i < ds->n;) {
		const struct q7_diag *d = &ds->d[i];
		size_t nnotes = 0;
		/* A note right after a diagnostic is its child, as in GCC. */
		if (d->severity != Q7_SEV_NOTE)
			while (i + 1 + nnotes < ds->n && ds->d[i + 1 + nnotes].severity == Q7_SEV_NOTE &&
			       *ds->d[i + 1 + nnotes].file)
				nnotes++;
		gcc_object(a, &cache, r, d, true, &ds->d[i + 1], nnotes);
		i += 1 + nnotes;
	}
	q7_src_cache_free(&cache);
}
