/* Finding kernels in a parsed TU and linting them.
 *
 * A kernel is a function that carries annotate("q7.kernel") on any of its
 * declarations (the attribute is inherited by later redeclarations, so a
 * mark in a header reaches the unmarked definition), or whose name was
 * given by --q7-kernel=NAME or a NEURON_LIBRARY block (of this TU, or of
 * another file the driver analyses with it: wanted_names). A --q7-kernel
 * name that the TU has no function of is an error. Declarations are
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
		const char *v = a + 9;
		char *end;
		errno = 0;
		unsigned long n = strtoul(v, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		free(f->stack_text);
		f->stack_text = q7_xstrdup(v);
		if (errno || end == v || *end || *v == '-' || n == 0 || n > Q7_MAX_STACK)
			f->stack_bad = true;
		else if (n > f->stack)
			f->stack = (unsigned)n;
	}
	free(a);
	return CXChildVisit_Continue;
}

static void add_fn(struct walk *w, CXCursor c)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		w->fns = q7_xrealloc(w->fns, w->cap * sizeof *w->fns);
	}
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
	switch (k) {
	case CXCursor_Namespace:
	case CXCursor_LinkageSpec:
	case CXCursor_StructDecl:
	case CXCursor_ClassDecl:
	case CXCursor_UnionDecl:
	case CXCursor_ClassTemplate:
	case CXCursor_ClassTemplatePartialSpecialization:
	case CXCursor_UnexposedDecl: /* extern "C++" { } and friends */
		return CXChildVisit_Recurse;
	default:
		return CXChildVisit_Continue;
	}
}

static bool named_kernel(const struct walk *w, const struct fn *f)
{
	for (size_t i = 0; i < w->names.n; i++) {
		const char *n = w->names.v[i];
		if (strcmp(n, strchr(n, ':') ? f->qualname : f->name) == 0)
			return true;
	}
	return false;
}

/* ---- lint ---- */

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
	enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(c));
	return pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl || pk == CXCursor_UnionDecl ||
	       pk == CXCursor_ClassTemplate || pk == CXCursor_ClassTemplatePartialSpecialization;
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

#define DIAG(ds, sev, pl, rule, ...) \
	q7_diags_add(ds, sev, (pl).file, (pl).line, (pl).col, rule, __VA_ARGS__)

/* The kind checks of one parameter; returns false on an error. */
static bool lint_param(const struct q7_analysis_opts *o, const struct fn *f, CXCursor parm,
                       unsigned idx, struct q7c_kind *k, struct q7_diags *ds)
{
	struct place pl = q7c_place(parm);
	char *pname = q7c_take(clang_getCursorSpelling(parm));
	char *label = *pname ? q7_xasprintf("'%s'", pname) : q7_xasprintf("%u", idx + 1);
	bool ok = true;
	if (clang_isInvalidDeclaration(parm)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_INVALID_DECL,
		     "parameter %s of kernel '%s' has a type that could not be resolved", label,
		     f->qualname);
		ok = false;
	} else if (k->kind == Q7_KIND_INVALID) {
		char *kinds = q7_profile_kinds(NULL, "or");
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_UNSUPPORTED_PARAM,
		     "parameter %s of kernel '%s' has type '%s' (%s), which a kernel cannot take; "
		     "use %s (Tensor and Scalar by value or const&)",
		     label, f->qualname, k->ctype, k->why, kinds);
		free(kinds);
		ok = false;
	} else if (!q7_profile_marshals(o->profile, k->kind)) {
		char *kinds = q7_profile_kinds(o->profile, "and");
		DIAG(ds, Q7_SEV_WARNING, pl, Q7_RULE_PROFILE_KIND,
		     "parameter %s of kernel '%s' is a %s, which the %s profile's runtime cannot "
		     "pass (it has %s)",
		     label, f->qualname, q7_kind_name(k->kind), o->profile, kinds);
		free(kinds);
	}
	free(label);
	free(pname);
	q7c_place_free(&pl);
	return ok;
}

