/* The helpers every mode uses: showing steps under -### and -v, and the
 * options analysis runs with. */
#include "modes.h"
#include "proc.h"
#include "schema.h"
#include "tempfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void show(const struct q7_drv *d, char *const *argv)
{
	if (d->dry || d->verbose) {
		char *line = q7_shell_join(argv);
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
		free(line);
	}
}

pid_t q7_step_start(const struct q7_drv *d, char *const *argv, const struct q7_proc_opts *o)
{
	show(d, argv);
	if (d->dry)
		return 0;
	pid_t pid = q7_proc_spawn(argv, o);
	return pid < 0 ? -1 : pid;
}

int q7_step_wait(pid_t pid)
{
	if (pid == 0)
		return 0;
	q7_temp_sweep(); /* beside the tool, off the critical path */
	return pid < 0 ? Q7_EXIT_TOOL : q7_proc_wait(pid, NULL);
}

int q7_step_run(const struct q7_drv *d, char *const *argv, const struct q7_proc_opts *o)
{
	return q7_step_wait(q7_step_start(d, argv, o));
}

int q7_step_query(const struct q7_drv *d, char *const *argv, int fd, char **out)
{
	show(d, argv);
	*out = NULL;
	if (d->dry)
		return 0;
	return q7_proc_capture(argv, fd, out);
}

bool q7_step_do(const struct q7_drv *d, const char *fmt, ...)
{
	if (!d->dry && !d->verbose)
		return true;
	struct q7_strbuf note = {0}, b = {0};
	va_list ap;
	va_start(ap, fmt);
	q7_sb_vaddf(&note, fmt, ap);
	va_end(ap);
	/* Names and schemas may come from a trailer or a record. */
	q7_sb_add(&b, "# q7cc: ");
	q7_sb_add_shown(&b, note.s, false);
	fprintf(stderr, "%s\n", b.s);
	fflush(stderr);
	q7_sb_free(&note);
	q7_sb_free(&b);
	return !d->dry;
}

void q7_step_note_op(const struct q7_drv *d, const char *what, const struct q7_op *op)
{
	if (!d->dry && !d->verbose)
		return;
	struct q7_strbuf b = {0};
	q7_schema_print(op, NULL, &b);
	q7_step_note(d, "%s %s", what, b.s);
	q7_sb_free(&b);
}

char *q7_drv_temp_path(const struct q7_drv *d, const char *name)
{
	if (d->dry) {
		const char *t = getenv("TMPDIR");
		return q7_xasprintf("%s/q7cc.XXXXXX/%s", t && *t ? t : "/tmp", name);
	}
	char *p = q7_path_join(q7_temp_dir(), name);
	q7_temp_register(p);
	return p;
}

void q7_drv_analysis_opts(struct q7_drv *d, const char *src, struct q7_strvec *args,
                          struct q7_analysis_opts *o)
{
	q7_cmd_analysis_args(&d->tc, &d->inv, args);
	*o = (struct q7_analysis_opts){
		.source = src, .clang_args = args->v, .triple = d->tc.triple, .toolchain = d->tc.name,
		.kernel_names = d->inv.kernels.n ? d->inv.kernels.v : NULL,
		.multicore = d->inv.multicore,
	};
}

void q7_drv_sysinfo(struct q7_drv *d, struct q7_analysis_opts *o)
{
	if (!d->have_sysinfo && d->tc.found) {
		q7_sysinfo_get(d, &d->tc, &d->sys);
	} else if (!d->have_sysinfo) {
		/* --q7-lint for xt without the vendor tools: the free cross
		 * compiler has the same data model and freestanding headers. */
		struct q7_toolchain gnu;
		if (q7_toolchain_select(&gnu, "gnu", NULL) == 0 && gnu.found)
			q7_sysinfo_get(d, &gnu, &d->sys);
		q7_toolchain_free(&gnu);
	}
	d->have_sysinfo = true;
	o->sys_includes = d->sys.includes.v;
	o->predefines = d->sys.predefines.v;
}
