/* Finding kernels in a parsed TU and gathering what lint.c judges of them.
 * Which functions are kernels: docs/lint-rules.md, "What a kernel may look
 * like" (the mark is annotate("q7.kernel"), which redeclarations inherit;
 * wanted_names come from other files' NEURON_LIBRARY). Declarations are
 * grouped by USR; the op is built from the definition when the TU has it
 * (its parameter names, its place), else from the marked declaration.
 * A NEURON_LIBRARY name the TU neither defines nor declares becomes a
 * by-name request (op.h) that the link resolves. */
#include "plugin.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct fn {
	CXCursor c;
	char *usr;
	char *name, *qualname;
	bool marked;
	bool stack_bad;
	unsigned stack;
	char *stack_text;
};

struct walk {
	const struct q7_analysis_opts *o;
	unsigned stack_flag;     /* -DSTACK_SIZE= on the compile line (0: none) */
	const char *stack_bad;   /* its text, when not a stack size */
	struct q7_strvec names; /* --q7-kernel and NEURON_LIBRARY names */
	struct fn *fns;         /* every function of the user's files */
	size_t n, cap;
};

static bool is_function_kind(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
	       k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
	       k == CXCursor_FunctionTemplate;
}

/* A stack size as Q7_KERNEL_STACK's mark or -DSTACK_SIZE= writes it (a
 * C integer, u and l suffixes allowed): 1 to Q7_OP_STACK_MAX, else 0. */
static unsigned stack_size(const char *v)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	bool ok = !errno && end != v && !*end && *v != '-' && n > 0 && n <= Q7_OP_STACK_MAX;
	return ok ? (unsigned)n : 0;
}

static enum CXChildVisitResult visit_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fn *f = data;
	if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
		return CXChildVisit_Continue;
	char *a = q7c_take(clang_getCursorSpelling(c));
	if (strcmp(a, "q7.kernel") == 0) {
		f->marked = true;
	} else if (strncmp(a, "q7.stack=", 9) == 0) {
		f->marked = true;
		unsigned n = stack_size(a + 9);
		free(f->stack_text);
		f->stack_text = q7_xstrdup(a + 9);
		if (!n)
			f->stack_bad = true;
		else if (n > f->stack)
			f->stack = n;
	}
	free(a);
	return CXChildVisit_Continue;
}

static void add_fn(struct walk *w, CXCursor c)
{
	Q7_GROW(w->fns, w->cap, w->n + 1);
	struct fn *f = &w->fns[w->n++];
	memset(f, 0, sizeof *f);
	f->c = c;
	f->usr = q7c_take(clang_getCursorUSR(c));
	f->name = q7c_take(clang_getCursorSpelling(c));
	f->qualname = q7c_qualname(c);
	clang_visitChildren(c, visit_attr, f);
}

static enum CXChildVisitResult visit_decl(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct walk *w = data;
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (is_function_kind(k)) {
		add_fn(w, c);
		return CXChildVisit_Continue;
	}
	/* UnexposedDecl: extern "C++" { } and friends. */
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
	    q7c_is_class(k))
		return CXChildVisit_Recurse;
	return CXChildVisit_Continue;
}

static bool names_fn(const char *want, const struct fn *f)
{
	if (want[0] == ':' && want[1] == ':')
		want += 2;
	return strcmp(want, strchr(want, ':') ? f->qualname : f->name) == 0;
}

static bool named_kernel(const struct walk *w, const struct fn *f)
{
	for (size_t i = 0; i < w->names.n; i++)
		if (names_fn(w->names.v[i], f))
			return true;
	return false;
}

/* ---- facts for the lint ---- */

struct kernel {
	struct fn *f;    /* the declaration the op is built from */
	bool marked;     /* any redeclaration marked */
	bool defined;
	unsigned stack;
	struct fn *stack_bad;
};

static bool is_member(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
	    k == CXCursor_ConversionFunction)
		return true;
	return q7c_is_class(clang_getCursorKind(clang_getCursorSemanticParent(c)));
}