/* -DSTACK_SIZE=N (or -D STACK_SIZE=N) among the compile's flags, the last
 * one winning and -USTACK_SIZE undoing it: the size the vendor's
 * extra_cflags give every kernel of the file. The generated wrapper is
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
			char *end;
			errno = 0;
			unsigned long n = strtoul(v + 11, &end, 0);
			while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
				end++;
			bool ok = !errno && end != v + 11 && !*end && v[11] != '-' && n > 0 && n <= Q7_MAX_STACK;
			w->stack_flag = ok ? (unsigned)n : 0;
			w->stack_bad = ok ? NULL : v + 11;
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

/* In a multicore build every core runs the kernel on the same tensors:
 * the reference guide allows only TCM accessors there. Warns of each
 * member call accessor<...>(), read_stream_accessor<...>() and
 * write_stream_accessor<...>() in the kernel's own body (its text: libclang
 * skipped the body; helpers it calls are not looked into). */
static void lint_multicore(const struct fn *f, struct q7_diags *ds)
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
			struct place pl = q7c_place_loc(loc);
			DIAG(ds, Q7_SEV_WARNING, pl, Q7_RULE_MULTICORE_ACCESSOR,
			     "kernel '%s' uses %s<>() in a multicore build: every core runs the kernel, and "
			     "standard and streaming accessors race between them; use tcm_accessor() on "
			     "each core's part (get_cpu_id())",
			     f->qualname, names[k]);
			q7c_place_free(&pl);
		}
		i = end - 1;
	}
}

/* What a kernel's declaration must be: valid, of a name the runtime
 * takes, a free non-template function of external C++ linkage, not
 * inline. Returns false on an error. */
static bool lint_declaration(const struct fn *f, struct place pl, struct q7_diags *ds)
{
	CXCursor c = f->c;
	bool ok = true;
	if (clang_isInvalidDeclaration(c)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_INVALID_DECL,
		     "the declaration of kernel '%s' is invalid (a type libclang could not resolve "
		     "would silently become int)",
		     f->qualname);
		ok = false;
	}
	if (strlen(f->name) > Q7_NAME_MAX) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_NAME_LENGTH,
		     "kernel name '%s' has %zu characters; the runtime takes at most %d", f->name,
		     strlen(f->name), Q7_NAME_MAX);
		ok = false;
	}
	if (is_member(c)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_MEMBER,
		     "kernel '%s' is a member function; a kernel is a free function", f->qualname);
		ok = false;
	} else if (is_template(c)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_TEMPLATE,
		     "kernel '%s' is a template; a kernel is one plain function", f->qualname);
		ok = false;
	} else {
		enum CXLinkageKind lk = clang_getCursorLinkage(c);
		if (lk == CXLinkage_Internal || lk == CXLinkage_UniqueExternal) {
			DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_INTERNAL,
			     "kernel '%s' has internal linkage (static, or in an unnamed namespace); the "
			     "generated wrapper cannot call it",
			     f->qualname);
			ok = false;
		}
	}
	if (ok && clang_Cursor_isFunctionInlined(c)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_INLINE,
		     "kernel '%s' is inline (or constexpr): only objects that call it define it, and "
		     "the generated wrapper is not one of them",
		     f->qualname);
		ok = false;
	}
	if (ok && has_c_linkage(c)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_C_LINKAGE,
		     "kernel '%s' is declared extern \"C\"; the generated wrapper declares kernels as "
		     "C++ functions, so it would not link",
		     f->qualname);
		ok = false;
	}
	return ok;
}

/* The kernel's stack size, its own or -DSTACK_SIZE's, must be a number
 * of bytes the runtime can give. Returns false on an error. */
static bool lint_stack(const struct walk *w, const struct kernel *kn, struct place pl,
                       struct q7_diags *ds)
{
	const struct fn *f = kn->f;
	if (kn->stack_bad) {
		struct place sp = q7c_place(kn->stack_bad->c);
		DIAG(ds, Q7_SEV_ERROR, sp, Q7_RULE_STACK,
		     "stack size '%s' of kernel '%s' is not a number of bytes from 1 to %u (4 MiB)",
		     kn->stack_bad->stack_text, f->qualname, Q7_MAX_STACK);
		q7c_place_free(&sp);
		return false;
	}
	if (!kn->stack && w->stack_bad) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_STACK,
		     "-DSTACK_SIZE=%s, the stack size of kernel '%s', is not a plain number of bytes "
		     "from 1 to %u (4 MiB); q7cc carries it to the wrapper it generates at link time",
		     w->stack_bad, f->qualname, Q7_MAX_STACK);
		return false;
	}
	return true;
}

