/* The C++ inputs q7cc analyses, in every form: a source file, preprocessed
 * text (q7cc -E's trailer or libclang: docs/driver.md, "Preprocessed
 * input"), and either on standard input, copied to a temporary that becomes
 * the compiler's standard input. Every mode that analyses reads them here. */
#include "modes.h"
#include "proc.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STDIN_NAME "<stdin>" /* as GCC names it */

/* The copy of standard input (one per process: stdin is read once). */
static char *stdin_copy;

/* Reads standard input into a temporary file and makes that file the
 * standard input the compiler inherits. The copy's path, or NULL after
 * printing why. */
static const char *take_stdin(enum q7_input_kind kind)
{
	if (stdin_copy)
		return stdin_copy;
	char *path = q7_path_join(q7_temp_dir(), kind == Q7_IN_CXX_PP ? "stdin.ii" : "stdin.cpp");
	FILE *f = fopen(path, "wb");
	bool ok = f != NULL;
	if (ok)
		q7_temp_register(path);
	char buf[65536];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof buf, stdin)) > 0)
		ok = fwrite(buf, 1, n, f) == n;
	ok = ok && !ferror(stdin);
	if (f)
		ok &= fclose(f) == 0;
	int fd = ok ? open(path, O_RDONLY) : -1;
	if (fd < 0 || dup2(fd, 0) < 0) {
		q7_error("standard input: cannot keep a copy in %s: %s", path, strerror(errno));
		free(path);
		path = NULL;
	}
	if (fd > 0)
		close(fd);
	stdin_copy = path;
	return path;
}

/* Whether the trailer's records have a kernel named k ("fn" or "ns::fn"). */
static bool has_kernel(const struct q7_pp_trailer *t, const char *k)
{
	if (k[0] == ':' && k[1] == ':')
		k += 2;
	for (size_t i = 0; i < t->ops.n; i++) {
		const struct q7_op *op = &t->ops.ops[i];
		if (strcmp(k, strchr(k, ':') ? op->qualname : op->name) == 0)
			return true;
	}
	return false;
}

/* --q7-kernel names of this line that the q7cc -E which made the text
 * was not given and whose kernels its records lack. Prints each; returns
 * how many. */
static size_t names_missing(const struct q7_drv *d, const struct q7_input *in)
{
	size_t missing = 0;
	for (size_t i = 0; i < d->inv.kernels.n; i++) {
		const char *k = d->inv.kernels.v[i];
		if (has_kernel(&in->pp, k) || q7_sv_has(&in->pp.kernel_names, k))
			continue;
		q7_error("%s: --q7-kernel=%s was not given to the q7cc -E that made this file, so its "
		         "records lack it: give the names to q7cc -E",
		         in->name, k);
		missing++;
	}
	return missing;
}

int q7_input_open(struct q7_drv *d, const char *arg, enum q7_input_kind kind,
                  struct q7_input *in)
{
	*in = (struct q7_input){.arg = arg, .kind = kind, .file = arg, .name = arg};
	if (kind != Q7_IN_CXX && kind != Q7_IN_CXX_PP)
		return 0;
	if (strcmp(arg, "-") == 0) {
		in->from_stdin = true;
		in->name = STDIN_NAME;
		if (d->dry)
			return 0;
		in->file = take_stdin(kind);
		if (!in->file)
			return Q7_EXIT_IO;
	}
	if (!in->from_stdin && !d->dry) {
		/* Read by q7cc and by libclang: a regular file, or refused
		 * before the compiler starts (docs/robustness.md, "Special
		 * files"); standard input is copied whatever it is. */
		const char *why;
		int fd = q7_open_regular(in->file, &why);
		if (fd < 0 && errno == EINVAL) {
			q7_error("%s: cannot read: %s (give it on standard input, as '-')", in->name, why);
			return Q7_EXIT_ERROR;
		}
		if (fd >= 0)
			close(fd);
	}
	if (kind != Q7_IN_CXX_PP) /* (-### returned above for standard input) */
		return 0;
	int got = q7_pp_trailer_read(in->file, in->name, &in->pp);
	if (got < 0)
		return Q7_EXIT_ERROR;
	in->from_q7cc = got > 0;
	/* -### shows where the records come from; it checks nothing. */
	if (!in->from_q7cc || d->dry)
		return 0;
	if (strcmp(in->pp.toolchain, d->tc.name) != 0) {
		q7_error("%s: q7cc -E made this file for the %s profile; this compile is for %s: "
		         "preprocess and compile with the same profile",
		         in->name, in->pp.toolchain, d->tc.name);
		return Q7_EXIT_ERROR;
	}
	return names_missing(d, in) ? Q7_EXIT_ERROR : 0;
}

