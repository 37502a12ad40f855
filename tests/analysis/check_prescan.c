/* q7_prescan: the textual pre-scan that keeps libclang unloaded
 * for TUs without kernels. Builds small trees of sources and headers. */
#include "analysis.h"

#include "run_suite.h"

#include <check.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/q7prescanXXXXXX";

static char *put(const char *rel, const char *text)
{
	char *path = q7_path_join(root, rel);
	char *dir = q7_path_dirname(path);
	mkdir(dir, 0755); /* one level is enough for these trees */
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(dir);
	return path;
}

static bool needed(const char *src_rel, const char *const *args, const char *const *sys,
                   const char *const *names)
{
	char *src = q7_path_join(root, src_rel);
	struct q7_analysis_opts o = {
		.source = src,
		.clang_args = (char *const *)args,
		.sys_includes = (char *const *)sys,
		.kernel_names = (char *const *)names,
	};
	bool r = q7_prescan(&o, NULL);
	free(src);
	return r;
}

static char *dir(const char *rel)
{
	return q7_path_join(root, rel);
}

START_TEST(plain_and_marked)
{
	free(put("plain.cpp", "#include <stdio.h>\nint main() { return 0; }\n"));
	ck_assert(!needed("plain.cpp", NULL, NULL, NULL));
	free(put("marked.cpp", "Q7_KERNEL at::Tensor k(at::Tensor x);\n"));
	ck_assert(needed("marked.cpp", NULL, NULL, NULL));
	free(put("stack.cpp", "Q7_KERNEL_STACK(100) at::Tensor k(at::Tensor x);\n"));
	ck_assert(needed("stack.cpp", NULL, NULL, NULL));
	free(put("attr.cpp", "__attribute__((annotate(\"q7.kernel\"))) int k();\n"));
	ck_assert(needed("attr.cpp", NULL, NULL, NULL));
	free(put("neuron.cpp", "NEURON_LIBRARY(ops, m) { m.def(\"a\", &b, \"c\"); }\n"));
	ck_assert(needed("neuron.cpp", NULL, NULL, NULL));
	/* Prose does not count. */
	free(put("comment.cpp", "// Q7_KERNEL here\n/* NEURON_LIBRARY\n annotate */\n"
	                        "const char *s = \"Q7_KERNEL\"; char c = '\"';\n"
	                        "const char *r = R\"x(Q7_KERNEL \" )x\";\nint f();\n"));
	ck_assert(!needed("comment.cpp", NULL, NULL, NULL));
	/* Names from --q7-kernel, as whole identifiers. */
	free(put("named.cpp", "at::Tensor relu_forward(at::Tensor x);\n"));
	ck_assert(needed("named.cpp", NULL, NULL, (const char *const[]){"relu_forward", NULL}));
	ck_assert(needed("named.cpp", NULL, NULL, (const char *const[]){"ops::relu_forward", NULL}));
	ck_assert(!needed("named.cpp", NULL, NULL, (const char *const[]){"relu", NULL}));
	ck_assert(!needed("missing.cpp", NULL, NULL, NULL));
	/* Definitions and conditionals are no uses; a macro body is. */
	free(put("defs.cpp", "#ifndef NEURON_LIBRARY\n#define NEURON_LIBRARY(ns, m) \\\n"
	                     "  void init_##ns(Lib &m)\n#endif\n#undef Q7_KERNEL\n"
	                     "#if defined(Q7_KERNEL) || \\\n defined(annotate)\n#endif\nint f();\n"));
	ck_assert(!needed("defs.cpp", NULL, NULL, NULL));
	free(put("wrapdef.cpp", "#define MY_KERNEL Q7_KERNEL\nMY_KERNEL at::Tensor k(at::Tensor);\n"));
	ck_assert(needed("wrapdef.cpp", NULL, NULL, NULL));
}
END_TEST

