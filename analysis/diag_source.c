/* The source lines diagnostics show, read once per print call: never from
 * a FIFO, a device or a file that outgrows the bound while it is read. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A source longer than this is not read for one line. */
#define MAX_SOURCE (16u << 20)

static const char *cache_get(struct q7_src_cache *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->f[i].path, path) == 0)
			return c->f[i].text;
	/* By the one rule for files a user names; NULL: no line shown. */
	const char *why;
	char *text = q7_read_regular(path, MAX_SOURCE, NULL, &why);
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

void q7_src_cache_free(struct q7_src_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->f[i].path);
		free(c->f[i].text);
	}
	c->n = 0;
}

const char *q7_src_line(struct q7_src_cache *c, const struct q7_diag *d, size_t *len)
{
	if (!*d->file || !d->line || !d->source_read)
		return NULL;
	const char *p = cache_get(c, d->file);
	if (!p)
		return NULL;
	for (unsigned l = 1; l < d->line; l++) {
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

void q7_fputs_shown(const char *s, FILE *out)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	q7_sb_add_shown(&b, s, false);
	fputs(b.s, out);
	q7_sb_free(&b);
}