/* The op of a kernel that passed every rule: rk and pk (np of them) are
 * its classified result and parameters, whose ctype the op takes; pl's
 * file goes to the op too. */
static void add_op(const struct walk *w, const struct kernel *kn, struct q7c_kind *rk,
                   struct q7c_kind *pk, int np, struct place *pl, struct q7_op_table *ops)
{
	const struct fn *f = kn->f;
	struct q7_op *op = q7_ops_add(ops);
	op->name = q7_xstrdup(f->name);
	op->qualname = q7_xstrdup(f->qualname);
	op->ns = q7_xstrdup("");
	op->ret = rk->kind;
	op->ret_ctype = rk->ctype;
	rk->ctype = NULL;
	op->ret_name = q7_xstrdup("");
	op->nparams = (size_t)np;
	op->params = q7_xcalloc(op->nparams ? op->nparams : 1, sizeof *op->params);
	for (int i = 0; i < np; i++) {
		op->params[i].kind = pk[i].kind;
		op->params[i].name = q7c_take(clang_getCursorSpelling(clang_Cursor_getArgument(f->c, (unsigned)i)));
		op->params[i].ctype = pk[i].ctype;
		pk[i].ctype = NULL;
	}
	op->stack_size = kn->stack ? kn->stack : w->stack_flag;
	op->defined = kn->defined;
	op->file = pl->file;
	pl->file = NULL;
	op->line = pl->line;
	op->col = pl->col;
}

/* Builds the op of one kernel when it passes the error rules: its
 * declaration, its stack, then its prototype (fixed parameters, a Tensor
 * returned, parameters of the kinds a schema has). */
static void build_op(const struct walk *w, const struct kernel *kn, struct q7_op_table *ops,
                     struct q7_diags *ds)
{
	const struct fn *f = kn->f;
	CXCursor c = f->c;
	struct place pl = q7c_place(c);
	bool ok = lint_declaration(f, pl, ds);
	ok &= lint_stack(w, kn, pl, ds);
	if (w->o->multicore && kn->defined)
		lint_multicore(f, ds);
	CXType ft = clang_getCursorType(c);
	if (clang_getCursorKind(c) == CXCursor_FunctionTemplate || ft.kind != CXType_FunctionProto) {
		q7c_place_free(&pl);
		return; /* templates: reported; no prototype to read */
	}
	if (clang_isFunctionTypeVariadic(ft)) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_VARIADIC,
		     "kernel '%s' is variadic; a kernel has a fixed parameter list", f->qualname);
		ok = false;
	}
	struct q7c_kind rk;
	q7c_classify(clang_getResultType(ft), true, &rk);
	if (rk.kind != Q7_KIND_TENSOR) {
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_RETURN,
		     "kernel '%s' returns '%s' (%s); a kernel returns exactly one at::Tensor by value",
		     f->qualname, rk.ctype, rk.why ? rk.why : "not a Tensor");
		ok = false;
	}
	int np = clang_Cursor_getNumArguments(c);
	struct q7c_kind *pk = q7_xcalloc(np > 0 ? (size_t)np : 1, sizeof *pk);
	for (int i = 0; i < np; i++) {
		q7c_classify(clang_getArgType(ft, (unsigned)i), false, &pk[i]);
		if (!lint_param(w->o, f, clang_Cursor_getArgument(c, (unsigned)i), (unsigned)i, &pk[i],
		                ds))
			ok = false;
	}
	if (ok)
		add_op(w, kn, &rk, pk, np, &pl, ops);
	for (int i = 0; i < np; i++)
		free(pk[i].ctype);
	free(pk);
	free(rk.ctype);
	q7c_place_free(&pl);
}

/* Overloads of a kernel's name in its scope, and two kernels with one
 * op name in this TU (the link-time merge catches it across TUs). */
