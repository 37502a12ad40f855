/* q7-run: the command line (see run.h). What it takes: usage() and the
 * options' table below; what it does: docs/runtime.md, "The run engine",
 * and docs/profile.md. */
#include "run.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callargs.h"
#include "engine.h"
#include "run_image.h"
#include "args.h"
#include "npy.h"
#include "device_view.h"
#include "host_elf.h"
#include "insn_profile.h"
#include "sanitize.h"
#include "support.h"
#include "target.h"
#include "tempfile.h"

struct options {
	const char *target, *out, *out_shape, *out_dtype, *profile;
	unsigned cores;
	bool verbose, list, in_process, sanitize, check_uninit;
	enum q7_guard guard;
	enum q7_prof_view view;
	size_t heap;
	double timeout;
	struct q7_strvec pos; /* LIB OP ARG... */
};

enum { OPT_OUTPUT = 1, OPT_TARGET, OPT_CORES, OPT_OUT_SHAPE, OPT_OUT_DTYPE, OPT_HEAP,
       OPT_TIMEOUT, OPT_PROFILE, OPT_PROFILE_VIEW, OPT_LIST, OPT_IN_PROCESS, OPT_SEMIHOSTING, OPT_GUARD,
       OPT_VERBOSE, OPT_SANITIZE, OPT_CHECK_UNINIT, OPT_HELP, OPT_VERSION,
       OPT_PROBE };

static const struct q7_args_opt options[] = {
	Q7_ARGS_VALUE_H("-o", OPT_OUTPUT, "OUT.npy", "write the result tensor to OUT.npy (NPY 1.0)"),
	Q7_ARGS_VALUE_H("--target", OPT_TARGET, "host|emulated",
	                "run on the host (the default) or on a GPSIMD core emulated by QEMU"),
	Q7_ARGS_VALUE_H("--cores", OPT_CORES, "N",
	                "run get_cpu_id() 0..N-1 (1 to 8) over one destination tensor"),
	Q7_ARGS_VALUE_H("--out-shape", OPT_OUT_SHAPE, "D0,D1,...",
	                "the destination's shape (else the returned tensor's; with --cores, the "
	                "first tensor argument's)"),
	Q7_ARGS_VALUE_H("--out-dtype", OPT_OUT_DTYPE, "TYPE",
	                "the destination's dtype: float32, bfloat16, float16, int32, ..."),
	Q7_ARGS_VALUE_H("--heap", OPT_HEAP, "BYTES", "the kernels' heap arena (at least 65536)"),
	Q7_ARGS_VALUE_H("--timeout", OPT_TIMEOUT, "SECONDS",
	                "stop a kernel that runs longer (default 60)"),
	Q7_ARGS_VALUE_H("--profile", OPT_PROFILE, "FILE.folded|FILE.svg",
	                "with --target=emulated: write the call's instruction profile, folded "
	                "stacks or a flame graph"),
	Q7_ARGS_VALUE_H("--profile-view", OPT_PROFILE_VIEW, "device|raw",
	                "the profile's instructions as the device counts them (the default: a "
	                "soft-float or divide helper's call is one instruction of its unit) or as "
	                "the emulated core ran them"),
	Q7_ARGS_FLAG_H("--list", OPT_LIST, "print the library's ops, one TorchScript schema a line"),
	Q7_ARGS_FLAG_H("--in-process", OPT_IN_PROCESS,
	               "host: run the kernel in q7-run itself, not in a process of its own"),
	Q7_ARGS_FLAG_H("--sanitize", OPT_SANITIZE,
	               "host: run a library built with -fsanitize=address,undefined under the "
	               "sanitizers"),
	Q7_ARGS_FLAG_H("--check-uninit", OPT_CHECK_UNINIT,
	               "run the op twice, its output first filled with two patterns, and fail "
	               "naming the first element whose result differs (read before written)"),
	Q7_ARGS_FLAG_H("--semihosting-files", OPT_SEMIHOSTING,
	               "emulated: let the kernel open host files through QEMU's semihosting"),
	Q7_ARGS_VALUE_H("--guard", OPT_GUARD, "end|start",
	                "host: put the tensors' guard pages after their end (default) or before "
	                "their start"),
	Q7_ARGS_FLAG_H("-v", OPT_VERBOSE,
	               "print the result's dtype and shape and whether the op ran on a switched "
	               "stack"),
	Q7_ARGS_FLAG("--verbose", OPT_VERBOSE),
	Q7_ARGS_FLAG_H("--help", OPT_HELP, "print this help and exit"),
	Q7_ARGS_FLAG("-h", OPT_HELP),
	Q7_ARGS_FLAG_H("--version", OPT_VERSION, "print q7-run's version and exit"),
	/* Not in the help: the host library check's probe (host_elf.h). */
	Q7_ARGS_VALUE("--q7-probe", OPT_PROBE),
	Q7_ARGS_TABLE_END,
};