/* Whether the TU at file (preprocessed text: pp) uses q7cc: the pre-scan
 * finds what could mark a kernel or a header of q7cc's API, or
 * --q7-kernel names were given. */
static bool scan_uses_q7(struct q7_drv *d, const char *file, bool pp, bool *marks)
{
	struct q7_strvec args = {0};
	struct q7_analysis_opts o;
	q7_drv_analysis_opts(d, file, &args, &o);
	o.preprocessed = pp;
	bool own = false;
	*marks = q7_prescan(&o, &own) || (d->inv.kernels.n && q7_path_exists(file));
	q7_sv_free(&args);
	return *marks || own;
}

enum q7_use q7_input_use(struct q7_drv *d, struct q7_input *in, bool shared)
{
	bool q7;
	if (in->kind != Q7_IN_CXX && in->kind != Q7_IN_CXX_PP)
		q7 = false; /* only C++ has kernels */
	else if (in->from_q7cc)
		q7 = true; /* q7cc -E wrote a trailer: it used q7cc's flags */
	else if (in->from_stdin && d->dry)
		q7 = true; /* -### reads no standard input: it would */
	else if (in->from_stdin && d->verbose && d->inv.mode == Q7_MODE_PREPROCESS)
		q7 = true; /* an editor's probe (-E -v of standard input): the
		            * folders of a file with kernels */
	else {
		q7 = scan_uses_q7(d, in->file, in->kind == Q7_IN_CXX_PP, &in->marks);
		in->scanned = true;
	}
	return q7 ? Q7_USE_Q7 : shared ? Q7_USE_SHARED : Q7_USE_NONE;
}

enum q7_use q7_drv_line_use(struct q7_drv *d)
{
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		if (u->input != Q7_IN_CXX && u->input != Q7_IN_CXX_PP)
			continue;
		const char *path = u->tok[0];
		if (strcmp(path, "-") == 0)
			return Q7_USE_Q7; /* unread: as if it did */
		struct q7_pp_trailer t = {0};
		int got = u->input == Q7_IN_CXX_PP ? q7_pp_trailer_read(path, path, &t) : 0;
		q7_pp_trailer_free(&t);
		bool marks;
		if (got != 0 || scan_uses_q7(d, path, u->input == Q7_IN_CXX_PP, &marks))
			return Q7_USE_Q7;
	}
	return Q7_USE_NONE;
}

void q7_input_close(struct q7_input *in)
{
	q7_pp_trailer_free(&in->pp);
	memset(in, 0, sizeof *in);
}

/* Names the copy of standard input as GCC does. */
static void rename_stdin(const struct q7_input *in, struct q7_op_table *ops, size_t from_op,
                         struct q7_diags *diags, size_t from_diag)
{
	if (!in->from_stdin)
		return;
	for (size_t i = from_op; i < ops->n; i++)
		if (strcmp(ops->ops[i].file, in->file) == 0) {
			free(ops->ops[i].file);
			ops->ops[i].file = q7_xstrdup(in->name);
		}
	for (size_t i = from_diag; i < diags->n; i++)
		if (strcmp(diags->d[i].file, in->file) == 0) {
			free(diags->d[i].file);
			diags->d[i].file = q7_xstrdup(in->name);
		}
}

/* Text another compiler preprocessed for itself (glibc's headers expand to
 * GCC-only attributes under g++ -E) may be beyond libclang. The compiler
 * decides whether it compiles; q7cc's part is lost, and a warning says so
 * in place of libclang's errors. Returns 0. */
