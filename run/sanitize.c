/* q7-run --sanitize (sanitize.h). */
#include "sanitize.h"
#include "host_elf.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STARTED "Q7CC_SANITIZED" /* set in the q7-run started with the runtimes */

bool q7_sanitize_started(void)
{
	const char *v = getenv(STARTED);
	return v && strcmp(v, "1") == 0;
}

/* name=first:old, or name=first when there is no old value. */
static void prepend_env(const char *name, const char *first)
{
	const char *old = getenv(name);
	char *v = old && *old ? q7_xasprintf("%s:%s", first, old) : q7_xstrdup(first);
	setenv(name, v, 1);
	free(v);
}

/* This process's own argv, whose tail q7_run_main has (q7cc may have
 * taken a subcommand before it), from /proc/self/cmdline. */
static int own_argv(struct q7_strvec *out)
{
	size_t len = 0;
	char *b = q7_read_file("/proc/self/cmdline", &len);
	if (!b)
		return -1;
	for (size_t at = 0; at < len; at += strlen(b + at) + 1)
		q7_sv_add(out, b + at);
	free(b);
	return 0;
}

int q7_sanitize_exec(const struct q7_strvec *images, int argc, struct q7_err *err)
{
	struct q7_strvec rt = {0}, args = {0};
	int rc = -1;
	for (size_t i = 0; i < images->n; i++) {
		struct q7_strvec mine = {0};
		if (q7_host_elf_sanitizers(images->v[i], &mine, err) != 0)
			goto out;
		if (mine.n == 0) {
			q7_err_set(err, NULL, "%s: not built with the sanitizers: build it with "
			           "-fsanitize=address,undefined (q7cc hands them to the host compiler), then "
			           "--sanitize runs it with their runtimes", images->v[i]);
			goto out;
		}
		for (size_t k = 0; k < mine.n; k++)
			if (!q7_sv_has(&rt, mine.v[k]))
				q7_sv_add(&rt, mine.v[k]);
		q7_sv_free(&mine);
	}
	if (own_argv(&args) != 0 || args.n < (size_t)argc) {
		q7_err_set(err, NULL, "cannot read this process's arguments: %s", strerror(errno));
		goto out;
	}
	/* The same command, with --in-process after q7-run's own name. */
	struct q7_strvec again = {0};
	for (size_t i = 0; i < args.n; i++) {
		q7_sv_add(&again, args.v[i]);
		if (i == args.n - (size_t)argc)
			q7_sv_add(&again, "--in-process");
	}
	struct q7_strbuf preload = {0};
	for (size_t i = 0; i < rt.n; i++)
		q7_sb_addf(&preload, "%s%s", i ? ":" : "", rt.v[i]);
	prepend_env("LD_PRELOAD", preload.s);
	q7_sb_free(&preload);
	prepend_env("ASAN_OPTIONS", "detect_leaks=0");
	prepend_env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1");
	setenv(STARTED, "1", 1);
	fflush(NULL);
	execv("/proc/self/exe", again.v);
	q7_err_set(err, NULL, "cannot start q7-run again with the sanitizers: %s", strerror(errno));
	q7_sv_free(&again);
out:
	q7_sv_free(&rt);
	q7_sv_free(&args);
	return rc;
}

static char op_line[256];

static void said_op(void)
{
	ssize_t w = write(2, op_line, strlen(op_line));
	(void)w;
}

void q7_sanitize_name_op(const char *op)
{
	snprintf(op_line, sizeof op_line,
	         "%s: error: %s: a sanitizer stopped the kernel (its report is above)\n", q7_progname(),
	         op);
	/* The sanitizers' common interface: each runtime preloaded (ASan's,
	 * UBSan's standalone one) has its own copy, and dies by its own. */
	const char *pre = getenv("LD_PRELOAD");
	char *list = q7_xstrdup(pre ? pre : ""), *save = NULL;
	for (char *name = strtok_r(list, ": ", &save); name; name = strtok_r(NULL, ": ", &save)) {
		void *h = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
		void (*set_death)(void (*)(void));
		*(void **)&set_death = h ? dlsym(h, "__sanitizer_set_death_callback") : NULL;
		if (set_death)
			set_death(said_op);
		if (h)
			dlclose(h);
	}
	free(list);
}
