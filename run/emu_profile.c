/* emu_profile.h */
#include "emu_profile.h"

#include <string.h>

#include "emu_launch.h"
#include "engine.h"
#include "prelink.h"
#include "support.h"

/* A profiled call runs QEMU many times slower: the default time-out
 * grows with it (an explicit one stays as given). */
#define PROFILE_TIMEOUT_S 1200.0

/* The per-core images' symbols, placed where the session put them, and
 * the boot program's. 0; else r's message says why. */
static int load_cores(const struct q7_emu_session *s, struct q7_trace_core *tc,
                      struct q7_syms *boot, struct q7_run_result *r)
{
	struct q7_err err = Q7_ERR_OF(r->message);
	for (unsigned i = 0; i < s->cores; i++) {
		const struct q7_pl_header *h = &s->hdr[i];
		tc[i] = (struct q7_trace_core){.index = i, .entry = h->entry, .lo = h->base,
		                               .hi = h->base + h->load_size + h->bss_size};
		if (q7_syms_load(s->linked.v[i], h->base - h->link_base, &tc[i].syms, &err) != 0)
			return -1;
	}
	return q7_syms_load(s->boot, 0, boot, &err);
}

int q7_prof_emulated(const char *lib, const char *const *images, const struct q7_call *req,
                     struct q7_prof *p, unsigned parent, struct q7_run_result *r)
{
	struct q7_emu_config cfg;
	q7_emu_config_init(&cfg, lib, req->cores ? req->cores : 1);
	cfg.images = images;
	cfg.timeout_s = req->timeout_s > 0 ? req->timeout_s : PROFILE_TIMEOUT_S;
	cfg.icount = false; /* the log counts; -icount would only slow it */
	cfg.trace = true;
	struct q7_trace_core tc[Q7_NUM_CORES] = {0};
	struct q7_syms boot = {0};
	struct q7_emu_session *s = NULL;
	memset(r, 0, sizeof *r);
	if (q7_emu_open(&cfg, &s, &Q7_ERR_OF(r->message)) != 0) {
		r->status = -1;
		return 1;
	}
	struct q7_run_result res;
	int rc = q7_emu_call(s, req, &res);
	q7_emu_stop_qemu(s, NULL); /* QEMU exits: its log is whole */
	if (rc == 0 && (load_cores(s, tc, &boot, r) != 0 ||
	                q7_trace_profile(s->trace_log, tc, cfg.cores, &boot, p, parent,
	                                 &Q7_ERR_OF(r->message)) != 0)) {
		r->status = -1;
		q7_run_result_free(&res);
		rc = 1;
	} else {
		*r = res;
	}
	q7_emu_close(s);
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		q7_syms_free(&tc[i].syms);
	q7_syms_free(&boot);
	return rc;
}
