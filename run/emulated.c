/* q7_run_emulated: runs an op of a gnu-profile device image on an emulated
 * Xtensa core, for q7-run: one emulated session (emu_session.h) opened,
 * called once, closed; the cores chained in one QEMU, or with
 * Q7CC_EMU_JOBS=N one session per core (the race check): docs/emulated.md,
 * "q7-run --target=emulated".
 *
 * Memory: everything here is freed before return, except result->out_data
 * (the caller's, see engine.h). */
#include "bytes.h"
#include "call_limits.h"
#include "emu_launch.h"
#include "emu_session.h"
#include "run_image.h"
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "q7/boot.h"
#include "proc.h"
#include "support.h"

/* Every core's changes to the tensor data (what each session handed
 * back), merged into data. Two cores changing one byte to different
 * values is a race (SPMD cores do not synchronise), reported rather than
 * resolved. */
static int merge_data(unsigned char *data, size_t size, struct q7_emu_session *const *ss,
                      unsigned n, struct q7_run_result *r)
{
	unsigned char *merged = q7_xmalloc(size ? size : 1);
	unsigned char *owner = q7_xmalloc(size ? size : 1);
	memcpy(merged, data, size);
	memset(owner, 0xff, size);
	int rc = 0;
	for (unsigned i = 0; i < n && rc == 0; i++) {
		const unsigned char *d = ss[i]->data;
		for (size_t k = 0; k < size; k++) {
			if (d[k] == data[k])
				continue;
			if (owner[k] != 0xff && merged[k] != d[k]) {
				q7_run_fail(r, "cores %u and %u both wrote byte %zu of the tensor data, "
				            "differently: a race between SPMD cores (Q7CC_EMU_JOBS=1 runs them "
				            "one after another)", owner[k], i, k);
				rc = -1;
				break;
			}
			merged[k] = d[k];
			owner[k] = (unsigned char)i;
		}
	}
	free(owner);
	if (rc == 0)
		memcpy(data, merged, size);
	free(merged);
	return rc;
}

/* The race check: a session per core, jobs of them booting at once, all
 * from the same tensor data; the changes merged, the result the last
 * core's. The time-out bounds all cores together. */
static int run_parallel(const struct q7_emu_config *cfg, const struct q7_call *req,
                        unsigned jobs, struct q7_run_result *r)
{
	unsigned cores = cfg->cores;
	struct q7_emu_session *ss[Q7_NUM_CORES] = {0};
	unsigned char *sent = NULL;
	size_t sent_size = 0;
	struct q7_call wave_req = *req;
	double budget = req->timeout_s > 0 ? req->timeout_s : Q7_DEFAULT_TIMEOUT_S;
	int rc = -1;
	for (unsigned start = 0; start < cores; start += jobs) {
		unsigned end = start + jobs < cores ? start + jobs : cores;
		double t0 = q7_now_s();
		wave_req.timeout_s = budget;
		/* Every QEMU of the wave first, so that they boot together. */
		for (unsigned i = start; i < end; i++) {
			if (q7_emu_open(cfg, &ss[i], &Q7_ERR_OF(r->message)) != 0) {
				r->status = -1;
				goto out;
			}
		}
		for (unsigned i = start; i < end; i++)
			if (q7_emu_send(ss[i], &wave_req, (int)i, r) != 0)
				goto out;
		/* What each left stays in its session until the sessions close. */
		for (unsigned i = start; i < end; i++) {
			if (q7_emu_receive(ss[i], r) != 0)
				goto out;
			if (!sent)
				sent = q7_emu_sent_data(ss[i], &sent_size);
			if (ss[i]->c.frame.switched_stack)
				r->switched_stack = 1;
		}
		budget -= q7_now_s() - t0;
	}
	if (merge_data(sent, sent_size, ss, cores, r) != 0)
		goto out;
	const struct q7_emu_session *last = ss[cores - 1];
	if (q7_emu_take_output(last, sent, r) != 0)
		goto out;
	if (req->dst.data) /* the merged dst, as the host target leaves it */
		memcpy((void *)(uintptr_t)req->dst.data,
		       sent + (last->c.frame.dst.data - Q7_BOOT_DATA_AREA), q7_tensor_span(&req->dst));
	rc = 0;
out:
	for (unsigned i = 0; i < cores; i++)
		q7_emu_close(ss[i]);
	free(sent);
	return rc;
}

int q7_run_emulated(const char *lib, const char *const *images, const struct q7_call *req,
                    struct q7_run_result *r)
{
	memset(r, 0, sizeof *r);
	struct q7_emu_config cfg;
	q7_emu_config_init(&cfg, lib, req->cores ? req->cores : 1);
	cfg.images = images;
	cfg.timeout_s = req->timeout_s;
	const char *env = getenv("Q7CC_EMU_JOBS");
	unsigned jobs = env && *env ? (unsigned)strtoul(env, NULL, 10) : 1;
	if (cfg.cores > Q7_NUM_CORES) {
		q7_run_fail(r, "%u cores asked, at most %u", cfg.cores, Q7_NUM_CORES);
		return 1;
	}
	if (cfg.cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", cfg.cores);
		return 1;
	}
	bool race_check = jobs > 1 && cfg.cores > 1;
	/* The race check's sessions share one reading of lib (a single
	 * session reads it as it opens). */
	struct q7_strvec paths = {0};
	struct q7_err why = Q7_ERR_GROWING;
	if (race_check && !images) {
		if (q7_run_images(lib, cfg.cores, &paths, &why) < 0) {
			q7_run_fail(r, "%s", why.msg);
			q7_err_free(&why);
			return 1;
		}
		cfg.images = (const char *const *)paths.v;
	}
	q7_proc_signals_install();
	int rc = 1;
	struct q7_emu_session *s = NULL;
	if (race_check && run_parallel(&cfg, req, jobs, r) == 0) {
		r->status = Q7_STATUS_OK;
		rc = 0;
	} else if (!race_check && q7_emu_open(&cfg, &s, &Q7_ERR_OF(r->message)) == 0) {
		rc = q7_emu_call(s, req, r);
		q7_emu_close(s);
	} else if (!race_check) {
		r->status = -1;
	}
	q7_proc_signals_restore();
	q7_sv_free(&paths);
	return rc;
}
