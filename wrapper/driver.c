/* The driver's entry: parse, choose the toolchain, run the mode. */
#include "driver.h"
#include "modes.h"
#include "proc.h"
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* q7cc's own options and tools, for --q7-help and the manual page
 * (made from --q7-help: docs/man/README.md). Shown, never parsed: the
 * option table (options.c) parses them; e2e.man_pages checks that every
 * --q7- option of it is here. */
static const struct q7_args_opt own_options[] = {
	Q7_ARGS_VALUE_H("--q7-toolchain", 1, "xt|gnu|host",
	                "the toolchain profile (else the name q7cc-xt, q7cc-gnu or q7cc-host, else "
	                "$Q7_TOOLCHAIN, else detected: xt, then gnu)"),
	Q7_ARGS_FLAG_H("--q7-multicore", 2, "link eight images <base>_cpuN.so; -o names a manifest"),
	Q7_ARGS_FLAG_H("--q7-pack", 3, "strip and pack the image(s) under -g too"),
	Q7_ARGS_VALUE_H("--q7-kernel", 4, "NAME[,NAME...]", "NAME is a kernel even without Q7_KERNEL"),
	Q7_ARGS_VALUE_H("--q7-emit-wrapper", 5, "FILE",
	                "also write the generated wrapper.cpp to FILE"),
	Q7_ARGS_FLAG_H("--q7-print-schema FILES...", 6,
	               "print the schemas of sources, objects, archives and .schemas files"),
	Q7_ARGS_FLAG_H("--q7-lint FILES...", 7, "analyse and report without compiling"),
	Q7_ARGS_VALUE_H("--q7-format", 8, "text|json|sarif",
	                "the output of --q7-lint and --q7-print-schema"),
	Q7_ARGS_FLAG_H("--q7-memory-map IMAGE [-o MAP.svg]", 9,
	               "print each core's SRAM window, the image's sections, the ops' largest "
	               "stack and what is free; -o draws it (q7cc --q7-memory-map --help)"),
	Q7_ARGS_FLAG_H("--q7-run ARGS...", 10, "run an op: q7-run ARGS... (q7-run --help)"),
	Q7_ARGS_FLAG_H("--q7-prelink ARGS...", 11,
	               "place a packed image at a core's window: q7-prelink ARGS..."),
	Q7_ARGS_FLAG_H("--q7-pkg-loadlib ARGS...", 12,
	               "strip and pack an image: q7-pkg-loadlib ARGS..."),
	Q7_ARGS_FLAG_H("-W[no-][error=]q7-RULE", 13,
	               "q7cc's lint rules (not given to the compiler; docs/lint-rules.md)"),
	Q7_ARGS_FLAG_H("-###", 14, "print every step, run nothing; -v: print and run"),
	Q7_ARGS_FLAG_H("--q7-help", 15, "print this help and exit"),
	Q7_ARGS_FLAG_H("--version", 16,
	               "print the real compiler's version, then q7cc's own line, and exit"),
	Q7_ARGS_TABLE_END,
};

static void usage(void)
{
	fputs("usage: q7cc [compiler options] FILES...   (stands in for xt-clang++)\n"
	      "\n"
	      "Modes, as a compiler: -c (compile + analyse + attach schema records),\n"
	      "-shared (link the device image(s): wrapper, link, strip, pack),\n"
	      "-fsyntax-only (check + analyse), -E (preprocess; the kernels' records ride\n"
	      "along in the output for a later -c of it); -S, plain executable links and\n"
	      "--version etc. pass through.\n"
	      "\n",
	      stdout);
	q7_args_help(stdout, own_options);
	char *doc = q7_doc_path("driver.md");
	printf("\nEnvironment: Q7_TOOLCHAIN, Q7CC_REAL_CXX (the real compiler to run),\n"
	       "Q7CC_JOBS (parallel links), Q7CC_SAVE_TEMPS=1 (keep temporaries),\n"
	       "NEURON_CUSTOM_OP, Q7_CORE, Q7_TOOLS, XTENSA_TOOLS, LM_LICENSE_FILE (xt).\n"
	       "The manual: %s\n",
	       doc);
	free(doc);
}

/* The warning options (docs/driver.md, "Options and environment"): 0 or
 * the exit code of an unknown q7 name's errors. */
