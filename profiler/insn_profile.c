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

/* A new node: name's (stored) child of parent. */
static unsigned new_node(struct q7_prof *p, unsigned parent, const char *stored)
{
	if (p->n == p->cap) {
		p->cap *= 2;
		p->v = q7_xrealloc(p->v, p->cap * sizeof *p->v);
	}
	unsigned n = (unsigned)p->n++;
	p->v[n] = (struct q7_prof_node){.parent = parent, .name = stored,
	                                   .next_sibling = p->v[parent].first_child};
	p->v[parent].first_child = n;
	return n;
}

unsigned q7_prof_child(struct q7_prof *p, unsigned parent, const char *name)
{
	const char *stored;
	unsigned id = q7_strmap_intern(p->names, name, &stored);
	bool made;
	uint64_t *slot = q7_u64map_put(p->children, (uint64_t)parent << 32 | id, &made);
	if (!made)
		return (unsigned)*slot;
	if (p->n >= Q7_PROF_NODES) {
		if (!p->over) {
			q7_strmap_intern(p->names, Q7_PROF_OVER, &stored);
			p->over = new_node(p, Q7_PROF_ROOT, stored);
		}
		*slot = p->over;
		return p->over;
	}
	unsigned n = new_node(p, parent, stored);
	*slot = n;
	return n;
}

int q7_prof_add_folded(struct q7_prof *p, unsigned parent, const char *text,
                          const char *what, struct q7_err *err)
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
			q7_err_set(err, NULL, "%s: line %u: expected 'frame;frame;... COUNT'", what, line);
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

/* Names compared as their lines sort: a name's end as the ';' that
 * follows it ("b;x" after "b2", as strcmp orders the two lines). */
static int line_order(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = *a ? (unsigned char)*a : ';', y = *b ? (unsigned char)*b : ';';
		if (x != y || !*a || !*b)
			return x != y ? x - y : (*a != 0) - (*b != 0);
	}
}

/* node's children in line order (caller frees). */
static size_t children(const struct q7_prof *p, unsigned node, unsigned **out)
{
	size_t k = 0;
	for (unsigned c = p->v[node].first_child; c; c = p->v[c].next_sibling)
		k++;
	unsigned *v = q7_xmalloc((k ? k : 1) * sizeof *v);
	size_t i = 0;
	for (unsigned c = p->v[node].first_child; c; c = p->v[c].next_sibling) {
		size_t j = i++;
		while (j > 0 && line_order(p->v[v[j - 1]].name, p->v[c].name) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = c;
	}
	*out = v;
	return k;
}

/* A frame's name in a line: as a terminal may show it, and ';' (which
 * separates frames) as \x3b, so that no name forges a frame or a line. */
static void add_frame(struct q7_strbuf *b, const char *name)
{
	for (const char *s = name;;) {
		const char *semi = strchr(s, ';');
		char *part = q7_xstrndup(s, semi ? (size_t)(semi - s) : strlen(s));
		q7_sb_add_shown(b, part, false);
		free(part);
		if (!semi)
			break;
		q7_sb_add(b, "\\x3b");
		s = semi + 1;
	}
}

/* The line of the stack path[0..depth) (outermost first) without its
 * count: the outermost Q7_PROF_OUTER frames (the core and the op), a
 * "..." frame for those cut, and the innermost, up to Q7_PROF_FRAMES. */
static void stack_line(const struct q7_prof *p, const unsigned *path, size_t depth,
                       struct q7_strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
	for (size_t i = 0; i < depth; i++) {
		if (depth > Q7_PROF_FRAMES && i == Q7_PROF_OUTER) {
			q7_sb_add(b, "...;");
			i = depth - (Q7_PROF_FRAMES - Q7_PROF_OUTER - 1);
		}
		add_frame(b, p->v[path[i]].name);
		if (i + 1 < depth)
			q7_sb_addc(b, ';');
	}
}

/* Appends "line count" to out within Q7_PROF_FOLDED_MAX: 0, or the
 * count when it did not fit. */
static uint64_t add_line(struct q7_strbuf *out, const struct q7_strbuf *line, uint64_t count)
{
	if (out->len + line->len + 24 > Q7_PROF_FOLDED_MAX)
		return count;
	q7_sb_addf(out, "%s %" PRIu64 "\n", line->s, count);
	return 0;
}

char *q7_prof_folded(const struct q7_prof *p)
{
	/* Depth first, children in line order: the lines come out sorted
	 * (cut ones aside), each made from the path in place, so memory is
	 * the tree's and the text's. A cut line equal to the one before it
	 * (a deep recursion) adds its count to it. */
	struct q7_strbuf out = {0}, line = {0}, last = {0};
	uint64_t last_count = 0, cut = 0;
	size_t cap = 64, top = 0, depth = 0;
	unsigned *todo = q7_xmalloc(cap * sizeof *todo), *path = q7_xmalloc(cap * sizeof *path);
	unsigned *dep = q7_xmalloc(cap * sizeof *dep); /* each todo's depth */
	todo[top] = Q7_PROF_ROOT;
	dep[top++] = 0;
	while (top) {
		unsigned n = todo[--top];
		depth = dep[top];
		if (n != Q7_PROF_ROOT) {
			if (depth == cap) {
				cap *= 2;
				todo = q7_xrealloc(todo, cap * sizeof *todo);
				dep = q7_xrealloc(dep, cap * sizeof *dep);
				path = q7_xrealloc(path, cap * sizeof *path);
			}
			path[depth++] = n;
		}
		if (p->v[n].self) {
			stack_line(p, path, depth, &line);
			if (last_count && line.len == last.len && memcmp(line.s, last.s, line.len) == 0) {
				last_count += p->v[n].self;
			} else {
				if (last_count)
					cut += add_line(&out, &last, last_count);
				last.len = 0;
				q7_sb_addn(&last, line.s, line.len);
				last_count = p->v[n].self;
			}
		}
		unsigned *kids;
		size_t k = children(p, n, &kids);
		while (top + k > cap) {
			cap *= 2;
			todo = q7_xrealloc(todo, cap * sizeof *todo);
			dep = q7_xrealloc(dep, cap * sizeof *dep);
			path = q7_xrealloc(path, cap * sizeof *path);
		}
		for (size_t i = 0; i < k; i++) { /* the first on top */
			todo[top + k - 1 - i] = kids[i];
			dep[top + k - 1 - i] = (unsigned)depth;
		}
		top += k;
		free(kids);
	}
	if (last_count)
		cut += add_line(&out, &last, last_count);
	if (cut)
		q7_sb_addf(&out, "%s %" PRIu64 "\n", Q7_PROF_CUT, cut);
	q7_sb_free(&line);
	q7_sb_free(&last);
	free(todo);
	free(dep);
	free(path);
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

int q7_prof_write(struct q7_prof *p, const char *path, const char *title, struct q7_err *err)
{
	if (!q7_prof_path_ok(path)) {
		q7_err_set(err, NULL, "%s: a profile is written as .folded (folded stacks) or .svg "
		           "(a flame graph)", path);
		return -1;
	}
	char *text = ends_with(path, ".svg") ? q7_flamegraph_svg(p, title) : q7_prof_folded(p);
	const char *what = NULL;
	int rc = q7_outfile_write(path, text, strlen(text), 0666, &what);
	if (rc != 0)
		q7_err_set(err, NULL, "%s: %s: %s", path, what ? what : "cannot write", strerror(errno));
	free(text);
	return rc;
}