/* The synopsis, then every option of the table (the manual page is made
 * from this text: docs/man/README.md). */
static void usage(FILE *f)
{
	char t[256];
	q7_target_names(t, sizeof t, "|");
	fprintf(f,
	        "usage: q7-run [--target=%s] [--cores=N] [--out-shape=D0,D1,...]\n"
	        "              [--out-dtype=TYPE] [--heap=BYTES] [--timeout=SECONDS]\n"
	        "              [--guard=end|start] [--in-process] [--sanitize] [--check-uninit]\n"
	        "              [--semihosting-files] [--profile=FILE.folded|FILE.svg] [-v]\n"
	        "              LIB OP ARG... -o OUT.npy\n"
	        "       q7-run [--target=%s] [--in-process] --list LIB\n"
	        "Runs the op OP of LIB with the arguments ARG and writes its result.\n"
	        "  LIB   the library given to -o at link time (an image or a multicore manifest)\n"
	        "  OP    the op's name (relu_forward), or with its namespace (my_ops::relu_forward)\n"
	        "  ARG   a .npy file (a tensor) or a literal: 3, -2, 0.5, 1e-3, true, false\n",
	        t, t);
	q7_args_help(f, options);
}

/* Option a's value v, a number in lo..hi. 0, or -1 after saying what
 * was expected. */
static int take_uint(const char *a, const char *v, unsigned long long lo, unsigned long long hi,
                     const char *expected, unsigned long long *n)
{
	char *end;
	errno = 0;
	*n = strtoull(v, &end, 0);
	if (*v && *v != '-' && !errno && !*end && *n >= lo && *n <= hi)
		return 0;
	q7_error("%s: expected %s", a, expected);
	return -1;
}

/* --profile=FILE and --profile-view=device|raw. 0 or -1. */
static int take_profile_option(int id, const char *a, const char *v, struct options *o)
{
	if (id == OPT_PROFILE) {
		o->profile = v;
		if (!q7_prof_path_ok(o->profile)) {
			q7_error("%s: a profile is written as FILE.folded (folded stacks) or FILE.svg "
			         "(a flame graph)", a);
			return -1;
		}
	} else if (q7_prof_view_parse(v, &o->view) != 0) {
		q7_error("%s: expected --profile-view=device (a soft-float or divide helper's call "
		         "one instruction, as on a core with the unit) or --profile-view=raw (as the "
		         "emulated core counted)", a);
		return -1;
	}
	return 0;
}

