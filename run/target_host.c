/* The host target's row (target.h): a host-profile library's kernels on
 * this machine's CPU, in this process or in a process of their own
 * (host.h; enum q7_host_mode). */
#include "target.h"

#include <elf.h>
#include <stdlib.h>

#include "host.h"
#include "result.h"

#if defined(__x86_64__)
#define NATIVE EM_X86_64
#elif defined(__aarch64__)
#define NATIVE EM_AARCH64
#elif defined(__i386__)
#define NATIVE EM_386
#elif defined(__arm__)
#define NATIVE EM_ARM
#elif defined(__riscv)
#define NATIVE EM_RISCV
#else
#define NATIVE EM_NONE
#endif

struct state {
	struct q7_host *host;
	bool isolated; /* in processes of their own, started through support/proc */
};

static int host_open(struct q7_target_open *o, struct q7_err *err)
{
	struct state *s = q7_xcalloc(1, sizeof *s);
	s->isolated = o->opts->host_mode == Q7_HOST_ISOLATED ||
	              o->opts->host_mode == Q7_HOST_SANITIZED;
	struct q7_engine_opts ho = *o->opts;
	ho.unchecked = q7_run_unchecked(o->opts->unchecked);
	if (s->isolated)
		q7_target_proc_lock();
	int rc = q7_host_open(o->images, &ho, &s->host, err);
	if (s->isolated)
		q7_target_proc_unlock();
	if (rc != 0) {
		free(s);
		return -1;
	}
	o->state = s;
	o->apart = s->isolated;
	/* each sanitized call is a q7-run, which checks (--check-uninit) */
	o->checks_uninit = o->opts->host_mode == Q7_HOST_SANITIZED;
	return 0;
}

static int host_call(void *state, const struct q7_call *c, unsigned cores,
                     struct q7_run_result *r)
{
	struct state *s = state;
	(void)cores; /* the host runs every core it loaded; the op list only asks one */
	if (!s->isolated)
		return q7_host_call(s->host, c, r);
	q7_target_proc_lock();
	int rc = q7_host_call(s->host, c, r);
	q7_target_proc_unlock();
	return rc;
}

static void host_close(void *state, bool at_exit)
{
	struct state *s = state;
	if (s->isolated)
		q7_target_proc_lock();
	if (at_exit)
		q7_host_close_at_exit(s->host);
	else
		q7_host_close(s->host);
	if (s->isolated)
		q7_target_proc_unlock();
	free(s);
}

const struct q7_target q7_target_host = {
	.name = "host",
	.machine = NATIVE,
	.any_machine = true,
	.profile = "host",
	.image = "a host library",
	.build = "a host library (q7cc --q7-toolchain=host)",
	.can = Q7_TARGET_ISOLATE | Q7_TARGET_SANITIZE,
	.open = host_open,
	.call = host_call,
	.close = host_close,
};
