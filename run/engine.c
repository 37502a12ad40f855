/* The run engine (engine.h): one opened library, its target's row
 * (target.h) behind one call, the op list, and the lock that makes calls
 * from several threads take turns.
 *
 * The op list comes from the library itself, on any target, through
 * the runtime's list request (an empty op name: one "name<TAB>schema" line
 * per op written into the destination), so an emulated image is listed
 * the same way as a host library. */
#include "engine.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_image.h"
#include "result.h"
#include "tensor_bytes.h"
#include "support.h"
#include "target.h"

#define LIST_BYTES 65535u /* the op list's room: one 1-D uint8 tensor */

struct q7_engine {
	const struct q7_target *target;
	void *state;          /* the target's (NULL until opened) */
	bool apart;           /* its kernels run in another process */
	bool check_uninit;    /* q7_engine_opts.check_uninit */
	bool target_checks;   /* the target runs the check's two calls itself */
	char *lib;
	struct q7_strvec images; /* lib's, one per core */
	unsigned cores;
	pthread_mutex_t lock;
	int nops;             /* -1 until listed */
	char *list;           /* the op list's text, "name<TAB>schema" lines */
	char *text;           /* a copy split into the names and schemas */
	char **names, **schemas;
};

int q7_engine_open(const char *lib, const struct q7_engine_opts *o, struct q7_engine **out,
                   struct q7_err *err)
{
	struct q7_engine_opts eo = o ? *o : (struct q7_engine_opts){0};
	struct q7_strvec paths = {0};
	struct q7_engine *e = NULL;
	struct q7_err why = Q7_ERR_GROWING;
	int rc = -1;
	*out = NULL;
	const char *env = getenv("Q7CC_CHECK_UNINIT");
	eo.check_uninit = eo.check_uninit || (env && *env && strcmp(env, "0") != 0);
	o = &eo;
	const struct q7_target *t = q7_target_find(o->target);
	if (!t) {
		char names[256];
		q7_target_names(names, sizeof names, NULL);
		q7_err_set(err, NULL, "target '%s': expected %s", o->target, names);
		goto out;
	}
	if (o->cores > Q7_NUM_CORES) {
		q7_err_set(err, NULL, "%u cores asked, at most %d", o->cores, Q7_NUM_CORES);
		goto out;
	}
	for (unsigned i = 0; o->images && i < o->cores; i++)
		q7_sv_add(&paths, o->images[i]);
	if ((!paths.n && q7_run_images(lib, o->cores, &paths, &why) < 0) ||
	    q7_run_check_images(&paths, t, &why) != 0) {
		q7_err_set(err, NULL, "%s", why.msg);
		goto out;
	}
	e = q7_xmalloc(sizeof *e);
	*e = (struct q7_engine){.target = t, .lib = q7_xstrdup(lib), .images = paths,
	                        .cores = (unsigned)paths.n, .nops = -1};
	paths = (struct q7_strvec){0};
	pthread_mutex_init(&e->lock, NULL);
	struct q7_target_open to = {.lib = lib, .images = &e->images, .opts = o};
	if (t->open(&to, err) != 0)
		goto out;
	e->state = to.state;
	e->apart = to.apart;
	e->check_uninit = o->check_uninit;
	e->target_checks = to.checks_uninit;
	*out = e;
	e = NULL;
	rc = 0;
out:
	q7_engine_close(e);
	q7_sv_free(&paths);
	q7_err_free(&why);
	return rc;
}

static void engine_close(struct q7_engine *e, bool at_exit)
{
	if (!e)
		return;
	if (e->state)
		e->target->close(e->state, at_exit);
	pthread_mutex_destroy(&e->lock);
	free(e->names);
	free(e->schemas);
	free(e->list);
	free(e->text);
	free(e->lib);
	q7_sv_free(&e->images);
	free(e);
}

void q7_engine_close(struct q7_engine *e) { engine_close(e, false); }

void q7_engine_close_at_exit(struct q7_engine *e) { engine_close(e, true); }

unsigned q7_engine_cores(const struct q7_engine *e) { return e->cores; }

void q7_engine_profile(struct q7_engine *e, struct q7_prof *p, unsigned parent)
{
	if (e->target->profile_into)
		e->target->profile_into(e->state, p, parent);
}

const struct q7_target *q7_engine_target_row(const struct q7_engine *e) { return e->target; }

bool q7_engine_apart(const struct q7_engine *e) { return e->apart; }

/* Byte k of the destination differs between the two runs: the message
 * names its element, flat and by index. */
static void uninit_fail(const struct q7_call *c, const struct q7_call *second, size_t k,
                        struct q7_run_result *r)
{
	size_t esize = q7_dtype_size(c->dst.dtype);
	size_t elem = esize ? k / esize : k, rest = elem, idx[Q7_MAX_DIMS], n = 0;
	char where[24 * Q7_MAX_DIMS] = "";
	for (unsigned d = c->dst.ndim; d-- > 0 && c->dst.ndim > 1;) {
		idx[d] = c->dst.sizes[d] ? rest % c->dst.sizes[d] : 0;
		rest = c->dst.sizes[d] ? rest / c->dst.sizes[d] : 0;
	}
	for (unsigned d = 0; d < c->dst.ndim && c->dst.ndim > 1; d++)
		n += (size_t)snprintf(where + n, sizeof where - n, "%s%zu%s", d ? ", " : " [", idx[d],
		                      d + 1 == c->dst.ndim ? "]" : "");
	q7_run_fail(r, "%s: the kernel read its output before writing it: element %zu%s of the "
	            "destination (byte offset %zu) came out different when the fresh output started "
	            "as 0x%02x bytes and as 0x%02x bytes; a kernel writes each element of its output "
	            "before reading it", c->op, elem, where, k, q7_run_uninit_byte(c),
	            q7_run_uninit_byte(second));
	r->status = Q7_STATUS_KERNEL_ERROR;
}

