/* Compile mode: the real compiler runs while analysis runs in-process;
 * the compiler's verdict comes first, then q7cc's lint, then the records
 * are attached to the object. -fsyntax-only runs the same way, without an
 * object. */
#include "modes.h"
#include "record.h"
#include "proc.h"
#include "tempfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the object, in q7cc's folder until it is whole ------------------------
 *
 * The compiler writes the object into q7cc's folder for its tools, under
 * its own name; q7cc attaches the records there and only then puts it at
 * -o, so that no interrupted compile leaves an object without its records
 * (make trusted it, and the next link silently lacked the kernel).
 * docs/driver.md, "Exit status and signals", lists what the compiler
 * still names after -o (-MD's file, or -o itself). */

/* Options whose outputs are named after -o's name, or that record it. */
static bool names_after_output(const char *w)
{
	static const char *const prefixes[] = {
		"-gsplit-dwarf", "--coverage", "-ftest-coverage", "-fprofile-", "-fstack-usage",
		"-save-temps", "-fdump-", "-fcallgraph-info", "-dumpbase", "-dumpdir", "-auxbase",
		"-frecord-gcc-switches", "-grecord-command-line", "-ftime-trace", "-fopt-info",
		"-fbranch-probabilities", "-fauto-profile", "-fsave-optimization-record",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(w, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* GCC's name for an auxiliary output of the object obj: obj without its
 * last suffix, then ext ("dir/k.cpp.o" -> "dir/k.cpp.ci"). */
static char *aux_name(const char *obj, const char *ext)
{
	const char *base = q7_path_basename(obj), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - obj) : strlen(obj);
	return q7_xasprintf("%.*s%s", (int)n, obj, ext);
}

/* Where the compiler writes the object of a compile to obj: a path in
 * q7cc's temporary folder, with the -MF/-MQ flags that keep the
 * dependency file's name and target appended to extra; NULL when the
 * compiler must write obj itself (-###, a device or FIFO, options that
 * name files after the object). */
static char *obj_temp(const struct q7_drv *d, const char *obj, struct q7_strvec *extra)
{
	if (d->dry)
		return NULL;
	enum q7_output_kind k = q7_output_kind(obj);
	if (k != Q7_OUTPUT_NEW && k != Q7_OUTPUT_FILE)
		return NULL; /* a device or a FIFO is the compiler's to write */
	bool md = false, mf = false, mt = false;
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		const char *w = u->tok[0];
		if (u->input)
			continue;
		if (names_after_output(w))
			return NULL;
		for (int t = 0; t < u->ntok; t++)
			if (strncmp(u->tok[t], "-Wp,", 4) == 0 || strncmp(u->tok[t], "-Wa,", 4) == 0)
				return NULL; /* options handed on unseen: leave the names alone */
		md |= strcmp(w, "-MD") == 0 || strcmp(w, "-MMD") == 0;
		mf |= strncmp(w, "-MF", 3) == 0;
		mt |= strncmp(w, "-MT", 3) == 0 || strncmp(w, "-MQ", 3) == 0;
	}
	/* The folder of the tools' own temporaries: swept whole at exit and
	 * on a signal, with what the record attach leaves if stopped. */
	char *tmp = q7_path_join(q7_temp_tool_dir(), q7_path_basename(obj));
	q7_temp_register(tmp);
	if (md && !mf) {
		char *dep = aux_name(obj, ".d"); /* GCC's driver's %.d */
		q7_sv_add(extra, "-MF");
		q7_sv_add(extra, dep);
		free(dep);
	}
	if (md && !mt) {
		q7_sv_add(extra, "-MQ");
		q7_sv_add(extra, obj);
	}
	return tmp;
}

/* Moves the finished object tmp to obj (a rename, else a copy through a
 * temporary beside obj). 0, or -1 after a message naming obj. */
static int obj_commit(const char *tmp, const char *obj)
{
	struct stat st;
	/* A plain name on the same file system: one rename. */
	if ((lstat(obj, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode)) && rename(tmp, obj) == 0) {
		q7_temp_forget(tmp);
		return 0;
	}
	size_t len;
	char *bytes = q7_read_file(tmp, &len);
	const char *what = "cannot read the compiled object";
	int rc = bytes && stat(tmp, &st) == 0
	                 ? q7_outfile_write(obj, bytes, len, st.st_mode & 0777, &what)
	                 : -1;
	if (rc != 0)
		q7_error("%s: %s: %s", obj, what, strerror(errno));
	free(bytes);
	return rc;
}

/* ---- the kernel's stack at the build ------------------------------------
 * docs/driver.md, "The kernel's stack at the build"; analysis/stack.c
 * reads GCC's .ci files. */

/* GCC 10 or later (-fcallgraph-info), not clang (no call graph file), by
 * the compiler's own macros (sysinfo: probed once per compiler, cached). */
static bool gcc_with_callgraph(struct q7_drv *d)
{
	struct q7_analysis_opts o = {0};
	q7_drv_sysinfo(d, &o);
	int major = 0;
	bool clang = false;
	for (size_t i = 0; i < d->sys.predefines.n; i++) {
		const char *m = d->sys.predefines.v[i];
		if (strncmp(m, "__GNUC__=", 9) == 0)
			major = atoi(m + 9);
		clang |= strncmp(m, "__clang__=", 10) == 0;
	}
	return major >= 10 && !clang;
}

/* Whether a compile of this toolchain and use measures its stack (GCC 10
 * or later, when the object goes to q7cc's temporary folder: then GCC's
 * flags are added to extra). */
static bool stack_measures(struct q7_drv *d, enum q7_use use, struct q7_strvec *extra)
{
	/* gnu: Debian's cross GCC (12), never probed for it, so that a file
	 * without kernels costs no probe. host: only files that use q7cc,
	 * whose command is q7cc's anyway and whose analysis asks the compiler
	 * for its macros all the same; any compiler may be the host's. */
	bool measures = d->tc.kind == Q7_TOOLCHAIN_GNU ||
	                (d->tc.kind == Q7_TOOLCHAIN_HOST && use == Q7_USE_Q7 && gcc_with_callgraph(d));
	if (measures) {
		q7_sv_add(extra, "-fstack-usage");
		q7_sv_add(extra, "-fcallgraph-info=su");
	}
	return measures;
}

/* After the compile: the figures kept in obj when attach (the compile
 * succeeded) and GCC's files beside obj removed. 0, or -1 after a
 * message. */
static int stack_keep(const char *obj, bool attach)
{
	char *ci = aux_name(obj, ".ci"), *su = aux_name(obj, ".su");
	int rc = 0;
	char *text = attach ? q7_read_file(ci, NULL) : NULL;
	if (text) {
		size_t len;
		char *payload = q7_stack_from_callgraph(text, &len);
		struct q7_err err = Q7_ERR_GROWING;
		if (len && (rc = q7_section_attach(obj, Q7_STACK_SECTION, payload, len, &err)) != 0)
			q7_err_print(&err);
		free(payload);
		free(text);
	}
	remove(ci);
	remove(su);
	free(ci);
	free(su);
	return rc;
}

/* Whether text says the compiler did not know the mark Q7_KERNEL (GCC's
 * "'Q7_KERNEL' does not name a type", clang's "unknown type name
 * 'Q7_KERNEL'"), on one line. */
static bool unknown_mark(const char *text)
{
	char *copy = q7_xstrdup(text);
	bool unknown = false;
	for (char *rest = copy, *line; !unknown && (line = strsep(&rest, "\n"));)
		unknown = strstr(line, "Q7_KERNEL") && (strstr(line, "does not name a type") ||
		                                        strstr(line, "unknown type name"));
	free(copy);
	return unknown;
}

/* After a failed compile, a mark nobody defined is a missing #include
 * <q7/kernel.h>: say so, naming the file, after the compiler's own
 * words, which went straight to stderr; libclang's analysis saw the
 * same. (Under GCC's JSON the compiler's stderr is one array that a
 * note would break.) */
static void hint_kernel_h(const struct q7_diags *diags, const struct q7_input *srcs, size_t n)
{
	bool unknown = false;
	for (size_t i = 0; i < diags->n && !unknown; i++)
		unknown = unknown_mark(diags->d[i].message);
	if (unknown)
		q7_note("%s: Q7_KERNEL is defined by <q7/kernel.h>: add #include <q7/kernel.h> to the "
		        "file that marks its kernels",
		        n ? srcs[0].name : "the source");
}

/* Runs the real compiler (cmd) while analysing the C++ inputs srcs (n of
 * them, opened); the compiler's verdict comes first, then q7cc's lint.
 * The kernels go to ops; *analysed says whether any input needed libclang
 * or carried q7cc -E's findings (under -###: would). Returns the
 * compiler's exit code when it failed, else Q7_EXIT_ERROR with
 * *lint_failed set when the lint failed, else 0. */
static int run_with_lint(struct q7_drv *d, char *const *cmd, struct q7_input *srcs, size_t n,
                         struct q7_op_table *ops, bool *analysed, bool *lint_failed)
{
	*analysed = *lint_failed = false;
	/* The compiler starts first: everything q7cc does until it has to
	 * wait for it, the pre-scan included, is off the critical path. */
	/* It dies with q7cc, even by a SIGKILL of q7cc's group: an object
	 * it finished after q7cc would lack its records (support/proc.c,
	 * start_guard). */
	struct q7_proc_opts po = {.name = q7_path_basename(cmd[0]), .dies_with_us = true};
	/* Its temporaries (GCC's ccXXXXXX.s) in q7cc's folder for the tools:
	 * removed with it, and after a SIGKILL swept with it by a later run
	 * (in $TMPDIR itself they stayed forever). */
	po.tmpdir = d->dry ? NULL : q7_temp_tool_dir();
	char *err_path;
	po.err = q7_drv_capture_open(d, "compiler.err", &err_path);
	if (po.err < 0)
		return Q7_EXIT_IO;
	pid_t pid = q7_step_start(d, cmd, &po);
	if (po.err > 0)
		close(po.err);
	if (pid < 0) {
		free(err_path);
		return Q7_EXIT_TOOL;
	}
	struct q7_diags diags = {0};
	bool broken = false;
	for (size_t i = 0; i < n; i++) {
		bool ran;
		broken |= q7_input_analyse(d, &srcs[i], NULL, ops, &diags, &ran) < 0;
		*analysed |= ran;
	}
	int rc = q7_step_wait(pid);
	char *err = err_path ? q7_read_file(err_path, NULL) : NULL;
	/* A failed compile speaks for itself: the user sees its diagnostics
	 * once, not libclang's too. */
	bool lint = !d->dry && rc == 0 && *analysed;
	if (lint && (q7_drv_report(d, &diags, err) > 0 || broken)) {
		*lint_failed = true;
		rc = Q7_EXIT_ERROR;
	} else if (!lint && err) {
		q7_drv_show(d, NULL, err);
	}
	if (rc != 0 && !d->dry && !err_path)
		hint_kernel_h(&diags, srcs, n);
	free(err);
	free(err_path);
	q7_diags_free(&diags);
	return rc;
}

int q7_compile_one(struct q7_drv *d, const char *src, enum q7_input_kind kind, const char *obj,
                   bool shared)
{
	struct q7_input in;
	int rc = q7_input_open(d, src, kind, &in);
	if (rc)
		return rc;
	struct q7_strvec cmd = {0}, extra = {0};
	bool cxx = kind == Q7_IN_CXX || kind == Q7_IN_CXX_PP;
	/* C++ may have records: its object appears only with them. */
	char *tmp = cxx ? obj_temp(d, obj, &extra) : NULL;
	const char *written = tmp ? tmp : obj;
	/* Only the host toolchain's command depends on it: the pre-scan runs
	 * before the compiler starts there alone. */
	enum q7_use use = d->tc.kind == Q7_TOOLCHAIN_HOST ? q7_input_use(d, &in, shared) : Q7_USE_Q7;
	q7_cmd_compile(&d->tc, &d->inv, src, kind, use, written, &cmd);
	bool measured = tmp && stack_measures(d, use, &extra);
	q7_sv_addv(&cmd, &extra);
	struct q7_op_table ops = {0};
	bool analysed, lint_failed;
	rc = run_with_lint(d, cmd.v, &in, cxx ? 1 : 0, &ops, &analysed, &lint_failed);
	const char *lto = q7_drv_lto(d);
	if (lto && rc == 0 && !lint_failed && ops.n && !d->dry) {
		q7_output_remove(written);
		rc = q7_drv_refuse_lto(in.name, lto);
		lint_failed = true; /* nothing to commit */
	}
	if (d->dry) {
		if (analysed)
			q7_step_note(d, "attach records to %s", obj);
	} else if (lint_failed) {
		q7_output_remove(obj);
	} else if (rc == 0 && ops.n && q7_output_is_file(written)) {
		/* Records are written beside the object and renamed over it: only
		 * into a regular file (-o /dev/null keeps being /dev/null). */
		q7_step_note(d, "attach %zu record%s to %s", ops.n, ops.n == 1 ? "" : "s", obj);
		for (size_t i = 0; i < ops.n; i++)
			if (!ops.ops[i].by_name_only)
				q7_step_note_op(d, "kernel", &ops.ops[i]);
		struct q7_err err = Q7_ERR_GROWING;
		if (q7_record_attach(written, &ops, &err) != 0) {
			q7_err_print(&err);
			q7_output_remove(written);
			rc = Q7_EXIT_ERROR;
		}
		q7_err_free(&err);
	}
	if (measured && stack_keep(written, rc == 0 && !lint_failed) != 0) {
		q7_output_remove(written);
		rc = Q7_EXIT_ERROR;
	}
	if (tmp && rc == 0 && !lint_failed) { /* no tmp under -### */
		q7_step_note(d, "rename %s to %s", tmp, obj);
		if (obj_commit(tmp, obj) != 0)
			rc = Q7_EXIT_IO;
	}
	free(tmp);
	q7_sv_free(&extra);
	q7_ops_free(&ops);
	q7_sv_free(&cmd);
	q7_input_close(&in);
	return rc;
}

int q7_mode_syntax(struct q7_drv *d)
{
	struct q7_strvec cmd = {0};
	size_t n = 0;
	struct q7_input *srcs = q7_xcalloc(d->inv.n ? d->inv.n : 1, sizeof *srcs);
	int rc = 0;
	for (size_t i = 0; i < d->inv.n && rc == 0; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		if (u->input == Q7_IN_CXX || u->input == Q7_IN_CXX_PP)
			if ((rc = q7_input_open(d, u->tok[0], u->input, &srcs[n])) == 0)
				n++;
	}
	if (rc == 0) {
		enum q7_use use = Q7_USE_NONE;
		for (size_t i = 0; i < n && use == Q7_USE_NONE; i++)
			use = q7_input_use(d, &srcs[i], false);
		q7_cmd_forward(&d->tc, &d->inv, use, &cmd);
		struct q7_op_table ops = {0};
		bool analysed, lint_failed;
		rc = run_with_lint(d, cmd.v, srcs, n, &ops, &analysed, &lint_failed);
		q7_ops_free(&ops);
	}
	for (size_t i = 0; i < n; i++)
		q7_input_close(&srcs[i]);
	free(srcs);
	q7_sv_free(&cmd);
	return rc;
}

int q7_mode_compile(struct q7_drv *d)
{
	const struct q7_inv *inv = &d->inv;
	if (inv->nsources == 0) {
		/* Nothing to compile: the compiler says so in its own words. */
		struct q7_strvec cmd = {0};
		q7_cmd_passthrough(&d->tc, inv, NULL, NULL, &cmd);
		int rc = q7_step_run(d, cmd.v, NULL);
		q7_sv_free(&cmd);
		return rc;
	}
	if (inv->output && inv->nsources > 1) {
		q7_error("cannot specify '-o' with '-c' with multiple files");
		return Q7_EXIT_USAGE;
	}
	for (size_t i = 0; i < inv->n; i++) {
		const struct q7_unit *u = &inv->u[i];
		if (!u->input || u->input == Q7_IN_LINK)
			continue;
		/* "dir/relu.cpp" -> "relu.o", as compilers name an object without -o. */
		char *obj = inv->output ? q7_xstrdup(inv->output)
		                        : aux_name(q7_path_basename(u->tok[0]), ".o");
		int rc = q7_compile_one(d, u->tok[0], u->input, obj, false);
		free(obj);
		if (rc)
			return rc;
	}
	return 0;
}