START_TEST(headers)
{
	free(put("inc/k.h", "#pragma once\nQ7_KERNEL at::Tensor k(at::Tensor x);\n"));
	free(put("inc/mid.h", "#pragma once\n#include <k.h>\n"));
	free(put("via_quote.cpp", "#include \"inc/k.h\"\n"));
	ck_assert(needed("via_quote.cpp", NULL, NULL, NULL));
	char *inc = dir("inc");
	/* <mid.h> then <k.h>, both through -I, in both spellings */
	free(put("via_angle.cpp", "  #  include <mid.h>\n"));
	ck_assert(!needed("via_angle.cpp", NULL, NULL, NULL));
	ck_assert(needed("via_angle.cpp", (const char *const[]){"-I", inc, NULL}, NULL, NULL));
	char *joined = q7_xasprintf("-I%s", inc);
	ck_assert(needed("via_angle.cpp", (const char *const[]){joined, NULL}, NULL, NULL));
	char *iq = q7_xasprintf("-iquote%s", inc);
	free(put("via_iquote.cpp", "#include \"mid.h\"\n"));
	ck_assert(!needed("via_iquote.cpp", (const char *const[]){iq, NULL}, NULL, NULL)); /* <k.h> not via -iquote */
	ck_assert(needed("via_iquote.cpp", (const char *const[]){iq, "-I", inc, NULL}, NULL, NULL));
	/* The same directory as a system one is never read. */
	ck_assert(!needed("via_angle.cpp", (const char *const[]){"-isystem", inc, "-I", inc, NULL}, NULL, NULL));
	ck_assert(!needed("via_angle.cpp", (const char *const[]){"-I", inc, NULL},
	                  (const char *const[]){inc, NULL}, NULL));
	/* The TU itself is read wherever it lives. */
	ck_assert(needed("inc/k.h", (const char *const[]){"-isystem", inc, NULL}, NULL, NULL));
	/* -include */
	char *kh = dir("inc/k.h");
	ck_assert(needed("plain.cpp", (const char *const[]){"-include", kh, NULL}, NULL, NULL));
	/* Read by the driver's option table: --include-directory's next word,
	 * and -include-pch (its own option) no -include. */
	ck_assert(needed("via_angle.cpp", (const char *const[]){"--include-directory", inc, NULL},
	                 NULL, NULL));
	ck_assert(!needed("plain.cpp", (const char *const[]){"-include-pch", kh, NULL}, NULL, NULL));
	/* Include cycles end. */
	free(put("cyc/a.h", "#include \"b.h\"\n"));
	free(put("cyc/b.h", "#include \"a.h\"\n#include \"../inc/k.h\"\n"));
	free(put("cycle.cpp", "#include \"cyc/a.h\"\n"));
	ck_assert(needed("cycle.cpp", NULL, NULL, NULL));
	free(put("cyc2/a.h", "#include \"b.h\"\n"));
	free(put("cyc2/b.h", "#include \"a.h\"\n"));
	free(put("cycle2.cpp", "#include \"cyc2/a.h\"\n"));
	ck_assert(!needed("cycle2.cpp", NULL, NULL, NULL));
	free(kh);
	free(iq);
	free(joined);
	free(inc);
}
END_TEST

START_TEST(own_headers_skipped)
{
	/* <prefix>/include/q7cc holds <q7/kernel.h>, which says Q7_KERNEL
	 * and annotate: including it alone must not trigger analysis. */
	char *prefix = dir("prefix");
	mkdir(prefix, 0755);
	char *p1 = dir("prefix/include");
	mkdir(p1, 0755);
	char *p2 = dir("prefix/include/q7cc");
	mkdir(p2, 0755);
	char *p3 = dir("prefix/include/q7cc/q7");
	mkdir(p3, 0755);
	free(put("prefix/include/q7cc/q7/kernel.h", "#define Q7_KERNEL __attribute__((annotate(\"q7.kernel\")))\n"));
	free(put("own.cpp", "#include <q7/kernel.h>\nint f();\n"));
	ck_assert(!needed("own.cpp", (const char *const[]){"-I", p2, NULL}, NULL, NULL));
	free(prefix);
	free(p1);
	free(p2);
	free(p3);
}
END_TEST

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Preprocessed text that another preprocessor made: a warning when the
 * line markers show the headers whose marks it drops. */
static bool lost(const char *rel, const char *text, char **message)
{
	char *path = put(rel, text);
	struct q7_diags ds = {0};
	bool r = q7_preprocessed_lost_marks(path, "shown.ii", &ds);
	ck_assert_uint_eq(ds.n, r ? 1 : 0);
	if (r) {
		ck_assert_str_eq(ds.d[0].file, "shown.ii");
		ck_assert_str_eq(ds.d[0].rule, "q7-foreign-preprocessed");
		ck_assert_int_eq(ds.d[0].severity, Q7_SEV_WARNING);
		if (message)
			*message = q7_xstrdup(ds.d[0].message);
	}
	q7_diags_free(&ds);
	free(path);
	return r;
}