static bool is_template(CXCursor c)
{
	if (clang_getCursorKind(c) == CXCursor_FunctionTemplate)
		return true;
	if (!clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c)))
		return true;
	/* A member of a class template is a template too. */
	for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p) &&
	                                                    !clang_isTranslationUnit(clang_getCursorKind(p));
	     p = clang_getCursorSemanticParent(p)) {
		enum CXCursorKind k = clang_getCursorKind(p);
		if (k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)
			return true;
	}
	return false;
}

/* C language linkage: the symbol is the bare name. */
static bool has_c_linkage(CXCursor c)
{
	char *m = q7c_take(clang_Cursor_getMangling(c));
	char *n = q7c_take(clang_getCursorSpelling(c));
	bool c_linkage = *m && (strcmp(m, n) == 0 || (m[0] == '_' && strcmp(m + 1, n) == 0));
	free(m);
	free(n);
	return c_linkage;
}

/* -DSTACK_SIZE=N (or -D STACK_SIZE=N) among the compile's flags, the last
 * one winning and -USTACK_SIZE undoing it: the size the vendor's
 * extra_cflags give every kernel of the file. The dispatch wrapper is
 * compiled at link time without the file's flags, so the op carries it. */
static void stack_from_flags(struct walk *w)
{
	char *const *a = w->o->clang_args;
	for (size_t i = 0; a && a[i]; i++) {
		bool def = strncmp(a[i], "-D", 2) == 0, undef = strncmp(a[i], "-U", 2) == 0;
		if (!def && !undef)
			continue;
		const char *v = a[i][2] ? a[i] + 2 : a[i + 1];
		if (!v)
			break;
		if (undef && strcmp(v, "STACK_SIZE") == 0) {
			w->stack_flag = 0;
			w->stack_bad = NULL;
		} else if (def && strncmp(v, "STACK_SIZE=", 11) == 0) {
			w->stack_flag = stack_size(v + 11);
			w->stack_bad = w->stack_flag ? NULL : v + 11;
		}
	}
}

/* Skips a comment or a string or character literal starting at t[i]:
 * returns the index of its last character (i when there is none there). */
static size_t skip_literal(const char *t, size_t size, size_t i)
{
	char ch = t[i];
	if (ch == '/' && i + 1 < size && t[i + 1] == '/') {
		while (i + 1 < size && t[i + 1] != '\n')
			i++;
	} else if (ch == '/' && i + 1 < size && t[i + 1] == '*') {
		for (i += 2; i + 1 < size && !(t[i] == '*' && t[i + 1] == '/'); i++)
			;
		i++;
	} else if (ch == '"' || ch == '\'') {
		for (i++; i < size && t[i] != ch; i++)
			if (t[i] == '\\')
				i++;
	}
	return i < size ? i : size - 1;
}

/* The text of the file c is in and the offset where c's extent ends. */
static const char *text_after(CXCursor c, size_t *size, unsigned *off, CXFile *file)
{
	clang_getFileLocation(clang_getRangeEnd(clang_getCursorExtent(c)), file, NULL, NULL, off);
	return *file ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), *file, size) : NULL;
}

static bool is_ident(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* The member calls accessor<...>(), read_stream_accessor<...>() and
 * write_stream_accessor<...>() in the kernel's own body (its text: libclang
 * skipped the body; helpers it calls are not looked into), for
 * q7-multicore-accessor. */
struct uses {
	size_t n, cap;
	struct q7_kuse *v;
};

static void accessor_uses(const struct fn *f, struct uses *out)
{
	static const char *const names[] = {"accessor", "read_stream_accessor",
	                                    "write_stream_accessor"};
	CXFile file;
	unsigned off;
	size_t size;
	const char *t = text_after(f->c, &size, &off, &file);
	if (!t)
		return;
	size_t i = off;
	for (; i < size && t[i] != '{'; i = skip_literal(t, size, i) + 1)
		if (t[i] == ';')
			return;
	int depth = 0;
	for (; i < size; i = skip_literal(t, size, i) + 1) {
		if (t[i] == '{')
			depth++;
		else if (t[i] == '}' && --depth == 0)
			break;
		if (!is_ident(t[i]) || (i > 0 && is_ident(t[i - 1])))
			continue;
		size_t end = i;
		while (end < size && is_ident(t[end]))
			end++;
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
			size_t len = strlen(names[k]), b = i, a = end;
			if (end - i != len || memcmp(t + i, names[k], len) != 0)
				continue;
			while (b > 0 && isspace((unsigned char)t[b - 1]))
				b--;
			while (a < size && isspace((unsigned char)t[a]))
				a++;
			bool member = (b > 0 && t[b - 1] == '.') || (b > 1 && t[b - 1] == '>' && t[b - 2] == '-');
			if (!member || a >= size || t[a] != '<')
				continue;
			CXSourceLocation loc = clang_getLocationForOffset(clang_Cursor_getTranslationUnit(f->c),
			                                                  file, (unsigned)i);
			Q7_GROW(out->v, out->cap, out->n + 1);
			out->v[out->n++] = (struct q7_kuse){names[k], q7c_place_loc(loc)};
		}
		i = end - 1;
	}
}

