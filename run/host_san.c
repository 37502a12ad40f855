/* The host target's sanitized mode (host_san.h). */
#include "host_san.h"
#include "callargs.h"
#include "npy.h"
#include "result.h"
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "support.h"
#include "tempfile.h"

/* One argument as q7-run reads it: a tensor written to a .npy file
 * (path kept in files), else the literal. 0, or -1 (npy_write's why in
 * err). */
static int add_arg(const struct q7_arg *a, const char *stem, unsigned i, struct q7_strvec *argv,
                   struct q7_strvec *files, struct q7_err *err)
{
	if (a->kind == Q7_ARG_TENSOR) {
		const struct q7_tensor_desc *t = &a->u.tensor;
		char *path = q7_xasprintf("%s-a%u.npy", stem, i);
		q7_sv_add(files, path);
		int rc = npy_write(path, (enum q7_dtype)t->dtype, t->ndim, t->sizes,
		                   (const void *)(uintptr_t)t->data, err);
		q7_sv_add(argv, path);
		free(path);
		return rc;
	}
	if (a->kind == Q7_ARG_FLOAT) {
		double d;
		memcpy(&d, &a->u.f_bits, sizeof d);
		q7_sv_addf(argv, "%.17g", d);
	} else if (a->kind == Q7_ARG_BOOL) {
		q7_sv_add(argv, a->u.i ? "true" : "false");
	} else {
		q7_sv_addf(argv, "%lld", (long long)a->u.i);
	}
	return 0;
}

/* q7-run's report: passed on to stderr whole; its last line, less
 * "q7-run: error: ", is the call's message. */
static void report(const char *err, struct q7_run_result *r)
{
	fputs(err, stderr);
	size_t n = strlen(err);
	while (n && err[n - 1] == '\n')
		n--;
	const char *nl = memrchr(err, '\n', n), *line = nl ? nl + 1 : err;
	const char *tail = strstr(line, ": error: ");
	q7_run_fail(r, "%.*s", (int)(err + n - (tail ? tail + 9 : line)), tail ? tail + 9 : line);
	r->status = Q7_STATUS_KERNEL_ERROR;
}

/* q7-run's options for c, the result to out, up to the "--". */
static void san_options(const char *q7run, const struct q7_call *c, const char *out,
                        struct q7_strvec *argv)
{
	struct q7_strbuf shape = {0};
	for (unsigned k = 0; k < c->dst.ndim; k++)
		q7_sb_addf(&shape, "%s%u", k ? "," : "", c->dst.sizes[k]);
	q7_sv_add(argv, q7run);
	q7_sv_add(argv, "--sanitize");
	if (c->check_uninit)
		q7_sv_add(argv, "--check-uninit");
	q7_sv_addf(argv, "--out-shape=%s", shape.s ? shape.s : "");
	q7_sb_free(&shape);
	q7_sv_addf(argv, "--out-dtype=%s", q7_dtype_to_name((enum q7_dtype)c->dst.dtype));
	q7_sv_add(argv, "-o");
	q7_sv_add(argv, out);
	q7_sv_add(argv, "--");
}

/* q7-run's result y into c's destination, described in r. 0, or 1 with
 * r failed. */
static int take_result(const struct q7_call *c, const struct npy_array *y,
                       struct q7_run_result *r)
{
	size_t bytes = y->numel * q7_dtype_size(y->dtype);
	if (y->dtype != (enum q7_dtype)c->dst.dtype || bytes > q7_tensor_span(&c->dst)) {
		q7_run_fail(r, "%s: the result does not fit the destination", c->op);
		return 1;
	}
	memcpy((void *)(uintptr_t)c->dst.data, y->data, bytes);
	memset(&r->out, 0, sizeof r->out);
	r->out.dtype = (uint32_t)y->dtype;
	r->out.ndim = y->ndim;
	memcpy(r->out.sizes, y->sizes, sizeof y->sizes);
	q7_run_set_contiguous(&r->out);
	r->out.data = c->dst.data;
	r->status = Q7_STATUS_OK;
	return 0;
}

int q7_san_call(const char *lib, const struct q7_call *c, const volatile sig_atomic_t *interrupted,
                struct q7_run_result *r)
{
	static unsigned calls;
	struct q7_strvec argv = {0}, files = {0};
	char *q7run = q7_prefix_path("bin/q7-run");
	char *stem = q7_xasprintf("%s/san-%ld-%u", q7_temp_dir(), (long)getpid(), ++calls);
	char *out = q7_xasprintf("%s-y.npy", stem), *err = NULL;
	struct npy_array y = {0};
	struct q7_err why = Q7_ERR_GROWING;
	int rc = 1;
	q7_target_proc_lock(); /* support/proc's and support/tempfile's tables */
	q7_sv_add(&files, out);
	if (c->dst.data == 0) {
		q7_run_fail(r, "%s: a sanitized call needs a destination", c->op);
		goto out;
	}
	san_options(q7run, c, out, &argv);
	q7_sv_add(&argv, lib);
	q7_sv_add(&argv, c->op);
	for (unsigned i = 0; i < c->nargs; i++)
		if (add_arg(&c->args[i], stem, i, &argv, &files, &why) != 0) {
			q7_run_fail(r, "%s: cannot write its arguments for q7-run --sanitize: %s", c->op,
			            q7_err_text(&why));
			goto out;
		}
	/* q7-run dies with this process, and with the caller's Ctrl-C */
	int code = q7_proc_capture_until(argv.v, 2, &err, interrupted);
	if (code == Q7_PROC_STOPPED) {
		q7_run_fail(r, "%s: interrupted (q7-run --sanitize stopped)", c->op);
		goto out;
	}
	if (code != 0) {
		report(err ? err : "", r);
		goto out;
	}
	if (err && *err)
		fputs(err, stderr); /* a warning */
	if (npy_read(out, &y, &why) != 0) {
		q7_run_fail(r, "%s: q7-run --sanitize left no result: %s", c->op, q7_err_text(&why));
		goto out;
	}
	rc = take_result(c, &y, r);
out:
	for (size_t i = 0; i < files.n; i++)
		unlink(files.v[i]);
	q7_target_proc_unlock();
	npy_free(&y);
	q7_err_free(&why);
	free(err);
	free(out);
	free(stem);
	free(q7run);
	q7_sv_free(&files);
	q7_sv_free(&argv);
	return rc;
}