/* q7_prescan's second answer: whether the TU uses q7cc at all (the host
 * toolchain adds its flags only then; docs/driver.md, "Pass-through"). */
static bool uses(const char *src_rel, const char *const *args)
{
	char *src = q7_path_join(root, src_rel);
	struct q7_analysis_opts o = {.source = src, .clang_args = (char *const *)args};
	bool own = false;
	bool marks = q7_prescan(&o, &own);
	free(src);
	ck_assert(!marks || own);
	return own;
}

START_TEST(uses_q7cc)
{
	free(put("u_plain.cpp", "#include <optional>\n#include <torch/torch.h>\nint f();\n"));
	ck_assert(!uses("u_plain.cpp", NULL));
	free(put("u_kernel.cpp", "Q7_KERNEL at::Tensor k(at::Tensor x);\n"));
	ck_assert(uses("u_kernel.cpp", NULL));
	/* q7cc's API without kernels, directly and through a user header. */
	free(put("u_api.cpp", "#include <q7/tensor.h>\nint f();\n"));
	ck_assert(uses("u_api.cpp", NULL));
	free(put("uinc/helper.h", "#include <torchneuron/register.h>\n"));
	free(put("u_via.cpp", "#include \"uinc/helper.h\"\nint f();\n"));
	ck_assert(uses("u_via.cpp", NULL));
	/* Even when found in a folder the scan skips (q7cc's, -isystem). */
	char *sys = dir("usys");
	const char *args[] = {"-isystem", sys, "-I", sys, NULL};
	mkdir(sys, 0755);
	free(put("usys/neuron/x.h", "int y;\n"));
	free(put("u_sys.cpp", "#include <neuron/x.h>\n"));
	ck_assert(uses("u_sys.cpp", args));
	free(sys);
}
END_TEST

START_TEST(preprocessed_text)
{
	const char *gcc = "# 0 \"k.cpp\"\n# 1 \"/usr/include/q7cc/q7/kernel.h\" 1\n"
	                  "# 3 \"k.cpp\" 2\n torch::Tensor k(const torch::Tensor &x);\n";
	char *msg = NULL;
	ck_assert(lost("gcc.ii", gcc, &msg));
	ck_assert_ptr_nonnull(strstr(msg, "Q7_KERNEL marks"));
	ck_assert_ptr_null(strstr(msg, "NEURON_LIBRARY"));
	free(msg);
	/* clang -E keeps the annotate attribute: nothing lost. */
	ck_assert(!lost("clang.ii", "# 1 \"inc/q7/kernel.h\" 1\n# 3 \"k.cpp\" 2\n"
	                            "__attribute__((annotate(\"q7.kernel\"))) at::Tensor k();\n",
	                NULL));
	/* NEURON_LIBRARY is a macro under every preprocessor. */
	msg = NULL;
	ck_assert(lost("shape.ii", "#line 1 \"/x/torchneuron/register.h\"\nstatic void "
	                           "q7_neuron_library_ops(torch::neuron::Library &m);\n",
	               &msg));
	ck_assert_ptr_nonnull(strstr(msg, "NEURON_LIBRARY"));
	free(msg);
	/* Text without those headers has nothing to lose; lookalike names do
	 * not count. */
	ck_assert(!lost("plain.ii", "# 1 \"a.cpp\"\nint f();\n", NULL));
	ck_assert(!lost("like.ii", "# 1 \"/x/myq7/kernel.h\" 1\n# 9 \"q7/kernel.hpp\"\n", NULL));
	struct q7_diags ds = {0};
	ck_assert(!q7_preprocessed_lost_marks("/nonexistent/x.ii", "x.ii", &ds));
	ck_assert_uint_eq(ds.n, 0);
}
END_TEST

int main(void)
{
	if (!mkdtemp(root))
		return 1;
	/* q7_prefix() is computed once: point it into the tree first. */
	char *prefix = q7_path_join(root, "prefix");
	setenv("Q7CC_PREFIX", prefix, 1);
	free(prefix);
	Suite *s = suite_create("analysis-prescan");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, plain_and_marked);
	tcase_add_test(tc, headers);
	tcase_add_test(tc, own_headers_skipped);
	tcase_add_test(tc, preprocessed_text);
	tcase_add_test(tc, uses_q7cc);
	suite_add_tcase(s, tc);
	int failed = run_suite(s, false);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return failed;
}
