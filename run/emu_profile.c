/* emu_profile.h */
#include "emu_profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_launch.h"
#include "engine.h"
#include "prelink.h"
#include "result.h"
#include "support.h"
#include "tempfile.h"

/* A profiled call runs QEMU many times slower: the default time-out
 * grows with it (an explicit one stays as given). */
#define PROFILE_TIMEOUT_S 1200.0

/* The per-core images' symbols, placed where the session put them, and
 * the boot program's. 0, or -1 after q7_run_fail(). */
static int load_cores(const struct q7_emu_session *s, struct q7_trace_core *tc,
                      struct q7_syms *boot, struct q7_run_result *r)
{
	char err[Q7_MESSAGE_SIZE];
	for (unsigned i = 0; i < s->cores; i++) {
		const struct q7_pl_header *h = &s->hdr[i];
		tc[i].index = i;
		tc[i].entry = h->entry;
		tc[i].lo = h->base;
		tc[i].hi = h->base + h->load_size + h->bss_size;
		if (q7_syms_load(s->linked.v[i], h->base - h->link_base, &tc[i].syms,
		                 &Q7_ERR_OF(err)) != 0) {
			q7_run_fail(r, "%s", err);
			return -1;
		}
	}
	if (q7_syms_load(s->boot, 0, boot, &Q7_ERR_OF(err)) != 0) {
		q7_run_fail(r, "%s", err);
		return -1;
	}
	return 0;
}

int q7_prof_emulated(const char *lib, const char *const *images, const struct q7_call *req,
                     struct q7_prof *p, unsigned parent, struct q7_trace_stats *st,
                     struct q7_run_result *r)
{
	memset(r, 0, sizeof *r);
	struct q7_trace_stats dummy;
	if (!st)
		st = &dummy;
	struct q7_emu_config cfg;
	q7_emu_config_init(&cfg, lib, req->cores ? req->cores : 1);
	cfg.images = images;
	cfg.timeout_s = req->timeout_s > 0 ? req->timeout_s : PROFILE_TIMEOUT_S;
	cfg.icount = false; /* the log counts; -icount would only slow it */
	const char *tmp = q7_temp_dir();
	if (!tmp) {
		q7_run_fail(r, "cannot create a temporary directory: %s", strerror(errno));
		return 1;
	}
	char *log = q7_xasprintf("%s/trace-XXXXXX", tmp);
	int fd = mkstemp(log);
	if (fd < 0) {
		q7_run_fail(r, "%s: cannot create: %s", log, strerror(errno));
		free(log);
		return 1;
	}
	close(fd);
	q7_temp_register(log);
	cfg.trace_log = log;
	struct q7_trace_core tc[Q7_NUM_CORES];
	memset(tc, 0, sizeof tc);
	struct q7_syms boot = {0};
	struct q7_emu_session *s = NULL;
	int rc = 1;
	if (q7_emu_open(&cfg, &s, r) != 0)
		goto out;
	struct q7_run_result res;
	int called = q7_emu_call(s, req, &res);
	int loaded = load_cores(s, tc, &boot, called == 0 ? r : &(struct q7_run_result){0});
	q7_emu_close(s); /* QEMU exits: its log is whole */
	if (called != 0) {
		*r = res;
		goto out;
	}
	if (loaded != 0) {
		q7_run_result_free(&res);
		goto out;
	}
	char err[Q7_MESSAGE_SIZE];
	if (q7_trace_profile(log, tc, cfg.cores, &boot, p, parent, st, &Q7_ERR_OF(err)) != 0) {
		q7_run_result_free(&res);
		q7_run_fail(r, "%s", err);
		goto out;
	}
	*r = res;
	rc = 0;
out:
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		q7_syms_free(&tc[i].syms);
	q7_syms_free(&boot);
	if (!q7_save_temps()) {
		unlink(log);
		q7_temp_forget(log);
	}
	free(log);
	return rc;
}