/* What this front knows of one kernel (k), and the strings it owns for
 * that (the files of k's places among them). */
struct facts {
	struct q7_kfacts k;
	struct uses uses;
	struct q7c_kind rk;
	int np;
	struct q7c_kind *pk;
	struct q7_kparam *params;
	char **labels;
};

/* Its scope: the first other declaration of its qualified name, and the
 * first kernel before it with its unqualified name (the link-time merge
 * catches that across TUs). */
static void scope_facts(const struct walk *w, const struct kernel *ks, size_t i, struct facts *fs)
{
	const struct fn *f = ks[i].f;
	for (size_t j = 0; j < w->n && !fs->k.other_decl.file; j++) {
		const struct fn *g = &w->fns[j];
		if (strcmp(g->qualname, f->qualname) == 0 && strcmp(g->usr, f->usr) != 0)
			fs->k.other_decl = q7c_place(g->c);
	}
	for (size_t j = 0; j < i && !fs->k.same_name; j++) {
		const struct fn *g = ks[j].f;
		if (strcmp(g->name, f->name) != 0 || strcmp(g->qualname, f->qualname) == 0)
			continue;
		fs->k.same_name_at = q7c_place(g->c);
		fs->k.same_name = g->qualname;
	}
}

/* The prototype: variadic, the result and each parameter classified. */
static void proto_facts(const struct fn *f, CXType ft, struct facts *fs)
{
	struct q7_kfacts *k = &fs->k;
	k->proto = true;
	k->variadic = clang_isFunctionTypeVariadic(ft);
	q7c_classify(clang_getResultType(ft), true, &fs->rk);
	k->ret_known = true;
	k->ret = fs->rk.kind;
	k->ret_ctype = fs->rk.ctype;
	k->ret_why = fs->rk.why;
	int np = clang_Cursor_getNumArguments(f->c);
	fs->np = np > 0 ? np : 0;
	fs->pk = q7_xcalloc((size_t)fs->np, sizeof *fs->pk);
	fs->params = q7_xcalloc((size_t)fs->np, sizeof *fs->params);
	fs->labels = q7_xcalloc((size_t)fs->np, sizeof *fs->labels);
	for (int i = 0; i < fs->np; i++) {
		CXCursor parm = clang_Cursor_getArgument(f->c, (unsigned)i);
		q7c_classify(clang_getArgType(ft, (unsigned)i), false, &fs->pk[i]);
		char *pname = q7c_take(clang_getCursorSpelling(parm));
		fs->labels[i] = *pname ? q7_xasprintf("'%s'", pname) : q7_xasprintf("%d", i + 1);
		free(pname);
		fs->params[i] = (struct q7_kparam){
			.label = fs->labels[i],
			.kind = fs->pk[i].kind,
			.ctype = fs->pk[i].ctype,
			.why = fs->pk[i].why,
			.invalid = clang_isInvalidDeclaration(parm),
			.at = q7c_place(parm),
		};
	}
	k->nparams = (size_t)fs->np;
	k->params = fs->params;
}

