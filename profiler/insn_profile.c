/* insn_profile.h: the stack tree, folded text in and out. */
#include "insn_profile.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <search.h>
#include <string.h>

#include "flamegraph.h"
#include "support.h"
#include "tempfile.h"

void q7_prof_init(struct q7_prof *p)
{
	*p = (struct q7_prof){.v = q7_xcalloc(256, sizeof *p->v), .n = 1, .cap = 256};
	p->v[0].name = "";
}

void q7_prof_free(struct q7_prof *p)
{
	for (size_t i = 1; i < p->n; i++)
		free((char *)p->v[i].name);
	free(p->v);
	tdestroy(p->children, free);
	memset(p, 0, sizeof *p);
}

/* A new node: a copy of name, the child of parent. */
static unsigned new_node(struct q7_prof *p, unsigned parent, const char *name)
{
	Q7_GROW(p->v, p->cap, p->n + 1);
	unsigned n = (unsigned)p->n++;
	p->v[n] = (struct q7_prof_node){.parent = parent, .name = q7_xstrdup(name),
	                                   .next_sibling = p->v[parent].first_child};
	p->v[parent].first_child = n;
	return n;
}

/* A node as p->children finds it: by its parent and its name. */
struct child {
	unsigned parent, node;
	const char *name;
};

static int child_order(const void *a, const void *b)
{
	const struct child *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->name, y->name);
}

unsigned q7_prof_child(struct q7_prof *p, unsigned parent, const char *name)
{
	/* Past Q7_PROF_NODES a new child is the Q7_PROF_OVER node. */
	struct child want = {.parent = parent, .name = name};
	struct child **found = tfind(&want, &p->children, child_order);
	if (found)
		return (*found)->node;
	if (p->n >= Q7_PROF_NODES)
		return p->over ? p->over : (p->over = new_node(p, Q7_PROF_ROOT, Q7_PROF_OVER));
	unsigned n = new_node(p, parent, name);
	struct child *c = q7_xmalloc(sizeof *c);
	*c = (struct child){.parent = parent, .node = n, .name = p->v[n].name};
	q7_xtsearch(c, &p->children, child_order);
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

/* A node still to visit, and the order its siblings are visited in. */
struct todo {
	unsigned node;
	size_t depth;
};

struct order {
	const struct q7_prof *p;
	int (*cmp)(const char *, const char *);
};

/* Siblings in reverse order: the stack's top is the first. */
static int reverse(const void *a, const void *b, void *ctx)
{
	const struct order *o = ctx;
	return o->cmp(o->p->v[((const struct todo *)b)->node].name,
	              o->p->v[((const struct todo *)a)->node].name);
}

void q7_prof_walk(const struct q7_prof *p, int (*cmp)(const char *, const char *),
                  bool (*visit)(void *ctx, const unsigned *path, size_t depth), void *ctx)
{
	/* A stack of its own: a kernel 100,000 calls deep is as deep a
	 * profile, and a recursion per frame overflowed the C stack. */
	size_t cap = 64, top = 0, path_cap = 64;
	struct todo *todo = q7_xmalloc(cap * sizeof *todo);
	unsigned *path = q7_xmalloc(path_cap * sizeof *path);
	struct order order = {p, cmp};
	todo[top++] = (struct todo){Q7_PROF_ROOT, 0};
	while (top) {
		struct todo t = todo[--top];
		Q7_GROW(path, path_cap, t.depth + 1);
		path[t.depth] = t.node;
		if (!visit(ctx, path, t.depth))
			continue;
		size_t k = 0;
		for (unsigned c = p->v[t.node].first_child; c; c = p->v[c].next_sibling, k++) {
			Q7_GROW(todo, cap, top + k + 1);
			todo[top + k] = (struct todo){c, t.depth + 1};
		}
		qsort_r(todo + top, k, sizeof *todo, reverse, &order);
		top += k;
	}
	free(todo);
	free(path);
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

/* q7_prof_folded's lines so far, and the last one, not yet written. */
struct folding {
	const struct q7_prof *p;
	struct q7_strbuf out, line, last;
	uint64_t last_count, cut;
};

/* A node's line: the path from the root's child to it. A cut line
 * equal to the one before it (a deep recursion) adds its count to it. */
static bool fold(void *ctx, const unsigned *path, size_t depth)
{
	struct folding *f = ctx;
	uint64_t self = f->p->v[path[depth]].self;
	if (!self)
		return true;
	stack_line(f->p, path + 1, depth, &f->line);
	if (f->last_count && f->line.len == f->last.len &&
	    memcmp(f->line.s, f->last.s, f->line.len) == 0) {
		f->last_count += self;
		return true;
	}
	if (f->last_count)
		f->cut += add_line(&f->out, &f->last, f->last_count);
	f->last.len = 0;
	q7_sb_addn(&f->last, f->line.s, f->line.len);
	f->last_count = self;
	return true;
}

char *q7_prof_folded(const struct q7_prof *p)
{
	/* Depth first, children in line order: the lines come out sorted
	 * (cut ones aside), each made from the path in place, so memory is
	 * the tree's and the text's. */
	struct folding f = {.p = p};
	q7_prof_walk(p, line_order, fold, &f);
	if (f.last_count)
		f.cut += add_line(&f.out, &f.last, f.last_count);
	if (f.cut)
		q7_sb_addf(&f.out, "%s %" PRIu64 "\n", Q7_PROF_CUT, f.cut);
	q7_sb_free(&f.line);
	q7_sb_free(&f.last);
	return q7_sb_take(&f.out);
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
