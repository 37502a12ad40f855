/* Compile mode: the real compiler runs while analysis runs in-process;
 * the compiler's verdict comes first, then q7cc's lint, then the records
 * are attached to the object. */
#include "modes.h"
#include "record.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int q7_compile_one(struct q7_drv *d, const char *src, enum q7_input_kind kind, const char *obj)
{
	struct q7_strvec cmd = {0}, args = {0};
	struct q7_analysis_opts o;
	q7_cmd_compile(&d->prof, &d->inv, src, obj, &cmd);
	q7_drv_analysis_opts(d, src, &args, &o);
	int rc = 0;
	if (!q7_step_show(d, cmd.v)) {
		if (kind == Q7_IN_CXX && q7_analysis_needed(&o)) {
			q7_step_note(d, "analyze %s", src);
			q7_step_note(d, "attach records to %s", obj);
		}
		goto out;
	}
	/* The compiler starts first: everything q7cc does until it has to
	 * wait for it, the pre-scan included, is off the critical path. */
	pid_t pid = q7_spawn_start(cmd.v);
	if (pid < 0) {
		rc = Q7_EXIT_TOOL;
		goto out;
	}
	/* Only C++ has kernels; the cheap pre-scan decides whether libclang
	 * loads at all. */
	bool analyse = kind == Q7_IN_CXX && q7_analysis_needed(&o);
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	int arc = 0;
	if (analyse) {
		/* Overlaps with the compiler's run. */
		q7_step_note(d, "analyze %s", src);
		q7_drv_sysinfo(d, &o);
		arc = q7_analyze(&o, &ops, &diags);
	}
	rc = q7_spawn_wait(pid, q7_path_basename(d->prof.cxx));
	if (rc != 0 || !analyse) {
		/* A failed compile speaks for itself: the user sees its
		 * diagnostics once, not libclang's too. */
		goto done;
	}
	size_t errors = q7_diags_apply_policy(&diags, &d->policy);
	q7_diags_print(&diags, stderr, q7_drv_color(d));
	if (arc < 0 || errors > 0) {
		q7_output_remove(obj);
		rc = Q7_EXIT_ERROR;
		goto done;
	}
	/* Records are written beside the object and renamed over it: only
	 * into a regular file (-o /dev/null keeps being /dev/null). */
	if (ops.n && q7_output_is_file(obj)) {
		q7_step_note(d, "attach %zu record%s to %s", ops.n, ops.n == 1 ? "" : "s", obj);
		if (q7_record_attach(obj, &ops) != 0) {
			q7_output_remove(obj);
			rc = Q7_EXIT_ERROR;
		}
	}
done:
	q7_ops_free(&ops);
	q7_diags_free(&diags);
out:
	q7_sv_free(&cmd);
	q7_sv_free(&args);
	return rc;
}

/* "dir/relu.cpp" -> "relu.o", as compilers name an object without -o. */
static char *default_object(const char *src)
{
	const char *base = q7_path_basename(src);
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *stem = q7_xstrndup(base, n);
	char *obj = q7_xasprintf("%s.o", stem);
	free(stem);
	return obj;
}

int q7_mode_compile(struct q7_drv *d)
{
	const struct q7_inv *inv = &d->inv;
	if (inv->nsources == 0) {
		/* Nothing to compile: the compiler says so in its own words. */
		struct q7_strvec cmd = {0};
		q7_cmd_passthrough(&d->prof, inv, &cmd);
		int rc = q7_step_show(d, cmd.v) ? q7_spawn_run(cmd.v) : 0;
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
		char *obj = inv->output ? q7_xstrdup(inv->output) : default_object(u->tok[0]);
		int rc = q7_compile_one(d, u->tok[0], u->input, obj);
		free(obj);
		if (rc)
			return rc;
	}
	return 0;
}