/* The facts of kernel ks[i] for the lint. */
static void gather(const struct walk *w, const struct kernel *ks, size_t i, struct facts *fs)
{
	const struct kernel *kn = &ks[i];
	const struct fn *f = kn->f;
	CXCursor c = f->c;
	struct q7_kfacts *k = &fs->k;
	k->name = f->name;
	k->qualname = f->qualname;
	k->at = q7c_place(c);
	k->toolchain = w->o->toolchain;
	scope_facts(w, ks, i, fs);
	k->invalid = clang_isInvalidDeclaration(c);
	k->member = is_member(c);
	k->is_template = is_template(c);
	enum CXLinkageKind lk = clang_getCursorLinkage(c);
	k->internal = lk == CXLinkage_Internal || lk == CXLinkage_UniqueExternal;
	k->is_inline = clang_Cursor_isFunctionInlined(c);
	k->c_linkage = has_c_linkage(c);
	k->stack = kn->stack;
	if (kn->stack_bad) {
		k->stack_bad = kn->stack_bad->stack_text;
		k->stack_at = q7c_place(kn->stack_bad->c);
	}
	k->stack_flag_bad = w->stack_bad;
	k->multicore = w->o->multicore && kn->defined;
	if (k->multicore)
		accessor_uses(f, &fs->uses);
	k->nuses = fs->uses.n;
	k->uses = fs->uses.v;
	CXType ft = clang_getCursorType(c);
	if (clang_getCursorKind(c) != CXCursor_FunctionTemplate && ft.kind == CXType_FunctionProto)
		proto_facts(f, ft, fs);
}

static void facts_free(struct facts *fs)
{
	q7c_place_free(&fs->k.at);
	q7c_place_free(&fs->k.other_decl);
	q7c_place_free(&fs->k.same_name_at);
	q7c_place_free(&fs->k.stack_at);
	for (size_t i = 0; i < fs->uses.n; i++)
		q7c_place_free(&fs->uses.v[i].at);
	free(fs->uses.v);
	for (int i = 0; i < fs->np; i++) {
		free(fs->pk[i].ctype);
		free(fs->labels[i]);
		q7c_place_free(&fs->params[i].at);
	}
	free(fs->pk);
	free(fs->params);
	free(fs->labels);
	free(fs->rk.ctype);
}

/* The op of a kernel that passed every rule (kn, whose facts are fs): it
 * takes the classified result's and parameters' ctypes and the place's
 * file from fs. */
static void add_op(const struct walk *w, const struct kernel *kn, struct facts *fs,
                   struct q7_op_table *ops)
{
	const struct fn *f = kn->f;
	struct q7_op *op = q7_ops_add(ops);
	op->name = q7_xstrdup(f->name);
	op->qualname = q7_xstrdup(f->qualname);
	op->ns = q7_xstrdup("");
	op->ret = fs->rk.kind;
	op->ret_ctype = fs->rk.ctype;
	fs->rk.ctype = NULL;
	op->ret_name = q7_xstrdup("");
	op->nparams = (size_t)fs->np;
	op->params = q7_xcalloc(op->nparams, sizeof *op->params);
	for (int i = 0; i < fs->np; i++) {
		op->params[i].kind = fs->pk[i].kind;
		op->params[i].name = q7c_take(clang_getCursorSpelling(clang_Cursor_getArgument(f->c, (unsigned)i)));
		op->params[i].ctype = fs->pk[i].ctype;
		fs->pk[i].ctype = NULL;
	}
	op->stack_size = kn->stack ? kn->stack : w->stack_flag;
	op->defined = kn->defined;
	op->file = (char *)fs->k.at.file;
	fs->k.at.file = NULL;
	op->line = fs->k.at.line;
	op->col = fs->k.at.col;
}

/* Lints kernel ks[i] (lint.c) and builds its op when it passes the
 * error rules. */
static void build_op(const struct walk *w, const struct kernel *ks, size_t i,
                     struct q7_op_table *ops, struct q7_diags *ds)
{
	struct facts fs = {0};
	gather(w, ks, i, &fs);
	if (q7_lint_kernel(&fs.k, ds) && fs.k.proto)
		add_op(w, &ks[i], &fs, ops);
	facts_free(&fs);
}

/* With function bodies skipped, libclang no longer calls a definition a
 * definition, and its extent stops after the declarator. So read on from
 * there (from the macro invocation when the declarator came from a macro):
 * at bracket depth 0, a '{' (or "try") means a body, a ';' none. */
