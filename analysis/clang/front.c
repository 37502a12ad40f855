/* The plugin's entry: builds libclang's command line from the flags the
 * driver passes (already only those that shape the parse), parses the TU
 * with function bodies skipped, turns errors into diagnostics for the
 * driver to show (or not), then finds the kernels. */
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

char *q7c_take(CXString s)
{
	const char *c = clang_getCString(s);
	char *r = q7_xstrdup(c ? c : "");
	clang_disposeString(s);
	return r;
}

/* The presumed place: where the macro was used (the expansion), named as
 * line markers and #line say, as the compiler reports it. In a .ii the
 * markers name the original file and line; elsewhere it is the file. */
struct q7_kplace q7c_place_loc(CXSourceLocation loc)
{
	struct q7_kplace p = {0};
	CXString name;
	clang_getPresumedLocation(loc, &name, &p.line, &p.col);
	p.file = q7c_take(name);
	return p;
}

struct q7_kplace q7c_place(CXCursor c)
{
	return q7c_place_loc(clang_getCursorLocation(c));
}

void q7c_place_free(struct q7_kplace *p)
{
	free((char *)p->file);
	p->file = NULL;
}

/* Macros that describe the compiler, not the target. GCC's __GNUC__=12
 * would tell glibc's and picolibc's headers that GCC-only attributes
 * (__malloc__(free), ...) are there; clang's own values must stay. */