static bool lint_names(const struct walk *w, const struct kernel *ks, size_t i,
                       struct q7_diags *ds)
{
	const struct fn *f = ks[i].f;
	for (size_t j = 0; j < w->n; j++) {
		const struct fn *g = &w->fns[j];
		if (strcmp(g->qualname, f->qualname) != 0 || strcmp(g->usr, f->usr) == 0)
			continue;
		struct place pl = q7c_place(f->c), gp = q7c_place(g->c);
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_OVERLOAD,
		     "kernel '%s' is overloaded; the op name must name one function", f->qualname);
		DIAG(ds, Q7_SEV_NOTE, gp, "", "another '%s' is declared here", f->qualname);
		q7c_place_free(&pl);
		q7c_place_free(&gp);
		return false;
	}
	for (size_t j = 0; j < i; j++) {
		const struct fn *g = ks[j].f;
		if (strcmp(g->name, f->name) != 0 || strcmp(g->qualname, f->qualname) == 0)
			continue;
		struct place pl = q7c_place(f->c), gp = q7c_place(g->c);
		DIAG(ds, Q7_SEV_ERROR, pl, Q7_RULE_DUPLICATE,
		     "kernel '%s' has the same name as kernel '%s' at %s:%u; kernel names must be "
		     "unique in a library",
		     f->qualname, g->qualname, gp.file, gp.line);
		DIAG(ds, Q7_SEV_NOTE, gp, "", "the other '%s' is here", f->name);
		q7c_place_free(&pl);
		q7c_place_free(&gp);
		return false;
	}
	return true;
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

/* Groups the functions by USR into kernels. */
static size_t group_kernels(struct walk *w, struct kernel **out)
{
	struct kernel *ks = q7_xcalloc(w->n ? w->n : 1, sizeof *ks);
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
	/* The op comes from the definition when the TU has one. */
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

static bool names_fn(const char *want, const struct fn *f)
{
	if (want[0] == ':' && want[1] == ':')
		want += 2;
	return strcmp(want, strchr(want, ':') ? f->qualname : f->name) == 0;
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
			op->ns = q7_xstrdup(r->ns);
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
			known = names_fn(r->fn, ks[k].f);
			if (known)
				take_namespace(r, ks[k].f, ops, first);
		}
		for (size_t j = 0; j < i && !known; j++)
			known = strcmp(rs->v[j].fn, r->fn) == 0;
		if (known)
			continue;
		const char *q = r->fn[0] == ':' && r->fn[1] == ':' ? r->fn + 2 : r->fn;
		const char *last = strrchr(q, ':');
		struct q7_op *op = q7_ops_add(ops);
		op->name = q7_xstrdup(last ? last + 1 : q);
		op->qualname = q7_xstrdup(last ? q : "");
		op->ns = q7_xstrdup(r->ns);
		op->ret_ctype = q7_xstrdup("");
		op->ret_name = q7_xstrdup("");
		op->file = q7_xstrdup(r->at.file);
		op->line = r->at.line;
		op->col = r->at.col;
		op->by_name_only = true;
		op->stack_size = w->stack_flag; /* the kernel's file may lack the mark */
		shape_params(w, r->shape, op);
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
			known = strcmp(rs->v[i].fn, *k) == 0;
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
		q7_diags_add(ds, Q7_SEV_ERROR, clang_getCString(file), 0, 0, Q7_RULE_UNKNOWN_KERNEL,
		             "--q7-kernel=%s names no function of this file; %s%s", *k,
		             nd ? "it defines: " : "it defines no function",
		             list.s ? list.s : "");
		clang_disposeString(file);
		q7_sb_free(&list);
	}
}

void q7c_find_kernels(CXTranslationUnit tu, const struct q7_analysis_opts *o,
                      struct q7_op_table *ops, struct q7_diags *diags)
{
	struct walk w = {.o = o};
	struct q7c_requests reqs = {0};
	for (char *const *k = o->kernel_names; k && *k; k++)
		q7_sv_add(&w.names, *k);
	for (char *const *k = o->wanted_names; k && *k; k++)
		q7_sv_add(&w.names, *k);
	q7c_neuron_requests(tu, &reqs);
	for (size_t i = 0; i < reqs.n; i++)
		q7_sv_add(&w.names, reqs.v[i].fn);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_decl, &w);
	stack_from_flags(&w);

	struct kernel *ks;
	size_t nk = group_kernels(&w, &ks);
	size_t first_diag = diags->n, first_op = ops->n;
	for (size_t i = 0; i < nk; i++)
		if (lint_names(&w, ks, i, diags))
			build_op(&w, &ks[i], ops, diags);
	unknown_names(tu, &w, &reqs, diags);
	q7_diags_sort(diags, first_diag);
	add_requests(&w, ks, nk, &reqs, ops, first_op);
	q7c_requests_free(&reqs);

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
