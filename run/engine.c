/* The run engine (engine.h): one opened library, its targets' backends
 * behind one call, the op list, and the lock that makes calls from
 * several threads take turns.
 *
 * The emulated target keeps one persistent session (emu_session.h) per
 * engine: QEMU boots once and every call after the first takes
 * milliseconds; the isolated host mode keeps one worker process
 * (host_iso.h). Both use support/proc's table of children (and sessions
 * support/tempfile's list), which are not thread-safe, so every session
 * or worker operation of every engine takes one process-wide lock. The
 * race check (Q7CC_EMU_JOBS=N with several cores) keeps
 * q7_run_emulated's one session per core and per call.
 *
 * The op list comes from the library itself, on either target, through
 * the runtime's list request (an empty op name: one "name<TAB>schema" line
 * per op written into the destination), so an emulated image is listed
 * the same way as a host library. */
#include "engine.h"
#include "emu_profile.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_session.h"
#include "emu_session_int.h"
#include "host.h"
#include "image.h"
#include "npy.h"
#include "result.h"
#include "support.h"

#define LIST_BYTES 65535u /* the op list's room: one 1-D uint8 tensor */

struct q7_engine {
	bool emulated;
	bool isolated;        /* the host target in its own process */
	char *lib;
	struct q7_strvec images; /* lib's, one per core */
	unsigned cores;
	size_t heap_size;
	double timeout_s;
	struct q7_host *host; /* the host target's images */
	struct q7_emu_session *emu; /* the emulated target's session */
	pid_t pid;            /* the process that opened it */
	bool race_check;      /* Q7CC_EMU_JOBS > 1: a session per core, per call */
	bool forward_signals; /* the emulated session's (a forked child opens its own) */
	const volatile sig_atomic_t *interrupted; /* likewise */
	struct q7_prof *profile; /* q7_engine_profile: each call profiled into it */
	unsigned profile_parent;
	pthread_mutex_t lock;
	int nops;             /* -1 until listed */
	char *list;           /* the op list's text, which names and schemas point into */
	char **names, **schemas;
};

/* Every session and worker operation, of every engine. */
static pthread_mutex_t proc_lock = PTHREAD_MUTEX_INITIALIZER;

static int fail(char *err, size_t n, const char *fmt, ...) Q7_PRINTF(3, 4);
static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_err_vset(&(struct q7_err){err, n}, NULL, fmt, ap);
	va_end(ap);
	return -1;
}

