/* emu_calls: many calls through one emulated session (emu_session.h), for
 * the session tests (run_emu.py) and bench/emulated/run.
 *
 *   emu_calls [--cores=N] [--timeout=S] [--oneshot] [--repeat=K] LIB SCRIPT
 *
 * SCRIPT has one call per line, as q7-run's words: OP ARG... [-o OUT.npy]
 * [--out-shape=D0,D1] [--out-dtype=TYPE] [--timeout=S]; an ARG ending in
 * .npy is a tensor, else a literal (integer, float, true, false). As in
 * q7-run, a destination (zeros) is shaped by --out-shape/--out-dtype, else
 * like the first tensor when there are several cores. The line "reopen"
 * closes the session and opens a new one, "pause SECONDS" leaves it idle
 * (after printing "pause"); "#" starts a comment.
 *
 * For each call one line on stdout:
 *   call N ok|error SECONDS boots=B pid=P[: message]
 * With --repeat=K each call runs K times and one line sums them up: the
 * first call's time, then the median and least of the K - 1 later ones:
 *   time OP first=S median=S min=S
 * --oneshot runs each call as q7-run does, a QEMU per call
 * (q7_run_emulated). Exit status: 0, or 1 when a call could not start. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu_session.h"
#include "callargs.h"
#include "npy.h"
#include "support.h"

#define MAX_REPEAT 1000

struct opts {
	unsigned cores, repeat;
	double timeout;
	bool oneshot;
	const char *lib, *script;
};

/* One call parsed from a line; owns its arrays and dst buffer. */
struct line_call {
	struct q7_call req;
	struct npy_array arrays[Q7_MAX_ARGS];
	unsigned narrays;
	void *dst;
	const char *out;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

static void free_call(struct line_call *c)
{
	for (unsigned i = 0; i < c->narrays; i++)
		npy_free(&c->arrays[i]);
	free(c->dst);
	memset(c, 0, sizeof *c);
}

/* Parses the words of a line into c (words stay borrowed). 0, or -1. */
static int parse_call(char **w, size_t n, const struct opts *o, struct line_call *c)
{
	const char *shape = NULL, *dtype = NULL;
	struct q7_call *req = &c->req;
	memset(c, 0, sizeof *c);
	req->op = w[0];
	req->cores = o->cores;
	req->timeout_s = o->timeout;
	const struct q7_tensor_desc *first = NULL;
	for (size_t i = 1; i < n; i++) {
		if (strcmp(w[i], "-o") == 0 && i + 1 < n) {
			c->out = w[++i];
		} else if (strncmp(w[i], "--out-shape=", 12) == 0) {
			shape = w[i] + 12;
		} else if (strncmp(w[i], "--out-dtype=", 12) == 0) {
			dtype = w[i] + 12;
		} else if (strncmp(w[i], "--timeout=", 10) == 0) {
			req->timeout_s = strtod(w[i] + 10, NULL);
		} else if (req->nargs == Q7_MAX_ARGS) {
			q7_error("%s: too many arguments", w[0]);
			return -1;
		} else if (ends_with(w[i], ".npy")) {
			struct npy_array *a = &c->arrays[c->narrays];
			struct q7_err err = Q7_ERR_GROWING;
			int rc = npy_read(w[i], a, &err);
			q7_err_print(&err);
			if (rc != 0)
				return -1;
			c->narrays++;
			struct q7_arg *arg = &req->args[req->nargs++];
			q7_run_tensor_arg(arg, a);
			if (!first)
				first = &arg->u.tensor;
		} else if (!q7_run_parse_literal(w[i], &req->args[req->nargs++])) {
			q7_error("%s: not a .npy file nor a literal", w[i]);
			return -1;
		}
	}
	if (!shape && !dtype && o->cores <= 1)
		return 0;
	struct q7_tensor_desc *d = &req->dst;
	if (shape) {
		struct q7_err err = Q7_ERR_GROWING;
		int rc = q7_run_parse_shape(shape, d, &err);
		q7_err_print(&err);
		if (rc != 0)
			return -1;
	} else if (first) {
		d->ndim = first->ndim;
		memcpy(d->sizes, first->sizes, sizeof d->sizes);
	} else {
		q7_error("%s: nothing to shape the destination like", w[0]);
		return -1;
	}
	int t = dtype ? q7_dtype_from_name(dtype) : first ? (int)first->dtype : Q7_DTYPE_FLOAT32;
	if (t < 0) {
		q7_error("%s: unknown dtype", dtype);
		return -1;
	}
	d->dtype = (uint32_t)t;
	q7_run_set_contiguous(d);
	size_t bytes = q7_dtype_size(t);
	for (unsigned i = 0; i < d->ndim; i++)
		bytes *= d->sizes[i];
	c->dst = q7_xcalloc(1, bytes ? bytes : 1);
	d->data = (uint64_t)(uintptr_t)c->dst;
	c->req.dst_fresh = true; /* a new output, as q7-run's: it starts as the pattern */
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Runs c once: in session s, or (oneshot) in a QEMU of its own. */
static int run_once(struct q7_emu_session *s, const struct opts *o, struct line_call *c,
                    unsigned seq, bool report, double *secs)
{
	struct q7_run_result r;
	double t0 = now_s();
	int failed = o->oneshot ? q7_run_emulated(o->lib, NULL, &c->req, &r) : q7_emu_call(s, &c->req, &r);
	*secs = now_s() - t0;
	struct q7_err err = Q7_ERR_GROWING;
	if (!failed && c->out && npy_write(c->out, (enum q7_dtype)r.out.dtype, r.out.ndim,
	                                   r.out.sizes, (const void *)(uintptr_t)r.out.data, &err) != 0)
		failed = 1;
	q7_err_print(&err);
	if (report) {
		struct q7_emu_stats st = {0};
		if (s)
			q7_emu_get_stats(s, &st);
		printf("call %u %s %.6f boots=%u pid=%ld%s%s\n", seq, failed ? "error" : "ok", *secs,
		       st.boots, st.pid, failed ? ": " : "", failed ? r.message : "");
		fflush(stdout);
	}
	q7_run_result_free(&r);
	return failed;
}

static int open_session(const struct opts *o, struct q7_emu_session **s)
{
	if (o->oneshot)
		return 0;
	struct q7_emu_config cfg;
	char why[Q7_MESSAGE_SIZE];
	q7_emu_config_init(&cfg, o->lib, o->cores);
	cfg.timeout_s = o->timeout;
	if (q7_emu_open(&cfg, s, &Q7_ERR_OF(why)) != 0) {
		q7_error("%s", why);
		return -1;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	o->cores = 1;
	o->repeat = 1;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--cores=", 8) == 0)
			o->cores = (unsigned)strtoul(a + 8, NULL, 10);
		else if (strncmp(a, "--timeout=", 10) == 0)
			o->timeout = strtod(a + 10, NULL);
		else if (strncmp(a, "--repeat=", 9) == 0)
			o->repeat = (unsigned)strtoul(a + 9, NULL, 10);
		else if (strcmp(a, "--oneshot") == 0)
			o->oneshot = true;
		else
			break;
	}
	if (argc - i != 2 || o->cores < 1 || o->cores > 8 || o->repeat < 1 || o->repeat > MAX_REPEAT) {
		fprintf(stderr, "usage: emu_calls [--cores=N] [--timeout=S] [--oneshot] [--repeat=K] "
		                "LIB SCRIPT\n");
		return -1;
	}
	o->lib = argv[i];
	o->script = argv[i + 1];
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	q7_set_progname("emu_calls");
	if (parse_opts(argc, argv, &o) != 0)
		return 2;
	size_t len;
	char *text = q7_read_file(o.script, &len);
	if (!text) {
		q7_error("%s: cannot read: %s", o.script, strerror(errno));
		return 1;
	}
	struct q7_emu_session *s = NULL;
	int rc = 0;
	unsigned seq = 0;
	if (open_session(&o, &s) != 0) {
		free(text);
		return 1;
	}
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *w[2 * Q7_MAX_ARGS + 8], *wsave = NULL;
		size_t n = 0;
		for (char *t = strtok_r(line, " \t", &wsave); t && n < sizeof w / sizeof w[0];
		     t = strtok_r(NULL, " \t", &wsave))
			w[n++] = t;
		if (n == 0 || w[0][0] == '#')
			continue;
		if (strcmp(w[0], "pause") == 0 && n == 2) { /* an idle session */
			printf("pause\n");
			fflush(stdout);
			double secs = strtod(w[1], NULL);
			struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
			while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
				;
			continue;
		}
		if (strcmp(w[0], "reopen") == 0) {
			q7_emu_close(s);
			s = NULL;
			if (open_session(&o, &s) != 0) {
				rc = 1;
				break;
			}
			continue;
		}
		struct line_call c;
		if (parse_call(w, n, &o, &c) != 0) {
			free_call(&c);
			rc = 1;
			break;
		}
		double t[MAX_REPEAT];
		for (unsigned k = 0; k < o.repeat; k++)
			run_once(s, &o, &c, ++seq, o.repeat == 1, &t[k]);
		if (o.repeat > 1) { /* the first call apart: it may boot QEMU */
			unsigned later = o.repeat - 1;
			qsort(t + 1, later, sizeof t[0], cmp_double);
			printf("time %s first=%.6f median=%.6f min=%.6f\n", c.req.op, t[0],
			       t[1 + later / 2], t[1]);
			fflush(stdout);
		}
		free_call(&c);
	}
	q7_emu_close(s);
	free(text);
	return rc;
}