static bool is_definition(CXCursor c)
{
	if (clang_isCursorDefinition(c))
		return true;
	CXFile file;
	unsigned off;
	size_t size;
	const char *t = text_after(c, &size, &off, &file);
	if (!t)
		return false;
	int depth = 0;
	for (size_t i = off; i < size; i = skip_literal(t, size, i) + 1) {
		char ch = t[i];
		if (ch == '(' || ch == '[') {
			depth++;
		} else if (ch == ')' || ch == ']') {
			depth--;
		} else if (depth <= 0 && ch == ';') {
			return false;
		} else if (depth <= 0 && ch == '{') {
			return true;
		} else if (depth <= 0 && ch == 't' && i + 3 <= size && memcmp(t + i, "try", 3) == 0 &&
		           (i == 0 || !is_ident(t[i - 1])) && (i + 3 == size || !is_ident(t[i + 3]))) {
			return true;
		}
	}
	return false;
}

static size_t group_kernels(struct walk *w, struct kernel **out)
{
	struct kernel *ks = q7_xcalloc(w->n, sizeof *ks);
	size_t nk = 0;
	for (size_t i = 0; i < w->n; i++) {
		struct fn *f = &w->fns[i];
		bool named = named_kernel(w, f);
		if (!f->marked && !named)
			continue;
		size_t k;
		for (k = 0; k < nk; k++)
			if (strcmp(ks[k].f->usr, f->usr) == 0)
				break;
		if (k == nk) {
			ks[nk].f = f;
			nk++;
		}
		struct kernel *kn = &ks[k];
		kn->marked |= f->marked;
		if (f->stack > kn->stack)
			kn->stack = f->stack;
		if (f->stack_bad && !kn->stack_bad)
			kn->stack_bad = f;
	}
	for (size_t k = 0; k < nk; k++) {
		for (size_t i = 0; i < w->n; i++) {
			struct fn *f = &w->fns[i];
			if (strcmp(f->usr, ks[k].f->usr) == 0 && is_definition(f->c)) {
				ks[k].f = f;
				ks[k].defined = true;
				break;
			}
		}
	}
	*out = ks;
	return nk;
}

/* The parameter names of the request's shape function, when the TU has it
 * and every parameter is named (a definition first). */
static void shape_params(const struct walk *w, const char *shape, struct q7_op *op)
{
	const struct fn *best = NULL;
	for (size_t i = 0; *shape && i < w->n; i++) {
		const struct fn *f = &w->fns[i];
		if (names_fn(shape, f) && (!best || is_definition(f->c))) {
			best = f;
			if (is_definition(f->c))
				break;
		}
	}
	int np = best ? clang_Cursor_getNumArguments(best->c) : 0;
	if (np <= 0)
		return;
	struct q7_param *ps = q7_xcalloc((size_t)np, sizeof *ps);
	bool named = true;
	for (int i = 0; i < np; i++) {
		ps[i].name = q7c_take(clang_getCursorSpelling(clang_Cursor_getArgument(best->c, (unsigned)i)));
		ps[i].ctype = q7_xstrdup("");
		named &= ps[i].name[0] != '\0';
	}
	if (!named) {
		for (int i = 0; i < np; i++) {
			free(ps[i].name);
			free(ps[i].ctype);
		}
		free(ps);
		return;
	}
	op->params = ps;
	op->nparams = (size_t)np;
}

/* A kernel of this TU that a NEURON_LIBRARY block names takes its
 * namespace (the first block's); ops[first..] are the TU's kernels. */
static void take_namespace(const struct q7c_request *r, const struct fn *f,
                           struct q7_op_table *ops, size_t first)
{
	for (size_t i = first; i < ops->n; i++) {
		struct q7_op *op = &ops->ops[i];
		if (!op->by_name_only && !*op->ns && strcmp(op->qualname, f->qualname) == 0) {
			free(op->ns);
			op->ns = q7_xstrdup(r->d.ns);
		}
	}
}

/* NEURON_LIBRARY names that no function of this TU carries: requests.
 * The kernels it does carry take the block's namespace. */