/* One option of q7-run's; a is it as given, for messages. 0 or -1. */
static int take_option(int id, const char *a, const char *v, struct options *o)
{
	unsigned long long n;
	char *end;
	switch (id) {
	case OPT_OUTPUT:
	case OPT_OUT_SHAPE:
	case OPT_OUT_DTYPE: /* the values kept as given */
		*(id == OPT_OUTPUT ? &o->out : id == OPT_OUT_SHAPE ? &o->out_shape : &o->out_dtype) = v;
		break;
	case OPT_TARGET:
		o->target = v;
		if (!q7_target_find(o->target)) {
			char names[256];
			q7_target_names(names, sizeof names, NULL);
			q7_error("--target=%s: expected %s", o->target, names);
			return -1;
		}
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
	case OPT_HEAP:
		if (take_uint(a, v, 65536, (unsigned long long)1 << 32,
		              "a size in bytes, at least 65536", &n) != 0)
			return -1;
		o->heap = (size_t)n;
		break;
	case OPT_PROFILE:
	case OPT_PROFILE_VIEW:
		return take_profile_option(id, a, v, o);
	case OPT_GUARD:
		if (strcmp(v, "end") != 0 && strcmp(v, "start") != 0) {
			q7_error("%s: expected --guard=end or --guard=start", a);
			return -1;
		}
		o->guard = strcmp(v, "end") == 0 ? Q7_GUARD_END : Q7_GUARD_START;
		break;
	case OPT_SEMIHOSTING:
		/* Read where the emulated session starts QEMU
		 * (q7_emu_config_init), as PyTorch's sessions read it. */
		setenv("Q7CC_SEMIHOSTING_FILES", "1", 1);
		break;
	case OPT_LIST:
	case OPT_IN_PROCESS:
	case OPT_SANITIZE:
	case OPT_CHECK_UNINIT:
	case OPT_VERBOSE: /* the flags */
		*(id == OPT_LIST ? &o->list : id == OPT_IN_PROCESS ? &o->in_process
		  : id == OPT_SANITIZE ? &o->sanitize : id == OPT_CHECK_UNINIT ? &o->check_uninit
		                                                                : &o->verbose) = true;
		break;
	case OPT_PROBE:
		q7_host_elf_probe(v, 3); /* its pipe, given as fd 3 */
	case OPT_HELP:
	case OPT_VERSION:
		id == OPT_HELP ? usage(stdout) : q7_args_version("q7-run");
		exit(0);
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	o->target = q7_target_at(0)->name;
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
	/* What is missing first, in one line: the usage alone left it to
	 * be guessed. */
	if (o->list && o->pos.n != 1)
		q7_error("--list takes one library, not %zu arguments: q7-run --list LIB", o->pos.n);
	else if (!o->list && o->pos.n < 2)
		q7_error("%s: give the library and the op: q7-run LIB OP ARG... -o OUT.npy "
		         "(q7-run --list LIB names the ops)",
		         o->pos.n ? "no op" : "no library");
	else if (!o->list && !o->out)
		q7_error("no output file: add -o OUT.npy (the result is written there)");
	if (o->list ? o->pos.n != 1 : (o->pos.n < 2 || !o->out)) {
		usage(stderr);
		return -1;
	}
	if (o->check_uninit && !o->list && !o->out_shape && o->cores <= 1) {
		q7_error("--check-uninit needs a destination, --out-shape=D0,D1,... (without one the "
		         "runtime makes the result, zeroed, and there is nothing to check)");
		return -1;
	}
	if (o->in_process && o->timeout > 0 && strcmp(o->target, "host") == 0) {
		q7_error("--timeout cannot stop a kernel run --in-process (it runs on q7-run's own "
		         "thread): leave out --in-process (the isolated host, the default, stops it)");
		return -1;
	}
	if (!o->list && o->pos.n - 2 > Q7_MAX_ARGS) {
		q7_error("%zu arguments, at most %d", o->pos.n - 2, Q7_MAX_ARGS);
		return -1;
	}
	return 0;
}

/* The engine's options from q7-run's: on the host, in a process of its
 * own unless --in-process. */
static struct q7_engine_opts engine_opts(const struct options *o, unsigned cores)
{
	return (struct q7_engine_opts){.target = o->target, .cores = cores, .heap_size = o->heap,
	                               .timeout_s = o->timeout,
	                               .host_mode = o->in_process ? Q7_HOST_GUARDED : Q7_HOST_ISOLATED,
	                               .guard = o->guard, .forward_signals = true,
	                               .check_uninit = o->check_uninit};
}

/* --list: the library's ops, one TorchScript schema a line. */
static int list_ops(const struct options *o)
{
	struct q7_engine_opts eo = engine_opts(o, 1);
	struct q7_engine *e = NULL;
	char err[Q7_MESSAGE_SIZE];
	int n = -1;
	if (q7_engine_open(o->pos.v[0], &eo, &e, &Q7_ERR_OF(err)) == 0)
		n = q7_engine_list(e, &Q7_ERR_OF(err));
	if (n < 0)
		q7_error("%s", err);
	/* The schemas come from the library: shown as every other string
	 * from a file is (an ESC in an op's name reaches no terminal). */
	for (int i = 0; i < n; i++) {
		struct q7_strbuf line = {0};
		q7_sb_add_shown(&line, q7_engine_op_schema(e, (unsigned)i), false);
		printf("%s\n", line.s ? line.s : "");
		q7_sb_free(&line);
	}
	q7_engine_close(e);
	return n < 0 ? Q7_EXIT_ERROR : 0;
}

/* What one q7-run call holds besides its options: the call, the .npy
 * arrays its tensors borrow, the destination's buffer, the result. */
struct run {
	struct q7_strvec images; /* LIB's, one per core; empty: left to the engine */
	struct q7_call call;
	struct npy_array arrays[Q7_MAX_ARGS];
	unsigned narrays;
	void *dst_buf;
	struct q7_run_result res;
	struct q7_prof prof;
};

/* The call's arguments from ARG...: a .npy file is a tensor, else a
 * literal. 0, or -1 after a message. */
static int read_args(const struct options *o, struct run *r)
{
	for (size_t i = 2; i < o->pos.n; i++) {
		const char *s = o->pos.v[i];
		struct q7_arg *a = &r->call.args[r->call.nargs++];
		size_t n = strlen(s);
		bool npy = n > 4 && strcmp(s + n - 4, ".npy") == 0;
		/* A name ending in .npy is a file; else a literal when it reads as
		 * one (so a file named "3" does not shadow the number); else a file. */
		if (!npy && q7_run_parse_literal(s, a))
			continue;
		if (!npy && !q7_path_exists(s)) {
			q7_error("%s: not a .npy file nor a literal (3, 0.5, true; integers of 64 bits)", s);
			return -1;
		}
		struct npy_array *t = &r->arrays[r->narrays];
		struct q7_err err = Q7_ERR_GROWING;
		int rc = npy_read(s, t, &err);
		q7_err_print(&err);
		if (rc != 0)
			return -1;
		r->narrays++;
		q7_run_tensor_arg(a, t);
	}
	return 0;
}

/* The destination (get_dst_tensor), when --out-shape, --out-dtype or
 * several cores ask for one: shaped by the options, else like the first
 * tensor argument, zeroed. 0, or -1 after a message. */
static int make_dst(const struct options *o, struct run *r)
{
	if (!o->out_shape && !o->out_dtype && o->cores <= 1)
		return 0;
	const struct q7_tensor_desc *first = NULL; /* the first tensor argument */
	for (unsigned i = r->call.nargs; i-- > 0;)
		if (r->call.args[i].kind == Q7_ARG_TENSOR)
			first = &r->call.args[i].u.tensor;
	struct q7_tensor_desc *d = &r->call.dst;
	if (o->out_shape) {
		struct q7_err err = Q7_ERR_GROWING;
		int rc = q7_run_parse_shape(o->out_shape, d, &err);
		q7_err_print(&err);
		if (rc != 0)
			return -1;
	} else if (first) {
		d->ndim = first->ndim;
		memcpy(d->sizes, first->sizes, sizeof d->sizes);
	} else {
		q7_error("no tensor argument to shape the destination like: give --out-shape");
		return -1;
	}
	if (o->out_dtype) {
		int t = q7_dtype_from_name(o->out_dtype);
		if (t < 0) {
			q7_error("--out-dtype=%s: unknown dtype (float32, bfloat16, float16, int32, "
			         "int8, int64, int16, uint8, float64, bool)",
			         o->out_dtype);
			return -1;
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
		return -1;
	}
	size_t bytes = (size_t)n * q7_dtype_size(d->dtype);
	/* with a red zone after it, for the in-process mode (engine.h) */
	r->dst_buf = q7_xcalloc(1, bytes + Q7_RED_ZONE);
	d->data = (uint64_t)(uintptr_t)r->dst_buf;
	r->call.dst_room = Q7_RED_ZONE;
	r->call.dst_fresh = true; /* a new output: the fresh-output pattern on every target */
	return 0;
}

/* Checks the command against the library and builds the call: the op,
 * the target's images, the arguments and the destination. 0, or -1 after
 * a message. */
static int build_call(const struct options *o, struct run *r)
{
	const char *lib = o->pos.v[0];
	r->call.op = o->pos.v[1];
	if (strlen(r->call.op) >= Q7_MAX_OP_NAME) {
		q7_error("%s: op names are shorter than %d characters", r->call.op, Q7_MAX_OP_NAME);
		return -1;
	}
	const struct q7_target *t = q7_target_find(o->target);
	if (o->profile && !(t->can & Q7_TARGET_PROFILE)) {
		q7_error("--profile=%s: profiles come from the emulated core: add --target=emulated",
		         o->profile);
		return -1;
	}
	/* LIB read once, here, for the target check and the engine; one
	 * that cannot be read is the engine's to report, after the
	 * arguments. */
	struct q7_err why = Q7_ERR_GROWING;
	if (q7_run_images(lib, o->cores, &r->images, &why) < 0) {
		q7_err_free(&why);
		q7_sv_free(&r->images);
	} else if (q7_run_check_images(&r->images, t, &why) != 0) {
		q7_error("%s", why.msg);
		q7_err_free(&why);
		return -1;
	}
	return read_args(o, r) != 0 || make_dst(o, r) != 0 ? -1 : 0;
}

/* Runs the call on an engine of its own (profiled with --profile). 0, or
 * -1 after a message naming the op. */
static int run_call(const struct options *o, struct run *r)
{
	const char *lib = o->pos.v[0], *op = r->call.op;
	struct q7_engine_opts eo = engine_opts(o, o->cores);
	if (r->images.n)
		eo.images = (const char *const *)r->images.v;
	struct q7_engine *engine = NULL;
	char err[Q7_MESSAGE_SIZE];
	if (q7_engine_open(lib, &eo, &engine, &Q7_ERR_OF(err)) != 0) {
		q7_error("%s", err);
		return -1;
	}
	if (o->profile)
		q7_engine_profile(engine, &r->prof, Q7_PROF_ROOT);
	if (o->sanitize)
		q7_sanitize_name_op(op);
	int rc = 0;
	if (q7_engine_call(engine, &r->call, &r->res) != 0 || r->res.status != Q7_STATUS_OK) {
		/* The runtime names the op; a damaged one may not. A missing op
		 * is the library's fault ("no op 'x' in this library; its ops:
		 * ..."), so the library is named first, as for other refusals. */
		if (!r->res.message[0])
			q7_error("%s: %s: the op failed without a message", lib, op);
		else if (r->res.status == Q7_STATUS_NO_SUCH_OP)
			q7_error("%s: %s", lib, r->res.message);
		else if (strstr(r->res.message, op))
			q7_error("%s", r->res.message);
		else
			q7_error("%s: %s", op, r->res.message);
		rc = -1;
	} else if (r->res.message[0]) { /* once: the engine keeps one core's */
		q7_warning("%s", r->res.message);
	}
	q7_engine_close_at_exit(engine);
	return rc;
}

/* --profile=FILE: the call's profile written, in the view asked for. 0,
 * or -1 after a message. */
static int write_profile(const struct options *o, struct run *r)
{
	char err[Q7_MESSAGE_SIZE];
	bool device = o->view == Q7_PROF_VIEW_DEVICE;
	char *title = q7_xasprintf("%s on %u emulated core%s (%s)", r->call.op, o->cores,
	                           o->cores == 1 ? "" : "s",
	                           device ? "device view: a float or divide helper's call one "
	                                    "instruction" : "raw: as emulated");
	struct q7_prof dev;
	q7_prof_init(&dev);
	q7_prof_device_view(&r->prof, &dev);
	struct q7_prof *shown = device ? &dev : &r->prof;
	int w = q7_prof_write(shown, o->profile, title, &Q7_ERR_OF(err));
	free(title);
	if (w != 0)
		q7_error("%s", err);
	else if (o->verbose)
		q7_note("%s: profile: %llu instructions in the %s view (device %llu, raw %llu) in "
		        "%zu frames, written to %s", r->call.op,
		        (unsigned long long)q7_prof_sum(shown), device ? "device" : "raw",
		        (unsigned long long)q7_prof_sum(&dev), (unsigned long long)q7_prof_sum(&r->prof),
		        shown->n - 1, o->profile);
	q7_prof_free(&dev);
	return w != 0 ? -1 : 0;
}

/* -v: what ran and what came back. */
static void note_result(const struct options *o, const struct run *r)
{
	const struct q7_run_result *res = &r->res;
	struct q7_strbuf b = {0};
	for (unsigned i = 0; i < res->out.ndim; i++)
		q7_sb_addf(&b, "%s%u", i ? "," : "", res->out.sizes[i]);
	q7_note("%s: ok on %u core%s (%s): %s[%s], switched stack: %s", r->call.op, o->cores,
	        o->cores == 1 ? "" : "s", o->target, q7_dtype_to_name((enum q7_dtype)res->out.dtype),
	        b.s ? b.s : "", res->switched_stack ? "yes" : "no");
	q7_sb_free(&b);
}

/* A folder named as OUT.npy or the profile is refused before any work
 * (docs/robustness.md): the call ran, and -o was written, before the
 * profile's folder was found. */
static int outputs_ok(const struct options *o)
{
	const char *const outs[] = {o->out, o->profile};
	for (size_t i = 0; i < 2; i++) {
		if (outs[i] && q7_output_kind(outs[i]) == Q7_OUTPUT_DIR) {
			q7_error("%s: cannot create: %s", outs[i], strerror(EISDIR));
			return -1;
		}
	}
	return 0;
}

/* Builds the call, runs it, writes OUT.npy (and the profile). */
static int run_op(const struct options *o, struct run *r)
{
	if (outputs_ok(o) != 0)
		return Q7_EXIT_IO;
	if (build_call(o, r) != 0 || run_call(o, r) != 0)
		return Q7_EXIT_ERROR;
	const struct q7_run_result *res = &r->res;
	const void *out_data = res->out_data ? res->out_data : r->dst_buf;
	struct q7_err err = Q7_ERR_GROWING;
	int rc = npy_write(o->out, (enum q7_dtype)res->out.dtype, res->out.ndim, res->out.sizes,
	                   out_data, &err);
	q7_err_print(&err);
	if (rc != 0)
		return Q7_EXIT_IO;
	if (o->profile && write_profile(o, r) != 0)
		return Q7_EXIT_IO;
	if (o->verbose)
		note_result(o, r);
	return 0;
}

/* --sanitize: q7-run again with the sanitizers' runtimes (sanitize.h);
 * returns only on failure (-1 after a message), or 0 in the q7-run it
 * started. */
static int sanitize(const struct options *o, int argc)
{
	if (!(q7_target_find(o->target)->can & Q7_TARGET_SANITIZE)) {
		q7_error("--sanitize runs host kernels (the emulated core has no sanitizers)");
		return -1;
	}
	if (q7_sanitize_started())
		return 0;
	struct q7_strvec images = {0};
	struct q7_err why = Q7_ERR_GROWING;
	char err[Q7_MESSAGE_SIZE];
	if (q7_run_images(o->pos.v[0], o->cores, &images, &why) < 0)
		q7_error("%s", why.msg);
	else if (q7_sanitize_exec(&images, argc, &Q7_ERR_OF(err)) != 0)
		q7_error("%s", err);
	q7_err_free(&why);
	q7_sv_free(&images);
	return -1;
}

int q7_run_main(int argc, char **argv)
{
	struct options o = {0};
	int rc = Q7_EXIT_USAGE;
	bool parsed = parse_options(argc, argv, &o) == 0;
	if (parsed && o.sanitize && sanitize(&o, argc) != 0) {
		rc = Q7_EXIT_ERROR;
	} else if (parsed && o.list) {
		rc = list_ops(&o);
	} else if (parsed) {
		struct run *r = q7_xcalloc(1, sizeof *r);
		q7_prof_init(&r->prof);
		rc = run_op(&o, r);
		q7_run_result_free(&r->res);
		q7_prof_free(&r->prof);
		for (unsigned i = 0; i < r->narrays; i++)
			npy_free(&r->arrays[i]);
		free(r->dst_buf);
		q7_sv_free(&r->images);
		free(r);
	}
	q7_sv_free(&o.pos);
	return rc;
}