int q7_engine_open(const char *lib, const struct q7_engine_opts *o, struct q7_engine **out,
                   char *err, size_t n)
{
	struct q7_engine_opts dflt = {0};
	struct q7_strvec paths = {0};
	struct q7_engine *e = NULL;
	char *why = NULL;
	int rc = -1;
	*out = NULL;
	if (!o)
		o = &dflt;
	if (o->target && strcmp(o->target, "host") != 0 && strcmp(o->target, "emulated") != 0) {
		fail(err, n, "target '%s': expected host or emulated", o->target);
		goto out;
	}
	if (o->cores > Q7_NUM_CORES) {
		fail(err, n, "%u cores asked, at most %d", o->cores, Q7_NUM_CORES);
		goto out;
	}
	bool emulated = o->target && strcmp(o->target, "emulated") == 0;
	if (o->images && o->cores) {
		for (unsigned i = 0; i < o->cores; i++)
			q7_sv_add(&paths, o->images[i]);
	} else if (q7_run_images(lib, o->cores, &paths, &why) < 0) {
		fail(err, n, "%s", why);
		goto out;
	}
	unsigned cores = (unsigned)paths.n;
	if (q7_run_check_images(&paths, emulated, &why) != 0) {
		fail(err, n, "%s", why);
		goto out;
	}
	e = q7_xcalloc(1, sizeof *e);
	e->emulated = emulated;
	e->lib = q7_xstrdup(lib);
	e->images = paths;
	paths = (struct q7_strvec){0};
	e->cores = cores;
	e->heap_size = o->heap_size;
	e->timeout_s = o->timeout_s;
	e->nops = -1;
	pthread_mutex_init(&e->lock, NULL);
	if (!e->emulated) {
		/* in processes of their own, started through support/proc */
		e->isolated = o->host_mode == Q7_HOST_ISOLATED || o->host_mode == Q7_HOST_SANITIZED;
		struct q7_engine_opts ho = *o;
		ho.unchecked = q7_run_unchecked(o->unchecked);
		if (e->isolated)
			pthread_mutex_lock(&proc_lock);
		int rc_open = q7_host_open(&e->images, &ho, &e->host, err, n);
		if (e->isolated)
			pthread_mutex_unlock(&proc_lock);
		if (rc_open != 0)
			goto out;
	} else {
		for (size_t i = 0; i < e->images.n; i++)
			if (!q7_path_exists(e->images.v[i])) {
				fail(err, n, "%s: cannot read: %s", e->images.v[i], strerror(ENOENT));
				goto out;
			}
		const char *jobs = getenv("Q7CC_EMU_JOBS");
		e->race_check = cores > 1 && jobs && strtoul(jobs, NULL, 10) > 1;
		e->pid = getpid();
		if (!e->race_check) {
			struct q7_emu_config cfg;
			struct q7_run_result refused;
			q7_emu_config_init(&cfg, lib, cores);
			cfg.images = (const char *const *)e->images.v;
			cfg.timeout_s = o->timeout_s;
			cfg.forward_signals = o->forward_signals;
			cfg.unchecked = q7_run_unchecked(o->unchecked);
			e->forward_signals = o->forward_signals;
			cfg.interrupted = e->interrupted = o->interrupted;
			pthread_mutex_lock(&proc_lock);
			int rc_open = q7_emu_open(&cfg, &e->emu, &refused);
			pthread_mutex_unlock(&proc_lock);
			if (rc_open != 0) {
				fail(err, n, "%s", refused.message);
				goto out;
			}
		}
	}
	*out = e;
	e = NULL;
	rc = 0;
out:
	q7_engine_close(e);
	q7_sv_free(&paths);
	free(why);
	return rc;
}

static void engine_close(struct q7_engine *e, bool at_exit)
{
	if (!e)
		return;
	if (e->host) {
		if (e->isolated)
			pthread_mutex_lock(&proc_lock);
		if (at_exit)
			q7_host_close_at_exit(e->host);
		else
			q7_host_close(e->host);
		if (e->isolated)
			pthread_mutex_unlock(&proc_lock);
	}
	if (e->emu) {
		pthread_mutex_lock(&proc_lock);
		if (e->pid != getpid()) /* a forked child's copy of its parent's */
			q7_emu_disown(e->emu);
		else
			q7_emu_close(e->emu);
		pthread_mutex_unlock(&proc_lock);
	}
	pthread_mutex_destroy(&e->lock);
	free(e->names);
	free(e->schemas);
	free(e->list);
	free(e->lib);
	q7_sv_free(&e->images);
	free(e);
}

void q7_engine_close(struct q7_engine *e) { engine_close(e, false); }

void q7_engine_close_at_exit(struct q7_engine *e) { engine_close(e, true); }

unsigned q7_engine_cores(const struct q7_engine *e) { return e->cores; }

void q7_engine_profile(struct q7_engine *e, struct q7_prof *p, unsigned parent)
{
	e->profile = p;
	e->profile_parent = parent;
}

const char *q7_engine_target(const struct q7_engine *e) { return e->emulated ? "emulated" : "host"; }

/* A forked child (a DataLoader worker, multiprocessing's fork) has a copy
 * of its parent's session, whose QEMU socket talking to would garble both:
 * it lets go of that copy (the parent's QEMU and files untouched) and
 * starts a core of its own, on its first call. 0, or 1 with r failed. */