/* The uninitialised-output check (q7_engine_opts.check_uninit): c twice,
 * its fresh destination filled with the second pattern, then the first
 * (so that the result is the one an unchecked call gives); a byte that
 * differs depends on what the destination held. The caller's
 * destination is filled too, for a target that runs on it. */
static int call_checking_uninit(struct q7_engine *e, const struct q7_call *c,
                                struct q7_run_result *r)
{
	size_t bytes = q7_tensor_span(&c->dst);
	unsigned char *dst = (unsigned char *)(uintptr_t)c->dst.data;
	struct q7_call second = *c;
	second.fill_second = true;
	q7_run_uninit_fill(dst, bytes, &second);
	int rc = e->target->call(e->state, &second, e->cores, r);
	if (rc != 0)
		return rc;
	unsigned char *first = q7_xmalloc(bytes ? bytes : 1);
	memcpy(first, dst, bytes);
	q7_run_result_free(r);
	q7_run_uninit_fill(dst, bytes, c);
	rc = e->target->call(e->state, c, e->cores, r);
	if (rc == 0 && memcmp(first, dst, bytes) != 0) { /* one memcmp when the same */
		size_t k = 0;
		while (first[k] == dst[k])
			k++;
		uninit_fail(c, &second, k, r);
		rc = 1;
	}
	free(first);
	return rc;
}

int q7_engine_call(struct q7_engine *e, const struct q7_call *c, struct q7_run_result *r)
{
	if (c->cores && c->cores != e->cores) {
		memset(r, 0, sizeof *r);
		q7_run_fail(r, "%s: the library runs %u core%s, the call asks for %u", e->lib, e->cores,
		            e->cores == 1 ? "" : "s", c->cores);
		return 1;
	}
	struct q7_call cc = *c;
	cc.check_uninit = c->check_uninit || e->check_uninit;
	pthread_mutex_lock(&e->lock);
	int rc = cc.check_uninit && !e->target_checks && c->dst_fresh && c->dst.data && c->op[0]
	             ? call_checking_uninit(e, &cc, r)
	             : e->target->call(e->state, &cc, e->cores, r);
	pthread_mutex_unlock(&e->lock);
	if (rc != 0 && r->changed_arg) {
		/* A changed input (or a write past its end): the message again,
		 * the argument named from the op's schema (the op list, read once). */
		char arg[128];
		q7_run_list_arg(q7_engine_list(e, NULL) > 0 ? e->list : NULL, c->op, r->changed_arg - 1,
		                arg, sizeof arg);
		q7_run_word_changed(r, c->op, arg);
	}
	/* What the library's runtime wrote, one line whatever it holds. */
	r->message[sizeof r->message - 1] = 0;
	q7_run_clean_message(r->message);
	return rc;
}

/* Reads e->list's "name<TAB>schema" lines (into e->text). */
static int parse_list(struct q7_engine *e, struct q7_err *err)
{
	size_t count = 0;
	for (const char *p = e->list; *p; p++)
		count += *p == '\n';
	e->names = q7_xcalloc(count + 1, sizeof *e->names);
	e->schemas = q7_xcalloc(count + 1, sizeof *e->schemas);
	e->nops = 0;
	char *save = NULL;
	e->text = q7_xstrdup(e->list);
	for (char *line = strtok_r(e->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		if (!tab || tab == line) {
			e->nops = -1;
			q7_err_set(err, NULL, "%s: the runtime's op list is damaged: '%s'", e->lib, line);
			return -1;
		}
		*tab = 0;
		e->names[e->nops] = line;
		e->schemas[e->nops] = tab + 1;
		e->nops++;
	}
	return e->nops;
}

int q7_engine_list(struct q7_engine *e, struct q7_err *err)
{
	pthread_mutex_lock(&e->lock);
	int rc = e->nops;
	if (rc >= 0)
		goto out;
	unsigned char *buf = q7_xcalloc(1, LIST_BYTES);
	struct q7_call c = {.op = "", .dst = {.dtype = Q7_DTYPE_UINT8, .ndim = 1, .sizes = {LIST_BYTES},
	                                      .strides = {1}, .data = (uint64_t)(uintptr_t)buf}};
	struct q7_run_result r;
	/* Every core's image has the same ops (a session runs them all; the
	 * race check only core 0). */
	if (e->target->call(e->state, &c, 0, &r) != 0) {
		q7_err_set(err, NULL, "%s: cannot list its ops: %s%s", e->lib, r.message,
		           r.status == Q7_STATUS_NO_SUCH_OP ? " (a library built by an older q7cc? "
		                                              "build it again)" : "");
	} else if (r.out.ndim != 1 || r.out.sizes[0] >= LIST_BYTES) {
		q7_err_set(err, NULL, "%s: the runtime's op list is damaged", e->lib);
	} else {
		free(e->list);
		free(e->text);
		free(e->names); /* a damaged list's, parsed before */
		free(e->schemas);
		e->list = q7_xstrndup((const char *)buf, r.out.sizes[0]);
		rc = parse_list(e, err);
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
