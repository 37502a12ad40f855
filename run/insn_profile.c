/* insn_profile.h: the stack tree, folded text in and out. */
#include "insn_profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "support.h"
#include "tempfile.h"
#include "u64map.h"

void q7_prof_init(struct q7_prof *p)
{
	memset(p, 0, sizeof *p);
	p->children = q7_u64map_new();
	p->names = q7_strmap_new();
	p->cap = 256;
	p->v = q7_xcalloc(p->cap, sizeof *p->v);
	p->n = 1;
	p->v[0].name = "";
}

void q7_prof_free(struct q7_prof *p)
{
	free(p->v);
	q7_u64map_free(p->children);
	q7_strmap_free(p->names);
	memset(p, 0, sizeof *p);
}

unsigned q7_prof_child(struct q7_prof *p, unsigned parent, const char *name)
{
	const char *stored;
	unsigned id = q7_strmap_intern(p->names, name, &stored);
	bool made;
	uint64_t *slot = q7_u64map_put(p->children, (uint64_t)parent << 32 | id, &made);
	if (!made)
		return (unsigned)*slot;
	if (p->n == p->cap) {
		p->cap *= 2;
		p->v = q7_xrealloc(p->v, p->cap * sizeof *p->v);
	}
	unsigned n = (unsigned)p->n++;
	*slot = n;
	p->v[n] = (struct q7_prof_node){.parent = parent, .name = stored,
	                                   .next_sibling = p->v[parent].first_child};
	p->v[parent].first_child = n;
	return n;
}

int q7_prof_add_folded(struct q7_prof *p, unsigned parent, const char *text,
                          const char *what, char *err, size_t errsize)
{
	unsigned line = 0;
	for (const char *s = text; *s;) {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s) : strlen(s);
		line++;
		const char *sp = len ? memrchr(s, ' ', len) : NULL;
		char *end = NULL;
		unsigned long long count = 0;
		if (sp) {
			errno = 0;
			count = strtoull(sp + 1, &end, 10);
		}
		if (len && (!sp || sp == s || end != s + len || errno || sp[1] == '-')) {
			snprintf(err, errsize, "%s: line %u: expected 'frame;frame;... COUNT'", what, line);
			return -1;
		}
		unsigned node = parent;
		for (const char *f = s; len && f < sp;) {
			const char *semi = memchr(f, ';', (size_t)(sp - f));
			const char *fe = semi ? semi : sp;
			char *name = q7_xstrndup(f, (size_t)(fe - f));
			node = q7_prof_child(p, node, name);
			free(name);
			f = fe + 1;
		}
		if (len)
			p->v[node].self += count;
		s += len + (eol ? 1 : 0);
	}
	return 0;
}

uint64_t q7_prof_sum(struct q7_prof *p)
{
	/* Children are made after their parent: one backward pass. */
	for (size_t i = 0; i < p->n; i++)
		p->v[i].total = p->v[i].self;
	for (size_t i = p->n; i-- > 1;)
		p->v[p->v[i].parent].total += p->v[i].total;
	return p->v[0].total;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *q7_prof_folded(const struct q7_prof *p)
{
	struct q7_strvec lines = {0};
	struct q7_strbuf path = {0};
	for (size_t i = 1; i < p->n; i++) {
		if (!p->v[i].self)
			continue;
		/* The path from the root, outermost first. */
		unsigned chain[4096];
		size_t depth = 0;
		for (unsigned k = (unsigned)i; k && depth < 4096; k = p->v[k].parent)
			chain[depth++] = k;
		path.len = 0;
		if (path.s)
			path.s[0] = 0;
		while (depth-- > 0) {
			q7_sb_add(&path, p->v[chain[depth]].name);
			q7_sb_addc(&path, depth ? ';' : ' ');
		}
		q7_sb_addf(&path, "%" PRIu64, p->v[i].self);
		q7_sv_add(&lines, path.s);
	}
	q7_sb_free(&path);
	if (lines.n)
		qsort(lines.v, lines.n, sizeof *lines.v, by_text);
	struct q7_strbuf out = {0};
	for (size_t i = 0; i < lines.n; i++) {
		q7_sb_add(&out, lines.v[i]);
		q7_sb_addc(&out, '\n');
	}
	q7_sv_free(&lines);
	return q7_sb_take(&out);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

int q7_prof_path_ok(const char *path)
{
	return ends_with(path, ".folded") || ends_with(path, ".svg");
}

int q7_prof_write(struct q7_prof *p, const char *path, const char *title, char *err,
                     size_t errsize)
{
	if (!q7_prof_path_ok(path)) {
		snprintf(err, errsize, "%s: a profile is written as .folded (folded stacks) or .svg "
		         "(a flame graph)", path);
		return -1;
	}
	char *text = ends_with(path, ".svg") ? q7_flamegraph_svg(p, title) : q7_prof_folded(p);
	const char *what = NULL;
	int rc = q7_outfile_write(path, text, strlen(text), 0666, &what);
	if (rc != 0)
		snprintf(err, errsize, "%s: %s: %s", path, what ? what : "cannot write", strerror(errno));
	free(text);
	return rc;
}
