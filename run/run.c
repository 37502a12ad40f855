/* q7-run: the command line (see run.h).
 *
 *   q7-run [--target=host|emulated] [--cores=N] [--out-shape=2,3]
 *          [--out-dtype=float32] [--heap=BYTES] [--timeout=SECONDS]
 *          [--guard=end|start] [--in-process] [--semihosting-files]
 *          [--profile=FILE] [-v] LIB OP ARG... -o OUT.npy
 *
 * An ARG naming a file (or ending in .npy) is a tensor read from NPY; else
 * it is a literal: an integer (3, -2, 0x10), a float (0.5, 1e-3, inf) or
 * true/false. The destination (get_dst_tensor) is shaped by --out-shape
 * and --out-dtype, else like the first tensor argument; with one core and
 * neither option the runtime makes it when a kernel asks for it.
 *
 * On the host the kernel runs in a process of its own (the engine's
 * isolated mode), each tensor against a guard page at its end (or its
 * start, --guard=start); --in-process runs it in q7-run itself, under a
 * fault handler (the guarded mode). On the emulated core the kernel has
 * no host file access through QEMU's semihosting unless
 * --semihosting-files (or Q7CC_SEMIHOSTING_FILES=1) asks for it.
 *
 * --profile=FILE (emulated): the call's instruction profile, every
 * instruction of each core's entry call under the stack it ran in, as
 * folded stacks (FILE.folded) or a flame graph (FILE.svg); emu_profile.h. */
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "image.h"
#include "args.h"
#include "npy.h"
#include "insn_profile.h"
#include "support.h"

struct options {
	const char *target, *out, *out_shape, *out_dtype, *profile;
	unsigned cores;
	bool verbose, list, in_process;
	enum q7_guard guard;
	size_t heap;
	double timeout;
	struct q7_strvec pos; /* LIB OP ARG... */
};