static int unreadable_text(const struct q7_input *in, struct q7_op_table *ops, size_t from_op,
                           struct q7_diags *diags, size_t from_diag)
{
	while (ops->n > from_op)
		q7_op_clear(&ops->ops[--ops->n]);
	while (diags->n > from_diag) {
		struct q7_diag *g = &diags->d[--diags->n];
		free(g->file);
		free(g->rule);
		free(g->message);
	}
	q7_diags_add(diags, Q7_SEV_WARNING, in->name, 0, 0, "q7-foreign-preprocessed",
	             "not preprocessed by q7cc -E, and libclang cannot read the text the other "
	             "preprocessor made: kernels in it are lost; preprocess with q7cc -E (the same "
	             "profile), or compile the source");
	return 0;
}

/* Whether o's source needs libclang: the pre-scan says so, or --q7-kernel
 * names were given (a name the file does not have is an error that lists
 * the functions it has). */
static bool analysis_needed(const struct q7_drv *d, const struct q7_analysis_opts *o)
{
	struct q7_err err = Q7_ERR_GROWING;
	int r = q7_analysis_prescan(o, NULL, &err);
	if (r < 0)
		q7_fatal(Q7_EXIT_ERROR, "%s", q7_err_text(&err));
	q7_err_free(&err);
	return r > 0 || (d->inv.kernels.n && q7_path_exists(o->source));
}

int q7_input_analyse(struct q7_drv *d, struct q7_input *in, char *const *wanted,
                     struct q7_op_table *ops, struct q7_diags *diags, bool *analysed)
{
	*analysed = false;
	if (in->from_q7cc) {
		q7_step_note(d, "take the records and lint of %s from q7cc -E", in->name);
		for (size_t i = 0; i < in->pp.ops.n; i++)
			q7_ops_add_copy(ops, &in->pp.ops.ops[i]);
		for (size_t i = 0; i < in->pp.ops.ndefs; i++)
			q7_ops_add_def(ops, &in->pp.ops.defs[i]);
		for (size_t i = 0; i < in->pp.diags.n; i++) {
			const struct q7_diag *g = &in->pp.diags.d[i];
			q7_diags_add(diags, g->severity, g->file, g->line, g->col, g->rule, "%s",
			             g->message);
		}
		*analysed = in->pp.analysed;
		return in->pp.analysed ? in->pp.rc : 0;
	}
	size_t from_op = ops->n, from_diag = diags->n;
	struct q7_strvec args = {0};
	if (in->from_stdin && in->kind == Q7_IN_CXX) {
		/* GCC looks for a quoted #include of standard input in the
		 * working directory first; the copy lives elsewhere. */
		q7_sv_add(&args, "-iquote");
		q7_sv_add(&args, ".");
	}
	struct q7_analysis_opts o;
	q7_drv_analysis_opts(d, in->file, &args, &o);
	o.wanted_names = wanted;
	o.preprocessed = in->kind == Q7_IN_CXX_PP;
	int rc = 0;
	if (o.preprocessed && !d->dry && q7_preprocessed_lost_marks(in->file, in->name, diags))
		*analysed = true;
	/* -### reads no standard input: whether it would need libclang is
	 * unknown, so it says it would. */
	/* The pre-scan q7_input_use ran answers for the same names. */
	bool needed = in->scanned && !wanted ? in->marks : analysis_needed(d, &o);
	if ((d->dry && in->from_stdin) || needed) {
		*analysed = true;
		if (q7_step_do(d, "analyze %s", in->name)) {
			q7_drv_sysinfo(d, &o);
			size_t before = diags->n;
			/* A signal stops it at once (before: a slow source held
			 * SIGTERM until libclang was done). */
			q7_proc_signals_abandon(true);
			struct q7_err err = Q7_ERR_GROWING;
			rc = q7_analyze(&o, ops, diags, &err);
			q7_proc_signals_abandon(false);
			q7_err_print(&err);
			if (rc == Q7_ANALYZE_PARSE_ERROR && o.preprocessed)
				rc = unreadable_text(in, ops, from_op, diags, before);
		}
	}
	q7_sv_free(&args);
	rename_stdin(in, ops, from_op, diags, from_diag);
	return rc;
}
