/* A test helper: runs q7_analyze on one source and prints what came out,
 * one op per line as "schema | ctypes | stack | defined | file:line:col",
 * then the diagnostics. Also times the call (-t), for the report.
 *
 *   q7analyze-dump [-t] [-T triple] [-p toolchain] [-k name] [-s sysdir]...
 *                  source [-- clang args...] */
#include "analysis.h"
#include "schema.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct q7_analysis_opts o = {.triple = "i386-unknown-none", .toolchain = "gnu"};
	struct q7_strvec sys = {0}, kn = {0}, args = {0};
	bool timing = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-t") == 0)
			timing = true;
		else if (strcmp(argv[i], "-T") == 0 && i + 1 < argc)
			o.triple = argv[++i];
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			o.toolchain = argv[++i];
		else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
			q7_sv_add(&kn, argv[++i]);
		else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			q7_sv_add(&sys, argv[++i]);
	}
	if (i >= argc) {
		fprintf(stderr, "usage: q7analyze-dump [-t] [-T triple] [-p toolchain] [-k name] "
		                "[-s sysdir] source [-- args]\n");
		return 2;
	}
	o.source = argv[i++];
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	for (; i < argc; i++)
		q7_sv_add(&args, argv[i]);
	q7_sv_add(&args, "-std=c++14");
	o.clang_args = args.v;
	o.sys_includes = sys.v;
	o.kernel_names = kn.v;

	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool needed = q7_prescan(&o, NULL);
	struct q7_err err = Q7_ERR_GROWING;
	int rc = needed ? q7_analyze(&o, &ops, &diags, &err) : 0;
	q7_err_print(&err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (size_t k = 0; k < ops.n; k++) {
		const struct q7_op *op = &ops.ops[k];
		struct q7_strbuf b = {0};
		q7_schema_print(op, NULL, &b);
		printf("%s | %s(", b.s, op->ret_ctype);
		for (size_t p = 0; p < op->nparams; p++)
			printf("%s%s", p ? ", " : "", op->params[p].ctype);
		printf(") | %u | %s | %s:%u:%u\n", op->stack_size, op->defined ? "def" : "decl",
		       op->file, op->line, op->col);
		q7_sb_free(&b);
	}
	q7_diags_print(&diags, stdout, &(struct q7_diag_render){.style = Q7_DIAG_CLANG});
	if (timing)
		fprintf(stderr, "needed=%d rc=%d time=%.1f ms\n", needed, rc,
		        (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	q7_ops_free(&ops);
	q7_diags_free(&diags);
	q7_sv_free(&sys);
	q7_sv_free(&kn);
	q7_sv_free(&args);
	return rc < 0 ? 1 : 0;
}
