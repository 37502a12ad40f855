/* The stack a kernel needs, from GCC's figures (docs/driver.md, "The
 * kernel's stack at the build"): GCC's call graph file as the F and C
 * lines an object keeps (docs/packer.md, "The stack figures"), and the
 * link's walk over them. */
#include "analysis.h"
#include "internal.h"
#include "call_limits.h"
#include "cxx.h"

#include <errno.h>
#include <limits.h>
#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of "key: \"...\"" on line, up to the next quote (last: the
 * line's last quote), or NULL. */
static char *quoted(const char *line, const char *key, bool last)
{
	const char *p = strstr(line, key);
	if (!p)
		return NULL;
	p += strlen(key);
	const char *e = last ? strrchr(p, '"') : strchr(p, '"');
	return e && e >= p ? q7_xstrndup(p, (size_t)(e - p)) : NULL;
}

/* A callee's title as its definition's: "f.cpp:_Z3fooi$localalias" (the
 * local alias of a global function under -fpic) is "_Z3fooi". */
static char *canonical(char *title)
{
	size_t n = strlen(title);
	const char *alias = "$localalias";
	if (n > strlen(alias) && strcmp(title + n - strlen(alias), alias) == 0) {
		title[n - strlen(alias)] = '\0';
		char *colon = strrchr(title, ':');
		if (colon)
			memmove(title, colon + 1, strlen(colon + 1) + 1);
	}
	return title;
}

/* One "node:" line: an F line when GCC measured the function (its label
 * is "declaration\nfile:line:col\nN bytes (qualifier)"). */
static void node_line(const char *line, struct q7_strbuf *out)
{
	char *title = quoted(line, "title: \"", false), *label = quoted(line, "label: \"", true);
	char *f[3] = {0};
	size_t nf = 0;
	for (char *p = label; p && nf < 3;) {
		char *e = strstr(p, "\\n");
		f[nf++] = e ? q7_xstrndup(p, (size_t)(e - p)) : q7_xstrdup(p);
		p = e ? e + 2 : NULL;
	}
	unsigned long bytes;
	char qual[16] = "";
	if (title && nf == 3 && sscanf(f[2], "%lu bytes (%15[a-z,]", &bytes, qual) == 2) {
		char q = strstr(qual, "dynamic") ? (strstr(qual, "bounded") ? 'b' : 'd') : 's';
		char *loc = q7_xstrdup(f[1]), *col = strrchr(loc, ':');
		if (col && strchr(loc, ':') != col)
			*col = '\0'; /* file:line */
		q7_sb_addf(out, "F\t%s\t%lu\t%c\t%s\t%s\n", canonical(title), bytes, q, loc, f[0]);
		free(loc);
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i]);
	free(title);
	free(label);
}

/* One "edge:" line: a C line, once per caller and callee (GCC writes an
 * edge per call site, after its caller's node: the callees of the caller
 * of the lines before are in seen). */
static void edge_line(const char *line, struct q7_strvec *seen, char **caller,
                      struct q7_strbuf *out)
{
	char *from = quoted(line, "sourcename: \"", false);
	char *to = quoted(line, "targetname: \"", false);
	if (from && to) {
		canonical(from);
		canonical(to);
		if (!*caller || strcmp(*caller, from) != 0) {
			free(*caller);
			*caller = q7_xstrdup(from);
			q7_sv_free(seen);
		}
		if (!q7_sv_has(seen, to)) {
			q7_sv_add(seen, to);
			q7_sb_addf(out, "C\t%s\t%s\n", from, to);
		}
	}
	free(from);
	free(to);
}

char *q7_stack_from_callgraph(const char *ci, size_t *len)
{
	struct q7_strbuf out = {0};
	struct q7_strvec seen = {0};
	char *caller = NULL;
	q7_sb_add(&out, "");
	char *copy = q7_xstrdup(ci), *save;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "node: ", 6) == 0)
			node_line(line, &out);
		else if (strncmp(line, "edge: ", 6) == 0)
			edge_line(line, &seen, &caller, &out);
	}
	free(caller);
	q7_sv_free(&seen);
	free(copy);
	*len = out.len;
	return q7_sb_take(&out);
}

struct sfn {
	char *name, *decl, *loc;
	unsigned long bytes;
	char qual;
	size_t *calls, ncalls, calls_cap;
	int state; /* 0 new, 1 on the walk, 2 done */
	unsigned long need; /* own frame + the deepest call's */
	size_t next;        /* the deepest call (SIZE_MAX: none) */
	size_t unbound;     /* the function that leaves it unbounded, or SIZE_MAX */
	bool recursion;     /* ...by calling itself (else: a dynamic frame) */
};

struct sgraph {
	struct sfn *f;
	size_t n, cap;
	struct hsearch_data names; /* name -> its index in f, as data */
};