static void usage(void)
{
	fprintf(stderr,
	        "usage: q7-run [--target=host|emulated] [--cores=N] [--out-shape=D0,D1,...]\n"
	        "              [--out-dtype=TYPE] [--heap=BYTES] [--timeout=SECONDS]\n"
	        "              [--guard=end|start] [--in-process] [--semihosting-files]\n"
	        "              [--profile=FILE.folded|FILE.svg] [-v] LIB OP ARG... -o OUT.npy\n"
	        "       q7-run [--target=host|emulated] [--in-process] --list LIB\n"
	        "  LIB   the library given to -o at link time (an image or a multicore manifest)\n"
	        "  ARG   a .npy file (a tensor) or a literal: 3, -2, 0.5, 1e-3, true, false\n");
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-')
		return false;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

enum { OPT_OUTPUT = 1, OPT_TARGET, OPT_CORES, OPT_OUT_SHAPE, OPT_OUT_DTYPE, OPT_HEAP,
       OPT_TIMEOUT, OPT_PROFILE, OPT_LIST, OPT_IN_PROCESS, OPT_SEMIHOSTING, OPT_GUARD,
       OPT_VERBOSE, OPT_HELP };

static const struct q7_args_opt options[] = {
	Q7_ARGS_VALUE("-o", OPT_OUTPUT),
	Q7_ARGS_VALUE("--target", OPT_TARGET),
	Q7_ARGS_VALUE("--cores", OPT_CORES),
	Q7_ARGS_VALUE("--out-shape", OPT_OUT_SHAPE),
	Q7_ARGS_VALUE("--out-dtype", OPT_OUT_DTYPE),
	Q7_ARGS_VALUE("--heap", OPT_HEAP),
	Q7_ARGS_VALUE("--timeout", OPT_TIMEOUT),
	Q7_ARGS_VALUE("--profile", OPT_PROFILE),
	Q7_ARGS_FLAG("--list", OPT_LIST),
	Q7_ARGS_FLAG("--in-process", OPT_IN_PROCESS),
	Q7_ARGS_FLAG("--semihosting-files", OPT_SEMIHOSTING),
	Q7_ARGS_VALUE("--guard", OPT_GUARD),
	Q7_ARGS_FLAG("-v", OPT_VERBOSE),
	Q7_ARGS_FLAG("--verbose", OPT_VERBOSE),
	Q7_ARGS_FLAG("--help", OPT_HELP),
	Q7_ARGS_FLAG("-h", OPT_HELP),
	Q7_ARGS_TABLE_END,
};

/* Option a's value v, a number in lo..hi. 0, or -1 after saying what
 * was expected. */
static int take_uint(const char *a, const char *v, unsigned long long lo, unsigned long long hi,
                     const char *expected, unsigned long long *n)
{
	if (parse_uint(v, hi, n) && *n >= lo)
		return 0;
	q7_error("%s: expected %s", a, expected);
	return -1;
}

/* One option of q7-run's; a is it as given, for messages. 0 or -1. */
static int take_option(int id, const char *a, const char *v, struct options *o)
{
	unsigned long long n;
	char *end;
	switch (id) {
	case OPT_OUTPUT:
		o->out = v;
		break;
	case OPT_TARGET:
		o->target = v;
		if (strcmp(o->target, "host") != 0 && strcmp(o->target, "emulated") != 0) {
			q7_error("--target=%s: expected host or emulated", o->target);
			return -1;
		}
		break;
	case OPT_OUT_SHAPE:
		o->out_shape = v;
		break;
	case OPT_CORES:
		if (take_uint(a, v, 1, 8, "1 to 8 cores", &n) != 0)
			return -1;
		o->cores = (unsigned)n;
		break;
	case OPT_TIMEOUT:
		o->timeout = strtod(v, &end);
		if (*end || !(o->timeout > 0)) {
			q7_error("%s: expected a number of seconds", a);
			return -1;
		}
		break;
	case OPT_OUT_DTYPE:
		o->out_dtype = v;
		break;
	case OPT_HEAP:
		if (take_uint(a, v, 65536, (unsigned long long)1 << 32,
		              "a size in bytes, at least 65536", &n) != 0)
			return -1;
		o->heap = (size_t)n;
		break;
	case OPT_PROFILE:
		o->profile = v;
		if (!q7_prof_path_ok(o->profile)) {
			q7_error("%s: a profile is written as FILE.folded (folded stacks) or FILE.svg "
			         "(a flame graph)", a);
			return -1;
		}
		break;
	case OPT_GUARD:
		if (strcmp(v, "end") == 0) {
			o->guard = Q7_GUARD_END;
		} else if (strcmp(v, "start") == 0) {
			o->guard = Q7_GUARD_START;
		} else {
			q7_error("%s: expected --guard=end or --guard=start", a);
			return -1;
		}
		break;
	case OPT_SEMIHOSTING:
		/* Read where the emulated session starts QEMU
		 * (q7_emu_config_init), as PyTorch's sessions read it. */
		setenv("Q7CC_SEMIHOSTING_FILES", "1", 1);
		break;
	case OPT_LIST:
	case OPT_IN_PROCESS:
	case OPT_VERBOSE: /* the flags */
		*(id == OPT_LIST ? &o->list : id == OPT_VERBOSE ? &o->verbose : &o->in_process) = true;
		break;
	case OPT_HELP:
		usage();
		exit(0);
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	o->target = "host";
	o->cores = 1;
	struct q7_args args;
	q7_args_init(&args, argc, argv, options, Q7_ARGS_NUMBERS | Q7_ARGS_DASHDASH);
	const char *v;
	for (int id, at = args.next; (id = q7_args_next(&args, &v)) != Q7_ARGS_END;
	     at = args.next) {
		if (id == Q7_ARGS_POS) {
			q7_sv_add(&o->pos, v); /* negative literals are arguments */
		} else if (id == Q7_ARGS_NO_VALUE) {
			q7_error("-o needs a file name"); /* the one option with its value apart */
			return -1;
		} else if (id == Q7_ARGS_UNKNOWN) {
			q7_error("unknown option '%s'", v);
			return -1;
		} else if (take_option(id, argv[at], v, o) != 0) {
			return -1;
		}
	}
	if (o->list ? o->pos.n != 1 : (o->pos.n < 2 || !o->out)) {
		usage();
		return -1;
	}
	if (!o->list && o->pos.n - 2 > Q7_MAX_ARGS) {
		q7_error("%zu arguments, at most %d", o->pos.n - 2, Q7_MAX_ARGS);
		return -1;
	}
	return 0;
}

/* "2,3", "2x3", "(2, 3)", "" (0 dims). */
int q7_run_parse_shape(const char *s, struct q7_tensor_desc *d)
{
	d->ndim = 0;
	const char *p = s;
	while (*p == '(' || *p == '[' || *p == ' ')
		p++;
	while (*p && *p != ')' && *p != ']') {
		char *end;
		errno = 0;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long v = strtoul(p, &end, 10);
		if (errno || end == p)
			goto bad;
		if (d->ndim == Q7_MAX_DIMS) {
			q7_error("--out-shape=%s: more than %d dimensions", s, Q7_MAX_DIMS);
			return -1;
		}
		if (v > Q7_MAX_DIM_SIZE) {
			q7_error("--out-shape=%s: %lu is over %u", s, v, Q7_MAX_DIM_SIZE);
			return -1;
		}
		d->sizes[d->ndim++] = (uint32_t)v;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',' || *p == 'x')
			p++;
		while (*p == ' ')
			p++;
	}
	return 0;
bad:
	q7_error("--out-shape=%s: expected sizes like 2,3", s);
	return -1;
}

void q7_run_set_contiguous(struct q7_tensor_desc *d)
{
	/* unsigned 64: the product runs past int32 (and 8 dims of 65535 past
	 * 64 bits) before q7_run_main rejects more than 2^31-1 elements */
	uint64_t s = 1;
	for (unsigned i = d->ndim; i-- > 0;) {
		d->strides[i] = (int32_t)s;
		s *= d->sizes[i];
	}
}

bool q7_run_parse_literal(const char *s, struct q7_arg *a)
{
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
		a->kind = Q7_ARG_BOOL;
		a->u.i = s[0] == 't';
		return true;
	}
	char *end;
	errno = 0;
	long long i = strtoll(s, &end, 0);
	if (*s && !*end) {
		if (errno) /* out of 64 bits: not a literal q7 can pass */
			return false;
		a->kind = Q7_ARG_INT;
		a->u.i = i;
		return true;
	}
	errno = 0;
	double d = strtod(s, &end);
	if (*s && !*end && (s[0] != '0' || s[1] != 'x') && strpbrk(s, "(") == NULL &&
	    (!isnan(d) || strcmp(s, "nan") == 0)) {
		a->kind = Q7_ARG_FLOAT;
		memcpy(&a->u.f_bits, &d, sizeof d);
		return true;
	}
	return false;
}