static bool compiler_macro(const char *def)
{
	static const char *const prefixes[] = {
		"__GNUC", "__GNUG__", "__VERSION__", "__GXX_", "__clang", "__llvm", "__GCC_",
		"__OPTIMIZE", "__NO_INLINE__", "__cpp_", "__cplusplus", "__STDC", "__has_",
		"__FLT_EVAL_METHOD", "__DEPRECATED", "__EXCEPTIONS", "__SSP", "__CET__",
		"__SEG_", "__FINITE_MATH_ONLY__", "__pic__", "__PIC__", "__pie__", "__PIE__",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(def, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* libclang's command line: the compile's own flags (the driver keeps only
 * those that shape the parse, by its option table), then what makes the
 * parse see what the real compiler sees (its target's data model, its
 * include directories and predefined macros). */
static void build_args(const struct q7_analysis_opts *o, struct q7_strvec *a)
{
	/* q7cc analyses C++ only: whatever the file's name, it is C++ here,
	 * or C++ already preprocessed (no macros, no #include left). */
	q7_sv_add(a, "-x");
	q7_sv_add(a, o->preprocessed ? "c++-cpp-output" : "c++");
	for (char *const *f = o->clang_args; f && *f; f++)
		q7_sv_add(a, *f);
	if (o->triple && *o->triple)
		q7_sv_addf(a, "--target=%s", o->triple);
	/* i386-unknown-none stands for the device's ILP32 data model only; its
	 * x86 macros would steer the real compiler's headers wrong (GCC's
	 * stddef.h then wants __float128). */
	if (o->triple && strncmp(o->triple, "i386-", 5) == 0 && strstr(o->triple, "-none")) {
		q7_sv_add(a, "-U__i386__");
		q7_sv_add(a, "-U__i386");
		q7_sv_add(a, "-Ui386");
	}
	if (o->sys_includes && o->sys_includes[0]) {
		q7_sv_add(a, "-nostdinc");
		q7_sv_add(a, "-nostdinc++");
		for (char *const *d = o->sys_includes; *d; d++) {
			q7_sv_add(a, "-isystem");
			q7_sv_add(a, *d);
		}
	}
	for (char *const *d = o->predefines; d && *d; d++) {
		if (compiler_macro(*d))
			continue;
		q7_sv_addf(a, "-D%s", *d);
		/* The type, not only the macro: xtensa's char is unsigned. */
		if (strncmp(*d, "__CHAR_UNSIGNED__", 17) == 0)
			q7_sv_add(a, "-funsigned-char");
	}
	/* The real compiler reports warnings; libclang's would only cost time. */
	q7_sv_add(a, "-w");
}

/* Returns the number of errors; each becomes a diagnostic with rule "". */
static unsigned collect_errors(CXTranslationUnit tu, struct q7_diags *diags)
{
	unsigned errors = 0, n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			struct q7_kplace p = q7c_place_loc(clang_getDiagnosticLocation(d));
			char *msg = q7c_take(clang_getDiagnosticSpelling(d));
			q7_diags_add(diags, Q7_SEV_ERROR, p.file, p.line, p.col, "", "%s", msg);
			free(msg);
			q7c_place_free(&p);
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	return errors;
}

/* After errors, says which kernels they made invalid: libclang recovers
 * from an unknown type by making it int, and that must never reach a
 * schema. A kernel whose declaration the errors left whole keeps its
 * rule errors (a header the device lacks must not hide that a parameter
 * is a pointer); warnings and the invalid kernels' other findings would
 * only be noise on a broken TU. */
static void invalid_kernels(CXTranslationUnit tu, const struct q7_analysis_opts *o,
                            const struct q7c_requests *reqs, struct q7_diags *diags)
{
	struct q7_op_table ops = {0};
	struct q7_diags all = {0};
	q7c_find_kernels(tu, o, reqs, &ops, &all);
	for (size_t i = 0; i < all.n; i++) {
		const struct q7_diag *d = &all.d[i];
		bool invalid = strcmp(d->rule, Q7_RULE_INVALID_DECL) == 0, on_invalid = false;
		for (size_t k = 0; k < all.n && !invalid; k++)
			on_invalid = on_invalid || (strcmp(all.d[k].rule, Q7_RULE_INVALID_DECL) == 0 &&
			                            all.d[k].line == d->line &&
			                            strcmp(all.d[k].file, d->file) == 0);
		if (invalid || (d->severity == Q7_SEV_ERROR && *d->rule && !on_invalid))
			q7_diags_add(diags, d->severity, d->file, d->line, d->col, d->rule, "%s",
			             d->message);
	}
	q7_diags_free(&all);
	q7_ops_free(&ops);
}

struct read_files {
	size_t n, cap;
	CXFile *v;
};

static void note_read(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	struct read_files *r = data;
	Q7_GROW(r->v, r->cap, r->n + 1);
	r->v[r->n++] = f;
}

/* Marks the diagnostics from index from on whose file libclang read for
 * this TU (the source, its headers): only their lines may be printed. A
 * place that a line marker or #line gives names whatever it likes (the
 * markers of a .ii, "/etc/shadow"), and libclang never opened that. */
static void mark_read(CXTranslationUnit tu, struct q7_diags *diags, size_t from)
{
	struct read_files r = {0};
	clang_getInclusions(tu, note_read, &r);
	for (size_t i = from; i < diags->n; i++) {
		struct q7_diag *d = &diags->d[i];
		CXFile f = *d->file ? clang_getFile(tu, d->file) : NULL;
		for (size_t k = 0; f && k < r.n && !d->source_read; k++)
			d->source_read = clang_File_isEqual(f, r.v[k]) != 0;
	}
	free(r.v);
}

__attribute__((visibility("default"))) int q7_clang_analyze(int abi,
                                                            const struct q7_analysis_opts *o,
                                                            struct q7_op_table *ops,
                                                            struct q7_diags *diags);

int q7_clang_analyze(int abi, const struct q7_analysis_opts *o, struct q7_op_table *ops,
                     struct q7_diags *diags)
{
	if (abi != Q7_PLUGIN_ABI) {
		q7_error("the analysis plugin is from another build of q7cc (ABI %d, not %d); "
		         "reinstall q7cc",
		         Q7_PLUGIN_ABI, abi);
		return Q7_ANALYZE_UNAVAILABLE;
	}
	int rc = Q7_ANALYZE_PARSE_ERROR;
	size_t first_diag = diags->n;
	struct q7_strvec args = {0};
	struct q7c_requests reqs = {0};
	CXIndex index = NULL;
	CXTranslationUnit tu = NULL;

	build_args(o, &args);
	index = clang_createIndex(0, 0);
	unsigned flags = CXTranslationUnit_SkipFunctionBodies;
	enum CXErrorCode err = clang_parseTranslationUnit2(
		index, o->source, (const char *const *)args.v, (int)args.n, NULL, 0, flags, &tu);
	if (err != CXError_Success || !tu) {
		q7_diags_add(diags, Q7_SEV_ERROR, o->source, 0, 0, "",
		             "libclang could not parse this file (CXErrorCode %d)", (int)err);
		goto cleanup;
	}
	/* Read from the tokens: said even when the TU has errors (a shape
	 * file's libtorch headers that libclang cannot follow). */
	q7c_neuron_requests(tu, &reqs);
	for (size_t i = 0; i < reqs.n; i++)
		q7_ops_add_def(ops, &reqs.v[i].d);
	if (collect_errors(tu, diags)) {
		invalid_kernels(tu, o, &reqs, diags);
		goto cleanup;
	}
	q7c_find_kernels(tu, o, &reqs, ops, diags);
	rc = 0;
cleanup:
	if (tu) {
		mark_read(tu, diags, first_diag);
		clang_disposeTranslationUnit(tu);
	}
	if (index)
		clang_disposeIndex(index);
	q7c_requests_free(&reqs);
	q7_sv_free(&args);
	return rc;
}
