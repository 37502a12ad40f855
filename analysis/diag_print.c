/* Diagnostics as a compiler prints them: "file:line:col: error: message
 * [-Wq7-rule]", then the source line and a caret under the column, in
 * clang's colours when writing to a terminal. */
#include "analysis.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A source longer than this is not read for one line. */
#define MAX_SOURCE (16u << 20)

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_NOTE "\033[1;30m"
#define C_GREEN "\033[1;32m"
#define C_RESET "\033[0m"

/* Files read for their lines, kept for one print call. */
struct src_cache {
	size_t n;
	struct {
		char *path;
		char *text; /* NULL when unreadable */
	} f[16];
};

/* The text of path when it is a regular file of at most MAX_SOURCE bytes,
 * else NULL: never a FIFO (opened without waiting for a writer), a device
 * or a file that outgrows the bound while it is read. */
static char *read_source(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *text = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (off_t)MAX_SOURCE) {
		size_t cap = (size_t)st.st_size + 1, len = 0;
		text = q7_xmalloc(cap + 1);
		ssize_t got;
		while (len < cap && (got = read(fd, text + len, cap - len)) > 0)
			len += (size_t)got;
		text[len] = '\0';
		/* Grown since fstat (or unreadable): not worth a line. */
		if (len == cap || got < 0) {
			free(text);
			text = NULL;
		}
	}
	close(fd);
	return text;
}

static const char *cache_get(struct src_cache *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->f[i].path, path) == 0)
			return c->f[i].text;
	char *text = read_source(path);
	if (c->n == sizeof c->f / sizeof c->f[0]) {
		/* Full: drop the oldest; diagnostics come grouped by file. */
		free(c->f[0].path);
		free(c->f[0].text);
		memmove(&c->f[0], &c->f[1], (c->n - 1) * sizeof c->f[0]);
		c->n--;
	}
	c->f[c->n].path = q7_xstrdup(path);
	c->f[c->n].text = text;
	return c->f[c->n++].text;
}

static void cache_free(struct src_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->f[i].path);
		free(c->f[i].text);
	}
}

/* The line'th line of text (1-based) and its length, or NULL. */
static const char *find_line(const char *text, unsigned line, size_t *len)
{
	const char *p = text;
	for (unsigned l = 1; l < line; l++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	const char *end = strchr(p, '\n');
	*len = end ? (size_t)(end - p) : strlen(p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

static void print_source(FILE *out, const char *text, unsigned line, unsigned col, bool color)
{
	size_t len;
	const char *l = text ? find_line(text, line, &len) : NULL;
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
	for (size_t i = 0; i + 1 < col && i < len; i++)
		fputc(l[i] == '\t' ? '\t' : ' ', out);
	fprintf(out, "%s^%s\n", color ? C_GREEN : "", color ? C_RESET : "");
}

static void fputs_shown(const char *s, FILE *out)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	q7_sb_add_shown(&b, s, false);
	fputs(b.s, out);
	q7_sb_free(&b);
}

void q7_diags_print(const struct q7_diags *ds, FILE *out, bool color)
{
	struct src_cache cache = {0};
	for (size_t i = 0; i < ds->n; i++) {
		const struct q7_diag *d = &ds->d[i];
		const char *sev = d->severity == Q7_SEV_ERROR     ? "error"
		                  : d->severity == Q7_SEV_WARNING ? "warning"
		                                                  : "note";
		const char *sev_color = d->severity == Q7_SEV_ERROR     ? C_RED
		                        : d->severity == Q7_SEV_WARNING ? C_MAGENTA
		                                                        : C_NOTE;
		if (color)
			fputs(C_BOLD, out);
		if (*d->file) {
			fputs_shown(d->file, out);
			if (d->line) {
				fprintf(out, ":%u", d->line);
				if (d->col)
					fprintf(out, ":%u", d->col);
			}
		} else {
			fputs(q7_progname(), out);
		}
		fputs(": ", out);
		if (color)
			fprintf(out, "%s%s:%s%s ", sev_color, sev, C_RESET, C_BOLD);
		else
			fprintf(out, "%s: ", sev);
		fputs_shown(d->message, out);
		if (*d->rule) {
			fprintf(out, " [%s-W", d->promoted ? "-Werror," : "");
			fputs_shown(d->rule, out);
			fputc(']', out);
		}
		if (color)
			fputs(C_RESET, out);
		fputc('\n', out);
		if (*d->file && d->line && d->source_read)
			print_source(out, cache_get(&cache, d->file), d->line, d->col, color);
	}
	cache_free(&cache);
}