void q7_run_tensor_arg(struct q7_arg *a, const struct npy_array *t)
{
	a->kind = Q7_ARG_TENSOR;
	a->u.tensor.dtype = t->dtype;
	a->u.tensor.ndim = t->ndim;
	memcpy(a->u.tensor.sizes, t->sizes, sizeof t->sizes);
	q7_run_set_contiguous(&a->u.tensor);
	a->u.tensor.data = (uint64_t)(uintptr_t)t->data;
}

/* A name ending in .npy is a file; else a literal when it reads as one
 * (so a file named "3" does not shadow the number); else a file. */
static bool is_file_arg(const char *s)
{
	size_t n = strlen(s);
	if (n > 4 && strcmp(s + n - 4, ".npy") == 0)
		return true;
	struct q7_arg probe;
	return !q7_run_parse_literal(s, &probe) && q7_path_exists(s);
}

/* On the host: in a process of its own unless --in-process. */
static enum q7_host_mode host_mode(const struct options *o)
{
	return o->in_process ? Q7_HOST_GUARDED : Q7_HOST_ISOLATED;
}

/* --list: the library's ops, one TorchScript schema a line. */
static int list_ops(const struct options *o)
{
	struct q7_engine_opts eo = {.target = o->target, .cores = 1, .heap_size = o->heap,
	                            .timeout_s = o->timeout, .host_mode = host_mode(o),
	                            .guard = o->guard, .forward_signals = true};
	struct q7_engine *e = NULL;
	char err[Q7_MESSAGE_SIZE];
	int n = -1;
	if (q7_engine_open(o->pos.v[0], &eo, &e, err, sizeof err) == 0)
		n = q7_engine_list(e, err, sizeof err);
	if (n < 0)
		q7_error("%s", err);
	for (int i = 0; i < n; i++)
		printf("%s\n", q7_engine_op_schema(e, (unsigned)i));
	q7_engine_close(e);
	return n < 0 ? Q7_EXIT_ERROR : 0;
}