static int take_warnings(struct q7_drv *d)
{
	int rc = 0;
	for (size_t i = 0; i < d->inv.n; i++) {
		struct q7_unit *u = &d->inv.u[i];
		if (q7_unit_id(u) != Q7_ID_WARN)
			continue;
		struct q7_wflag w;
		q7_wflag_parse(u->tok[0], &w);
		if (w.kind == Q7_W_ERRORS || w.kind == Q7_W_NO_ERRORS)
			d->policy.werror = w.kind == Q7_W_ERRORS;
		else if (w.kind == Q7_W_NONE)
			d->policy.suppress_all = true;
		if (!w.q7)
			continue;
		u->q7_only = true;
		if (q7_warn_policy_rule(&d->policy, w.name, w.no, w.error))
			continue;
		/* -### checks nothing it does not run; --version and the like
		 * pass through, as with GCC. */
		if (d->inv.dry_run || d->inv.mode == Q7_MODE_INFO || d->inv.mode == Q7_MODE_HELP)
			continue;
		if (w.error) {
			q7_error("'%s': no option '-W%s'", u->tok[0], w.name);
			rc = Q7_EXIT_ERROR;
		} else if (w.no) {
			q7_sv_add(&d->unknown_no, u->tok[0]);
		} else {
			q7_error("unrecognized command-line option '%s'", u->tok[0]);
			rc = Q7_EXIT_ERROR;
		}
	}
	return rc;
}

/* --q7-kernel names kernels of the sources it compiles; a link of objects
 * alone has none. */
static void check_kernel_flag(const struct q7_drv *d)
{
	enum q7_mode m = d->inv.mode;
	if (!d->inv.kernels.n || d->inv.nsources ||
	    (m != Q7_MODE_LINK_SHARED && m != Q7_MODE_LINK_EXE))
		return;
	for (size_t i = 0; i < d->inv.n; i++)
		if (q7_unit_id(&d->inv.u[i]) == Q7_ID_Q7_KERNEL)
			q7_warning("%s: unused on a link without sources: it names kernels in the "
			           "sources it compiles (give it to their compiles)",
			           d->inv.u[i].tok[0]);
}

const char *q7_drv_lto(const struct q7_drv *d)
{
	const char *lto = NULL;
	for (size_t i = 0; i < d->inv.n; i++) {
		const struct q7_unit *u = &d->inv.u[i];
		if (u->input || !u->tok[0])
			continue;
		const char *t = u->tok[0];
		if (strcmp(t, "-flto") == 0 || strncmp(t, "-flto=", 6) == 0)
			lto = t;
		else if (strcmp(t, "-fno-lto") == 0)
			lto = NULL;
	}
	return lto;
}

int q7_drv_refuse_lto(const char *what, const char *lto)
{
	q7_error("%s: %s: link-time optimisation is not supported for custom-op kernels (the "
	         "device image's link needs code, not IR, in the kernels' objects and the "
	         "generated wrapper); drop it for the kernels (CMake: INTERPROCEDURAL_OPTIMIZATION "
	         "OFF for this target)", what, lto);
	return Q7_EXIT_USAGE;
}

/* What follows the real compiler's --version and --help: CMake reads the
 * first line of --version, which stays the compiler's. */
static void after_info(const struct q7_drv *d)
{
	for (size_t i = 0; i < d->inv.n; i++) {
		enum q7_opt_id id = q7_unit_id(&d->inv.u[i]);
		if (id == Q7_ID_VERSION)
			printf("q7cc %s (profile %s), standing in for xt-clang++\n", Q7CC_VERSION,
			       d->tc.name);
		else if (id == Q7_ID_HELP)
			printf("\nq7cc's own options: q7cc --q7-help\n");
		else
			continue;
		fflush(stdout);
		return;
	}
}

/* `-E -v`: a target clang knows, before the compiler's own (docs/driver.md,
 * "clangd and clang-tidy"; toolchain.h, editor_triple). */
static void name_parse_target(const struct q7_drv *d)
{
	if (d->inv.mode != Q7_MODE_PREPROCESS || !d->verbose || d->dry)
		return;
	q7_step_note(d, "profile %s; clang-based tools parse its code for this target:",
	             d->tc.name);
	fprintf(stderr, "Target: %s\n", d->tc.editor_triple);
	fflush(stderr);
}

static bool spawns_compiler(enum q7_mode m)
{
	return m != Q7_MODE_LINT && m != Q7_MODE_SCHEMA && m != Q7_MODE_HELP;
}