static size_t find_fn(struct sgraph *g, const char *name)
{
	ENTRY want = {.key = (char *)name}, *e;
	return hsearch_r(want, FIND, &e, &g->names) ? (size_t)(uintptr_t)e->data : SIZE_MAX;
}

/* The table holds every name the payloads have room for (q7_stack_check
 * sizes it), so ENTER always finds a slot. */
static size_t add_fn(struct sgraph *g, const char *name)
{
	size_t i = find_fn(g, name);
	if (i != SIZE_MAX)
		return i;
	Q7_GROW(g->f, g->cap, g->n + 1);
	g->f[g->n] = (struct sfn){.name = q7_xstrdup(name), .next = SIZE_MAX, .unbound = SIZE_MAX};
	ENTRY add = {.key = g->f[g->n].name, .data = (void *)(uintptr_t)g->n}, *e;
	hsearch_r(add, ENTER, &e, &g->names);
	return g->n++;
}

/* The fields of one line (at most 7: one more than an F line has), cut
 * at its tabs in place. */
static size_t fields(char *line, char *v[7])
{
	size_t n = 0;
	for (char *p = line; p && n < 7;) {
		v[n++] = p;
		p = strchr(p, '\t');
		if (p)
			*p++ = '\0';
	}
	return n;
}

/* Why line (its fields v) is not one q7cc writes, or NULL. */
static const char *damaged(char **v, size_t n)
{
	if (strcmp(v[0], "C") == 0)
		return n == 3 && *v[1] && *v[2] ? NULL : "a call is not 'C<TAB>caller<TAB>callee'";
	if (n != 6 || !*v[1])
		return "a frame is not 'F<TAB>symbol<TAB>bytes<TAB>s|b|d<TAB>file:line<TAB>declaration'";
	size_t digits = strspn(v[2], "0123456789");
	if (digits == 0 || v[2][digits] || digits > 10 || strtoull(v[2], NULL, 10) > 0xffffffffull)
		return "a frame's bytes are not a number up to 4 GiB";
	if (strlen(v[3]) != 1 || !strchr("sbd", v[3][0]))
		return "a frame's kind is not s, b or d";
	return NULL;
}

int q7_stack_payload_check(const char *text, const char *what, struct q7_err *err)
{
	char *copy = q7_xstrdup(text);
	size_t no = 1;
	const char *why = NULL;
	for (char *line = copy, *next; line && !why; line = next, no++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *v[7];
		size_t n = fields(line, v);
		if (strcmp(v[0], "F") == 0 || strcmp(v[0], "C") == 0)
			why = damaged(v, n);
	}
	if (why)
		q7_err_set(err, what, ".q7.stack: line %zu: %s", no - 1, why);
	free(copy);
	return why ? -1 : 0;
}

/* One line of a payload: F keeps the largest frame seen (an inline
 * function in many objects), C adds a call. */
static void add_line(struct sgraph *g, char *line)
{
	char *v[7];
	size_t n = fields(line, v);
	if (n == 3 && strcmp(v[0], "C") == 0) {
		size_t from = add_fn(g, v[1]), to = add_fn(g, v[2]);
		struct sfn *f = &g->f[from];
		Q7_GROW(f->calls, f->calls_cap, f->ncalls + 1);
		f->calls[f->ncalls++] = to;
	} else if (n == 6 && strcmp(v[0], "F") == 0) {
		size_t i = add_fn(g, v[1]); /* before g->f is read: it may move */
		struct sfn *f = &g->f[i];
		unsigned long bytes = strtoul(v[2], NULL, 10);
		if (!f->decl || bytes > f->bytes) {
			free(f->decl);
			free(f->loc);
			f->decl = q7_xstrdup(v[5]);
			f->loc = q7_xstrdup(v[4]);
			f->bytes = bytes;
		}
		if (v[3][0] == 'd')
			f->qual = 'd';
	}
}

/* Calls deeper than this are not followed (a record is the objects'
 * word: a chain a million long must not exhaust q7cc's own stack); what
 * lies below counts 0, as an unmeasured function's. */
#define WALK_DEPTH_MAX 4096

/* Walks from i (depth calls below a kernel): need, next and unbound of
 * every function below it. */
