/* The host target's row (target.h): a host-profile library's kernels on
 * this machine's CPU, in this process or in a process of their own
 * (host.h; enum q7_host_mode). */
#include "target.h"

#include "host.h"
#include "host_elf.h"
#include "result.h"

/* The isolated and sanitized modes take the process-wide lock
 * (q7_target_proc_lock) around what they start themselves. */
static int host_open(struct q7_target_open *o, struct q7_err *err)
{
	struct q7_engine_opts ho = *o->opts;
	struct q7_host *h;
	ho.unchecked = q7_run_unchecked(o->opts->unchecked);
	if (q7_host_open(o->images, &ho, &h, err) != 0)
		return -1;
	o->state = h;
	o->apart = ho.host_mode == Q7_HOST_ISOLATED || ho.host_mode == Q7_HOST_SANITIZED;
	/* each sanitized call is a q7-run, which checks (--check-uninit) */
	o->checks_uninit = ho.host_mode == Q7_HOST_SANITIZED;
	return 0;
}

static int host_call(void *state, const struct q7_call *c, unsigned cores,
                     struct q7_run_result *r)
{
	(void)cores; /* the host runs every core it loaded; the op list only asks one */
	return q7_host_call(state, c, r);
}

static void host_close(void *state, bool at_exit)
{
	if (at_exit)
		q7_host_close_at_exit(state);
	else
		q7_host_close(state);
}

const struct q7_target q7_target_host = {
	.name = "host",
	.machine = Q7_HOST_MACHINE,
	.any_machine = true,
	.profile = "host",
	.image = "a host library",
	.build = "a host library (q7cc --q7-toolchain=host)",
	.can = Q7_TARGET_ISOLATE | Q7_TARGET_SANITIZE,
	.open = host_open,
	.call = host_call,
	.close = host_close,
};
