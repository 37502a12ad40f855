/* The emulated target's row (target.h): a gnu-profile image on an
 * emulated Xtensa core, one persistent session (emu_session.h) per
 * engine, the race check's one per core and per call (docs/runtime.md,
 * "The run engine"). */
#include "target.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "call_layout.h"
#include "emu_profile.h"
#include "emu_session.h"
#include "call_limits.h"
#include "result.h"

struct state {
	/* The session's: lib its own copy, images the engine's (which outlive
	 * the state), the process's settings (a forked child opens its own
	 * session with them). */
	struct q7_emu_config cfg;
	char *lib;
	size_t heap_size;
	struct q7_emu_session *emu;
	unsigned forks;       /* q7_fork_count in the process that opened it */
	bool race_check;      /* Q7CC_EMU_JOBS > 1: a session per core, per call */
	struct q7_prof *profile; /* q7_engine_profile: each call profiled into it */
	unsigned profile_parent;
};

static void emu_close(void *state, bool at_exit)
{
	struct state *s = state;
	(void)at_exit;
	if (s->emu) {
		q7_target_proc_lock();
		if (s->forks != q7_fork_count()) /* a forked child's copy of its parent's */
			q7_emu_disown(s->emu);
		else
			q7_emu_close(s->emu);
		q7_target_proc_unlock();
	}
	free(s->lib);
	free(s);
}

static int emu_open(struct q7_target_open *o, struct q7_err *err)
{
	for (size_t i = 0; i < o->images->n; i++)
		if (!q7_path_exists(o->images->v[i])) {
			q7_err_set(err, NULL, "%s: cannot read: %s",
			           o->images->v[i], strerror(ENOENT));
			return -1;
		}
	struct state *s = q7_xcalloc(1, sizeof *s);
	s->lib = q7_xstrdup(o->lib);
	q7_emu_config_init(&s->cfg, s->lib, (unsigned)o->images->n);
	s->cfg.images = (const char *const *)o->images->v;
	s->cfg.timeout_s = o->opts->timeout_s;
	s->cfg.forward_signals = o->opts->forward_signals;
	s->cfg.interrupted = o->opts->interrupted;
	s->cfg.unchecked = q7_run_unchecked(o->opts->unchecked);
	s->heap_size = o->opts->heap_size;
	const char *jobs = getenv("Q7CC_EMU_JOBS");
	s->race_check = s->cfg.cores > 1 && jobs && strtoul(jobs, NULL, 10) > 1;
	s->forks = q7_fork_count();
	if (!s->race_check) {
		q7_target_proc_lock();
		int rc = q7_emu_open(&s->cfg, &s->emu, err);
		q7_target_proc_unlock();
		if (rc != 0) {
			emu_close(s, false);
			return -1;
		}
	}
	o->state = s;
	o->apart = true;
	return 0;
}

/* A forked child (a DataLoader worker, multiprocessing's fork) has a copy
 * of its parent's session, whose QEMU socket talking to would garble both:
 * it lets go of that copy (the parent's QEMU and files untouched) and
 * starts a core of its own, on its first call, with the parent's settings
 * (Q7CC_UNCHECKED's too). 0, or 1 with r failed. */
static int fork_session(struct state *s, struct q7_run_result *r)
{
	q7_emu_disown(s->emu);
	s->emu = NULL;
	s->forks = q7_fork_count();
	memset(r, 0, sizeof *r);
	if (q7_emu_open(&s->cfg, &s->emu, &Q7_ERR_OF(r->message)) == 0)
		return 0;
	r->status = -1;
	return 1;
}

/* A call of the state's session (or, for the race check,
 * q7_run_emulated's session per core, or while profiling a QEMU of its
 * own), with the engine's settings where the call leaves them 0. The
 * destination's bytes come back into the caller's buffer; the result's
 * copy is then dropped. */
static int emu_call(void *state, const struct q7_call *c, unsigned cores,
                    struct q7_run_result *r)
{
	struct state *s = state;
	if (c->nargs > Q7_MAX_ARGS) {
		memset(r, 0, sizeof *r);
		q7_run_fail(r, "%s: %u arguments, at most %d", c->op, c->nargs, Q7_MAX_ARGS);
		return 1;
	}
	struct q7_call req = *c;
	req.cores = cores;
	if (!req.timeout_s)
		req.timeout_s = s->cfg.timeout_s;
	if (!c->op[0] && req.timeout_s > 0 && req.timeout_s < Q7_LIST_TIMEOUT_MIN_S)
		req.timeout_s = Q7_LIST_TIMEOUT_MIN_S; /* the op list (engine.c) */
	if (!req.heap_size)
		req.heap_size = s->heap_size;
	int rc;
	if (s->profile) {
		q7_target_proc_lock();
		rc = q7_prof_emulated(s->lib, s->cfg.images, &req, s->profile, s->profile_parent, r);
		q7_target_proc_unlock();
	} else if (s->race_check) {
		rc = q7_run_emulated(s->lib, s->cfg.images, &req, r);
	} else {
		q7_target_proc_lock();
		rc = s->forks == q7_fork_count() ? 0 : fork_session(s, r);
		if (rc == 0)
			rc = q7_emu_call(s->emu, &req, r);
		q7_target_proc_unlock();
	}
	if (rc != 0 || c->dst.data == 0)
		return rc;
	/* Written back into dst by the target, which the runtime made the
	 * result (a returned tensor copied in, or the destination rule). */
	if (r->out.dtype != c->dst.dtype || r->out_bytes > q7_tensor_span(&c->dst)) {
		q7_run_result_free(r);
		q7_run_fail(r, "%s: the result does not fit the destination", c->op);
		return 1;
	}
	free(r->out_data);
	r->out_data = NULL;
	r->out.data = c->dst.data;
	return 0;
}

static void emu_profile(void *state, struct q7_prof *p, unsigned parent)
{
	struct state *s = state;
	s->profile = p;
	s->profile_parent = parent;
}

const struct q7_target q7_target_emulated = {
	.name = "emulated",
	.machine = EM_XTENSA,
	.profile = "gnu",
	.image = "an Xtensa device image",
	.build = "the device image (q7cc's gnu profile)",
	.can = Q7_TARGET_PROFILE,
	.open = emu_open,
	.call = emu_call,
	.profile_into = emu_profile,
	.close = emu_close,
};