int q7_run_main(int argc, char **argv)
{
	struct options o = {0};
	struct npy_array arrays[Q7_MAX_ARGS];
	unsigned narrays = 0;
	struct q7_run_request req;
	struct q7_run_result res;
	void *dst_buf = NULL;
	struct q7_engine *engine = NULL;
	struct q7_prof prof;
	q7_prof_init(&prof);
	int rc = Q7_EXIT_USAGE;
	memset(&req, 0, sizeof req);
	memset(&res, 0, sizeof res);
	if (parse_options(argc, argv, &o) != 0)
		goto out;
	rc = Q7_EXIT_ERROR;
	if (o.list) {
		rc = list_ops(&o);
		goto out;
	}
	req.lib = o.pos.v[0];
	req.op = o.pos.v[1];
	if (strlen(req.op) >= Q7_MAX_OP_NAME) {
		q7_error("%s: op names are shorter than %d characters", req.op, Q7_MAX_OP_NAME);
		goto out;
	}
	bool emulated = strcmp(o.target, "emulated") == 0;
	if (o.profile && !emulated) {
		q7_error("--profile=%s: profiles come from the emulated core: add --target=emulated",
		         o.profile);
		goto out;
	}
	char *why = NULL;
	if (q7_run_check_target(req.lib, o.cores, emulated, &why) != 0) {
		q7_error("%s", why);
		free(why);
		goto out;
	}
	req.cores = o.cores;
	req.heap_size = o.heap;
	req.timeout_s = o.timeout;
	const struct q7_tensor_desc *first = NULL;
	for (size_t i = 2; i < o.pos.n; i++) {
		const char *s = o.pos.v[i];
		struct q7_arg *a = &req.args[req.nargs++];
		if (is_file_arg(s)) {
			struct npy_array *t = &arrays[narrays];
			if (npy_read(s, t) != 0)
				goto out;
			narrays++;
			q7_run_tensor_arg(a, t);
			if (!first)
				first = &a->u.tensor;
		} else if (!q7_run_parse_literal(s, a)) {
			q7_error("%s: not a .npy file nor a literal (3, 0.5, true; integers of 64 bits)", s);
			goto out;
		}
	}
	if (o.out_shape || o.out_dtype || o.cores > 1) {
		struct q7_tensor_desc *d = &req.dst;
		if (o.out_shape) {
			if (q7_run_parse_shape(o.out_shape, d) != 0)
				goto out;
		} else if (first) {
			d->ndim = first->ndim;
			memcpy(d->sizes, first->sizes, sizeof d->sizes);
		} else {
			q7_error("no tensor argument to shape the destination like: give --out-shape");
			goto out;
		}
		if (o.out_dtype) {
			int t = q7_dtype_from_name(o.out_dtype);
			if (t < 0) {
				q7_error("--out-dtype=%s: unknown dtype (float32, bfloat16, float16, int32, "
				         "int8, int64, int16, uint8, float64, bool)",
				         o.out_dtype);
				goto out;
			}
			d->dtype = (uint32_t)t;
		} else {
			d->dtype = first ? first->dtype : Q7_DTYPE_FLOAT32;
		}
		q7_run_set_contiguous(d);
		/* The frame's strides are 32-bit element counts: no tensor may
		 * have more elements than they can step over. */
		uint64_t n = 1;
		for (unsigned i = 0; i < d->ndim && n <= INT32_MAX; i++)
			n *= d->sizes[i];
		if (n > INT32_MAX) {
			q7_error("the destination has more than 2^31-1 elements (the call frame's strides are 32-bit)");
			goto out;
		}
		size_t bytes = (size_t)n * q7_npy_dtype_size((enum q7_dtype)d->dtype);
		dst_buf = q7_xcalloc(1, bytes ? bytes : 1);
		d->data = (uint64_t)(uintptr_t)dst_buf;
	}

	struct q7_engine_opts eo = {.target = o.target, .cores = req.cores, .heap_size = req.heap_size,
	                            .timeout_s = req.timeout_s, .host_mode = host_mode(&o),
	                            .guard = o.guard, .forward_signals = true};
	char err[Q7_MESSAGE_SIZE];
	if (q7_engine_open(req.lib, &eo, &engine, err, sizeof err) != 0) {
		q7_error("%s", err);
		goto out;
	}
	if (o.profile)
		q7_engine_profile(engine, &prof, Q7_PROF_ROOT);
	struct q7_call call = {.op = req.op, .nargs = req.nargs, .args = req.args, .dst = req.dst};
	if (q7_engine_call(engine, &call, &res) != 0 || res.status != Q7_STATUS_OK) {
		/* The runtime names the op; a damaged one may not. A missing op
		 * is the library's fault ("no op 'x' in this library; its ops:
		 * ..."), so the library is named first, as for other refusals. */
		if (!res.message[0])
			q7_error("%s: %s: the op failed without a message", req.lib, req.op);
		else if (res.status == Q7_STATUS_NO_SUCH_OP)
			q7_error("%s: %s", req.lib, res.message);
		else if (strstr(res.message, req.op))
			q7_error("%s", res.message);
		else
			q7_error("%s: %s", req.op, res.message);
		goto out;
	}
	if (res.message[0]) /* once: the engine keeps one core's */
		q7_warning("%s", res.message);
	const void *out_data = res.out_data ? res.out_data : dst_buf;
	if (npy_write(o.out, (enum q7_dtype)res.out.dtype, res.out.ndim, res.out.sizes, out_data) != 0) {
		rc = Q7_EXIT_IO;
		goto out;
	}
	if (o.profile) {
		char *title = q7_xasprintf("%s on %u emulated core%s", req.op, req.cores,
		                           req.cores == 1 ? "" : "s");
		int w = q7_prof_write(&prof, o.profile, title, err, sizeof err);
		free(title);
		if (w != 0) {
			q7_error("%s", err);
			rc = Q7_EXIT_IO;
			goto out;
		}
		if (o.verbose)
			q7_note("%s: profile: %llu instructions in %zu frames, written to %s", req.op,
			        (unsigned long long)q7_prof_sum(&prof), prof.n - 1, o.profile);
	}
	if (o.verbose) {
		struct q7_strbuf b = {0};
		for (unsigned i = 0; i < res.out.ndim; i++)
			q7_sb_addf(&b, "%s%u", i ? "," : "", res.out.sizes[i]);
		q7_note("%s: ok on %u core%s (%s): %s[%s], switched stack: %s", req.op, req.cores,
		        req.cores == 1 ? "" : "s", o.target, q7_dtype_to_name((enum q7_dtype)res.out.dtype),
		        b.s ? b.s : "", res.switched_stack ? "yes" : "no");
		q7_sb_free(&b);
	}
	rc = 0;
out:
	q7_run_result_free(&res);
	q7_engine_close(engine);
	q7_prof_free(&prof);
	for (unsigned i = 0; i < narrays; i++)
		npy_free(&arrays[i]);
	free(dst_buf);
	q7_sv_free(&o.pos);
	return rc;
}

void q7_run_result_free(struct q7_run_result *result)
{
	free(result->out_data);
	result->out_data = NULL;
}