static void add_requests(const struct walk *w, const struct kernel *ks, size_t nk,
                         const struct q7c_requests *rs, struct q7_op_table *ops, size_t first)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct q7c_request *r = &rs->v[i];
		bool known = false;
		for (size_t k = 0; k < nk && !known; k++) {
			known = names_fn(r->d.fn, ks[k].f);
			if (known)
				take_namespace(r, ks[k].f, ops, first);
		}
		for (size_t j = 0; j < i && !known; j++)
			known = strcmp(rs->v[j].d.fn, r->d.fn) == 0;
		if (known)
			continue;
		const char *q = r->d.fn[0] == ':' && r->d.fn[1] == ':' ? r->d.fn + 2 : r->d.fn;
		const char *last = strrchr(q, ':');
		struct q7_op *op = q7_ops_add(ops);
		op->name = q7_xstrdup(last ? last + 1 : q);
		op->qualname = q7_xstrdup(last ? q : "");
		op->ns = q7_xstrdup(r->d.ns);
		op->ret_ctype = q7_xstrdup("");
		op->ret_name = q7_xstrdup("");
		op->file = q7_xstrdup(r->at.file);
		op->line = r->at.line;
		op->col = r->at.col;
		op->by_name_only = true;
		op->stack_size = w->stack_flag; /* the kernel's file may lack the mark */
		shape_params(w, r->d.shape, op);
		if (!op->params)
			op->params = q7_xcalloc(1, sizeof *op->params);
	}
}

/* A --q7-kernel name that no function of the TU (nor a NEURON_LIBRARY
 * block of it) has: an error that lists what the file defines. */
static void unknown_names(CXTranslationUnit tu, const struct walk *w,
                          const struct q7c_requests *rs, struct q7_diags *ds)
{
	for (char *const *k = w->o->kernel_names; k && *k; k++) {
		bool known = false;
		for (size_t i = 0; i < w->n && !known; i++)
			known = names_fn(*k, &w->fns[i]);
		for (size_t i = 0; i < rs->n && !known; i++)
			known = strcmp(rs->v[i].d.fn, *k) == 0;
		if (known)
			continue;
		struct q7_strbuf list = {0};
		size_t nd = 0;
		for (size_t i = 0; i < w->n; i++) {
			const struct fn *f = &w->fns[i];
			if (!clang_Location_isFromMainFile(clang_getCursorLocation(f->c)) ||
			    !is_definition(f->c))
				continue;
			q7_sb_addf(&list, "%s%s", nd++ ? ", " : "", f->qualname);
		}
		CXString file = clang_getTranslationUnitSpelling(tu);
		q7_diags_add_rule(ds, Q7_RULE_UNKNOWN_KERNEL, clang_getCString(file), 0, 0,
		                  "--q7-kernel=%s names no function of this file; %s%s", *k,
		                  nd ? "it defines: " : "it defines no function",
		                  list.s ? list.s : "");
		clang_disposeString(file);
		q7_sb_free(&list);
	}
}

void q7c_find_kernels(CXTranslationUnit tu, const struct q7_analysis_opts *o,
                      const struct q7c_requests *reqs, struct q7_op_table *ops,
                      struct q7_diags *diags)
{
	struct walk w = {.o = o};
	for (char *const *k = o->kernel_names; k && *k; k++)
		q7_sv_add(&w.names, *k);
	for (char *const *k = o->wanted_names; k && *k; k++)
		q7_sv_add(&w.names, *k);
	for (size_t i = 0; i < reqs->n; i++)
		q7_sv_add(&w.names, reqs->v[i].d.fn);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_decl, &w);
	stack_from_flags(&w);

	struct kernel *ks;
	size_t nk = group_kernels(&w, &ks);
	size_t first_diag = diags->n, first_op = ops->n;
	for (size_t i = 0; i < nk; i++)
		build_op(&w, ks, i, ops, diags);
	unknown_names(tu, &w, reqs, diags);
	q7_diags_sort(diags, first_diag);
	add_requests(&w, ks, nk, reqs, ops, first_op);

	free(ks);
	for (size_t i = 0; i < w.n; i++) {
		free(w.fns[i].usr);
		free(w.fns[i].name);
		free(w.fns[i].qualname);
		free(w.fns[i].stack_text);
	}
	free(w.fns);
	q7_sv_free(&w.names);
}