static int fork_session(struct q7_engine *e, struct q7_run_result *r)
{
	q7_emu_disown(e->emu);
	e->emu = NULL;
	e->pid = getpid();
	struct q7_emu_config cfg;
	q7_emu_config_init(&cfg, e->lib, e->cores);
	cfg.images = (const char *const *)e->images.v;
	cfg.timeout_s = e->timeout_s;
	cfg.forward_signals = e->forward_signals;
	cfg.interrupted = e->interrupted;
	return q7_emu_open(&cfg, &e->emu, r) != 0 ? 1 : 0;
}

/* The emulated target: a call of the engine's session (or, for the race
 * check, q7_run_emulated's session per core), with the engine's settings
 * where the call leaves them 0. The destination's bytes come back into
 * the caller's buffer; the result's copy is then dropped. */
static int call_emulated(struct q7_engine *e, const struct q7_call *c, unsigned cores,
                         struct q7_run_result *r)
{
	if (c->nargs > Q7_MAX_ARGS) {
		memset(r, 0, sizeof *r);
		q7_run_fail(r, "%s: %u arguments, at most %d", c->op, c->nargs, Q7_MAX_ARGS);
		return 1;
	}
	struct q7_call req = *c;
	req.cores = cores;
	if (!req.timeout_s)
		req.timeout_s = e->timeout_s;
	if (!req.heap_size)
		req.heap_size = e->heap_size;
	int rc;
	if (e->profile) {
		pthread_mutex_lock(&proc_lock);
		rc = q7_prof_emulated(e->lib, (const char *const *)e->images.v, &req, e->profile,
		                      e->profile_parent, NULL, r);
		pthread_mutex_unlock(&proc_lock);
	} else if (e->race_check) {
		rc = q7_run_emulated(e->lib, (const char *const *)e->images.v, &req, r);
	} else {
		pthread_mutex_lock(&proc_lock);
		rc = e->pid == getpid() ? 0 : fork_session(e, r);
		if (rc == 0)
			rc = q7_emu_call(e->emu, &req, r);
		pthread_mutex_unlock(&proc_lock);
	}
	if (rc != 0 || c->dst.data == 0)
		return rc;
	/* Written back into dst by the target, which the runtime made the
	 * result (a returned tensor copied in, or the destination rule). */
	if (r->out.dtype != c->dst.dtype || r->out_bytes > q7_emu_desc_bytes(&c->dst)) {
		q7_run_result_free(r);
		q7_run_fail(r, "%s: the result does not fit the destination", c->op);
		return 1;
	}
	free(r->out_data);
	r->out_data = NULL;
	r->out.data = c->dst.data;
	return 0;
}

static int call_locked(struct q7_engine *e, const struct q7_call *c, unsigned cores,
                       struct q7_run_result *r)
{
	if (e->emulated)
		return call_emulated(e, c, cores, r);
	if (!e->isolated)
		return q7_host_call(e->host, c, r);
	pthread_mutex_lock(&proc_lock);
	int rc = q7_host_call(e->host, c, r);
	pthread_mutex_unlock(&proc_lock);
	return rc;
}

/* A kernel that changed its input: the message again, with the
 * argument's name from the op's schema (the op list, read once). */
static void name_changed_arg(struct q7_engine *e, const struct q7_call *c, struct q7_run_result *r)
{
	char err[Q7_MESSAGE_SIZE], arg[128];
	snprintf(arg, sizeof arg, "argument %u", r->changed_arg);
	if (q7_engine_list(e, err, sizeof err) > 0) {
		size_t oplen = strlen(c->op);
		for (int i = 0; i < e->nops; i++) {
			const char *sc = e->schemas[i];
			if (strcmp(e->names[i], c->op) == 0 ||
			    (strncmp(sc, c->op, oplen) == 0 && sc[oplen] == '('))
				q7_run_schema_arg(sc, strlen(sc), r->changed_arg - 1, arg, sizeof arg);
		}
	}
	snprintf(r->message, sizeof r->message,
	         "%s: the kernel wrote into its input %s, at byte offset %llu; a kernel never changes "
	         "its inputs (the caller's tensor is as it was)",
	         c->op, arg, (unsigned long long)r->changed_at);
}