/* The compiler's line: passed through (--version, an executable link),
 * or forwarded (-S and the like) with what its C++ sources take from q7cc. */
static int run_line(struct q7_drv *d, bool forward)
{
	struct q7_strvec cmd = {0};
	if (forward)
		q7_cmd_forward(&d->tc, &d->inv, q7_drv_line_use(d), &cmd);
	else
		q7_cmd_passthrough(&d->tc, &d->inv, NULL, NULL, &cmd);
	int rc = q7_step_run(d, cmd.v, NULL);
	q7_sv_free(&cmd);
	return rc;
}

static int dispatch(struct q7_drv *d)
{
	switch (d->inv.mode) {
	case Q7_MODE_INFO: {
		int rc = run_line(d, false);
		if (rc == 0 && !d->dry)
			after_info(d);
		return rc;
	}
	case Q7_MODE_LINK_EXE: return run_line(d, false);
	case Q7_MODE_PREPROCESS:
		name_parse_target(d);
		return q7_mode_preprocess(d);
	case Q7_MODE_ASSEMBLE: return run_line(d, true);
	case Q7_MODE_SYNTAX: return q7_mode_syntax(d);
	case Q7_MODE_COMPILE: return q7_mode_compile(d);
	case Q7_MODE_LINK_SHARED: return q7_mode_link(d);
	case Q7_MODE_LINT: return q7_mode_lint(d);
	case Q7_MODE_SCHEMA: return q7_mode_schema(d);
	case Q7_MODE_HELP: usage(); return 0;
	}
	return Q7_EXIT_INTERNAL;
}

int q7_driver_main(int argc, char **argv)
{
	const char *argv0 = argc > 0 ? argv[0] : "q7cc";
	const char *active = getenv("Q7CC_ACTIVE");
	if (active && *active) {
		q7_error("%s was started by q7cc itself (Q7CC_ACTIVE=%s): the compiler q7cc runs "
		         "leads back to q7cc; put the real compiler first on PATH or name it "
		         "with Q7CC_REAL_CXX", q7_path_basename(argv0), active);
		return Q7_EXIT_TOOL;
	}
	struct q7_strvec args = {0};
	q7_expand_response_files(argc > 0 ? argc - 1 : 0, argv + (argc > 0), &args);
	struct q7_drv d = {0};
	int rc = q7_inv_parse(&d.inv, args.v, args.n);
	if (rc)
		goto out;
	rc = take_warnings(&d);
	if (rc)
		goto out;
	check_kernel_flag(&d);
	d.dry = d.inv.dry_run;
	d.verbose = d.inv.verbose;
	if (d.inv.mode != Q7_MODE_HELP) {
		rc = q7_toolchain_select(&d.tc, d.inv.toolchain, argv0);
		if (rc)
			goto out;
	}
	if (!d.dry && spawns_compiler(d.inv.mode) && !d.tc.found) {
		q7_error("%s: compiler not found (profile %s)%s", d.tc.cxx, d.tc.name,
		         d.tc.kind == Q7_TOOLCHAIN_XT
		             ? ": set XTENSA_TOOLS to the XtensaTools install, or use "
		               "--q7-toolchain=gnu"
		             : "");
		rc = Q7_EXIT_TOOL;
		goto out;
	}
	const char *c_src = NULL; /* the first C source: the C compiler compiles it */
	for (size_t i = 0; i < d.inv.n && !c_src; i++)
		if (d.inv.u[i].input == Q7_IN_C)
			c_src = d.inv.u[i].tok[0];
	if (!d.dry && spawns_compiler(d.inv.mode) && c_src && !d.tc.cc_found) {
		q7_error("%s: no C compiler for it: %s not found (profile %s)%s", c_src, d.tc.cc,
		         d.tc.name,
		         getenv("Q7CC_REAL_CC") ? "" : "; Q7CC_REAL_CC names one");
		rc = Q7_EXIT_TOOL;
		goto out;
	}
	if (!d.dry) {
		q7_proc_signals_install();
		if (d.inv.mode != Q7_MODE_HELP)
			q7_toolchain_export_env(&d.tc);
	}
	rc = dispatch(&d);
out:
	if (d.have_sysinfo)
		q7_sysinfo_free(&d.sys);
	q7_warn_policy_free(&d.policy);
	q7_sv_free(&d.unknown_no);
	q7_toolchain_free(&d.tc);
	q7_inv_free(&d.inv);
	q7_sv_free(&args);
	return rc;
}