static void walk(struct sgraph *g, size_t i, unsigned depth)
{
	struct sfn *f = &g->f[i];
	f->state = 1;
	f->need = f->bytes;
	if (f->qual == 'd')
		f->unbound = i;
	for (size_t k = 0; k < f->ncalls; k++) {
		size_t c = f->calls[k];
		if (g->f[c].state == 1) {
			if (f->unbound == SIZE_MAX) {
				f->unbound = c;
				f->recursion = true;
			}
			continue;
		}
		if (g->f[c].state == 0 && depth < WALK_DEPTH_MAX)
			walk(g, c, depth + 1);
		f = &g->f[i];
		const struct sfn *cf = &g->f[c];
		/* saturating: the figures are the objects' word */
		unsigned long through = cf->need > ULONG_MAX - f->bytes ? ULONG_MAX : f->bytes + cf->need;
		if (through > f->need || f->next == SIZE_MAX) {
			f->need = through > f->need ? through : f->need;
			f->next = c;
		}
		if (f->unbound == SIZE_MAX && cf->unbound != SIZE_MAX) {
			f->unbound = cf->unbound;
			f->recursion = cf->recursion;
		}
	}
	g->f[i].state = 2;
}

static const char *shown(const struct sfn *f)
{
	return f->decl ? f->decl : f->name;
}

/* "'kern' (98720 bytes) -> 'int leaf(int*, int)' (416 bytes)": the
 * deepest measured calls from i, at most 6. */
static void path(const struct sgraph *g, size_t i, struct q7_strbuf *out)
{
	int n = 0;
	for (; i != SIZE_MAX && g->f[i].decl && n < 6; n++, i = g->f[i].next)
		q7_sb_addf(out, "%s'%s' (%lu bytes)", n ? " -> " : "", shown(&g->f[i]), g->f[i].bytes);
	if (n == 6 && i != SIZE_MAX && g->f[i].decl)
		q7_sb_add(out, " -> ...");
}

/* The findings for kernel op, whose function is g->f[i]. */
static void judge(const struct sgraph *g, size_t i, const struct q7_op *op, bool host,
                  struct q7_diags *diags)
{
	const struct sfn *f = &g->f[i];
	unsigned long budget = op->stack_size ? op->stack_size : Q7_DEVICE_CORE_STACK;
	if (f->need > budget) {
		q7_diags_add(diags, host ? Q7_SEV_WARNING : Q7_SEV_ERROR, op->file, op->line, op->col,
		             Q7_RULE_STACK_NEED, "kernel '%s' needs at least %lu bytes of stack; %s %lu%s",
		             op->name, f->need, op->stack_size ? "its declared stack is" : "the core has",
		             budget, host ? " (measured on the host: the device's frames differ)" : "");
		diags->d[diags->n - 1].demotable = !host;
		struct q7_strbuf p = {0};
		path(g, i, &p);
		q7_diags_add(diags, Q7_SEV_NOTE, op->file, op->line, op->col, "", "the deepest calls: %s",
		             p.s);
		q7_sb_free(&p);
	}
	/* A kernel that declares its stack has taken the unknown part on. */
	if (f->unbound != SIZE_MAX && !op->stack_size) {
		const struct sfn *u = &g->f[f->unbound];
		q7_diags_add(diags, Q7_SEV_WARNING, op->file, op->line, op->col, Q7_RULE_STACK_NEED,
		             "the stack of kernel '%s' has no bound: '%s' (%s) %s", op->name, shown(u),
		             u->loc ? u->loc : "?",
		             f->recursion ? "is recursive"
		                          : "has a frame of dynamic size (a variable-length array or "
		                            "alloca)");
	}
}

void q7_stack_check(const struct q7_op_table *ops, const struct q7_strvec *payloads, bool host,
                    struct q7_diags *diags)
{
	struct sgraph g = {0};
	size_t lines = 1; /* a line names at most two functions */
	for (size_t p = 0; p < payloads->n; p++)
		for (const char *c = payloads->v[p]; (c = strchr(c, '\n')); c++)
			lines++;
	if (!hcreate_r(2 * (lines + payloads->n), &g.names)) {
		q7_diags_add(diags, Q7_SEV_ERROR, "", 0, 0, "", "cannot follow the kernels' calls: %s",
		             strerror(errno));
		return;
	}
	for (size_t p = 0; p < payloads->n; p++) {
		char *copy = q7_xstrdup(payloads->v[p]), *save;
		for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			add_line(&g, line);
		free(copy);
	}
	for (size_t k = 0; k < ops->n; k++) {
		const struct q7_op *op = &ops->ops[k];
		char *sym = op->defined && !op->by_name_only ? q7_cxx_symbol(op) : NULL;
		size_t i = sym ? find_fn(&g, sym) : SIZE_MAX;
		if (i != SIZE_MAX && g.f[i].decl) {
			if (g.f[i].state == 0)
				walk(&g, i, 0);
			judge(&g, i, op, host, diags);
		}
		free(sym);
	}
	for (size_t i = 0; i < g.n; i++) {
		free(g.f[i].name);
		free(g.f[i].decl);
		free(g.f[i].loc);
		free(g.f[i].calls);
	}
	free(g.f);
	hdestroy_r(&g.names);
}