int q7_engine_call(struct q7_engine *e, const struct q7_call *c, struct q7_run_result *r)
{
	if (c->cores && c->cores != e->cores) {
		memset(r, 0, sizeof *r);
		q7_run_fail(r, "%s: the library runs %u core%s, the call asks for %u", e->lib, e->cores,
		            e->cores == 1 ? "" : "s", c->cores);
		return 1;
	}
	pthread_mutex_lock(&e->lock);
	int rc = call_locked(e, c, e->cores, r);
	pthread_mutex_unlock(&e->lock);
	if (rc != 0 && r->changed_arg)
		name_changed_arg(e, c, r);
	/* What the library's runtime wrote, one line whatever it holds. */
	r->message[sizeof r->message - 1] = 0;
	q7_run_clean_message(r->message);
	return rc;
}

/* Reads "name<TAB>schema" lines from the list's text (owned by e). */
static int parse_list(struct q7_engine *e, char *err, size_t n)
{
	size_t count = 0;
	for (const char *p = e->list; *p; p++)
		count += *p == '\n';
	e->names = q7_xcalloc(count + 1, sizeof *e->names);
	e->schemas = q7_xcalloc(count + 1, sizeof *e->schemas);
	e->nops = 0;
	char *save = NULL;
	for (char *line = strtok_r(e->list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (!tab || tab == line) {
			e->nops = -1;
			return fail(err, n, "%s: the runtime's op list is damaged: '%s'", e->lib, line);
		}
		*tab = 0;
		e->names[e->nops] = line;
		e->schemas[e->nops] = tab + 1;
		e->nops++;
	}
	return e->nops;
}

int q7_engine_list(struct q7_engine *e, char *err, size_t n)
{
	pthread_mutex_lock(&e->lock);
	int rc = e->nops;
	if (rc >= 0)
		goto out;
	unsigned char *buf = q7_xcalloc(1, LIST_BYTES);
	struct q7_call c = {.op = ""};
	c.dst.dtype = Q7_DTYPE_UINT8;
	c.dst.ndim = 1;
	c.dst.sizes[0] = LIST_BYTES;
	c.dst.strides[0] = 1;
	c.dst.data = (uint64_t)(uintptr_t)buf;
	struct q7_run_result r;
	/* Every core's image has the same ops (a session runs them all; the
	 * race check only core 0). */
	if (call_locked(e, &c, 0, &r) != 0) {
		rc = fail(err, n, "%s: cannot list its ops: %s%s", e->lib, r.message,
		          r.status == Q7_STATUS_NO_SUCH_OP ? " (a library built by an older q7cc? "
		                                             "build it again)" : "");
	} else if (r.out.ndim != 1 || r.out.sizes[0] >= LIST_BYTES) {
		rc = fail(err, n, "%s: the runtime's op list is damaged", e->lib);
	} else {
		free(e->list);
		e->list = q7_xstrndup((const char *)buf, r.out.sizes[0]);
		rc = parse_list(e, err, n);
	}
	q7_run_result_free(&r);
	free(buf);
out:
	pthread_mutex_unlock(&e->lock);
	return rc;
}

const char *q7_engine_op_name(const struct q7_engine *e, unsigned i)
{
	return e->nops >= 0 && i < (unsigned)e->nops ? e->names[i] : NULL;
}

const char *q7_engine_op_schema(const struct q7_engine *e, unsigned i)
{
	return e->nops >= 0 && i < (unsigned)e->nops ? e->schemas[i] : NULL;
}
