/* Table-driven argv tests: each invocation is classified in-process
 * (q7_inv_parse) and its child commands are checked, byte for byte, from
 * the real q7cc's -### output. Also the xt toolchain against the vendor
 * commands of docs/vendor-flow.md ("Compile flags", "Link matrix"),
 * written out by hand. */
#include "cmdline.h"
#include "support.h"

#include <check.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct argv_case {
	const char *name;
	const char *tool;
	enum q7_mode mode;
	const char *argv[24];
	const char *expect;
};

#include "argv_cases.h"

#define NCASES (sizeof cases / sizeof cases[0])

/* Runs q7cc with args; returns its stderr, sets *status. */
static char *run_q7cc(char *const *args, int *status)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	pid_t pid;
	ck_assert_int_eq(posix_spawn(&pid, Q7CC_EXE, &fa, NULL, args, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	char buf[4096];
	ssize_t n;
	while ((n = read(p[0], buf, sizeof buf)) > 0)
		q7_sb_addn(&b, buf, (size_t)n);
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, status, 0), pid);
	return q7_sb_take(&b);
}

static void replace_all(struct q7_strbuf *out, const char *in, const char *const *pairs)
{
	for (const char *s = in; *s;) {
		bool hit = false;
		for (size_t i = 0; pairs[i]; i += 2) {
			size_t n = strlen(pairs[i]);
			if (strncmp(s, pairs[i], n) == 0) {
				q7_sb_add(out, pairs[i + 1]);
				s += n;
				hit = true;
				break;
			}
		}
		if (!hit)
			q7_sb_addc(out, *s++);
	}
}

static char *prefix(void)
{
	char *bin = q7_path_dirname(Q7CC_EXE);
	char *p = q7_path_dirname(bin);
	free(bin);
	return p;
}

static char *expected(const char *pattern)
{
	char *gxx = q7_path_search("xtensa-lx106-elf-g++", NULL);
	char *cxx = q7_path_search("c++", NULL);
	char *p = prefix();
	/* The cross ld and gcc, beside the cross g++; cc beside c++. */
	char *ld = gxx ? q7_xasprintf("%.*sld", (int)strlen(gxx) - 3, gxx) : q7_xstrdup("?");
	char *gcc = gxx ? q7_xasprintf("%.*sgcc", (int)strlen(gxx) - 3, gxx) : q7_xstrdup("?");
	char *cc = cxx ? q7_xasprintf("%.*scc", (int)strlen(cxx) - 3, cxx) : q7_xstrdup("?");
	const char *const pairs[] = {"@GXX@", gxx ? gxx : "?", "@GCC@", gcc, "@LD@", ld,
	                             "@CXX@", cxx ? cxx : "?", "@CC@", cc, "@P@", p,
	                             "@TMP@", "/tmp/q7cc.XXXXXX", NULL};
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	replace_all(&b, pattern, pairs);
	free(gxx);
	free(ld);
	free(gcc);
	free(cc);
	free(cxx);
	free(p);
	return q7_sb_take(&b);
}

static void clean_env(void)
{
	static const char *const vars[] = {"Q7_TOOLCHAIN", "Q7CC_REAL_CXX", "Q7CC_REAL_CC", "XTENSA_TOOLS",
	                                   "Q7_CORE", "Q7_TOOLS", "Q7CC_ACTIVE", "TMPDIR",
	                                   "Q7CC_PREFIX", NULL};
	for (size_t i = 0; vars[i]; i++)
		unsetenv(vars[i]);
	setenv("NEURON_CUSTOM_OP", "/opt/nc", 1);
}

/* The -### output of q7cc --q7-toolchain=TOOL ARGS... */
static char *dry_run(const char *tool, const char *const *argv, int *status)
{
	struct q7_strvec a = {0};
	q7_sv_add(&a, Q7CC_EXE);
	q7_sv_addf(&a, "--q7-toolchain=%s", tool);
	q7_sv_add(&a, "-###");
	for (size_t i = 0; argv[i]; i++)
		q7_sv_add(&a, argv[i]);
	char *out = run_q7cc(a.v, status);
	q7_sv_free(&a);
	return out;
}

static const char *mode_name(enum q7_mode m)
{
	static const char *const names[] = {
		[Q7_MODE_INFO] = "pass-through",   [Q7_MODE_COMPILE] = "compile",
		[Q7_MODE_PREPROCESS] = "preprocess", [Q7_MODE_ASSEMBLE] = "assemble",
		[Q7_MODE_SYNTAX] = "syntax-only",  [Q7_MODE_LINK_SHARED] = "link",
		[Q7_MODE_LINK_EXE] = "plain-link", [Q7_MODE_LINT] = "lint",
		[Q7_MODE_SCHEMA] = "print-schema", [Q7_MODE_HELP] = "help",
	};
	return names[m];
}

START_TEST(test_case)
{
	const struct argv_case *c = &cases[_i];
	clean_env();
	/* Classification, in-process. */
	size_t n = 0;
	while (c->argv[n])
		n++;
	struct q7_inv inv;
	ck_assert_msg(q7_inv_parse(&inv, (char **)c->argv, n) == 0, "%s: parse failed", c->name);
	ck_assert_msg(inv.mode == c->mode, "%s: mode %s, expected %s", c->name,
	              mode_name(inv.mode), mode_name(c->mode));
	q7_inv_free(&inv);
	/* The exact child commands. */
	int status;
	char *out = dry_run(c->tool, c->argv, &status);
	char *want = expected(c->expect);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %d: %s", c->name,
	              status, out);
	if (strcmp(out, want) != 0) {
		/* The first line that differs: whole outputs overflow check's
		 * message buffer. */
		const char *g = out, *w = want;
		int line = 1;
		for (;;) {
			size_t gn = strcspn(g, "\n"), wn = strcspn(w, "\n");
			if (gn != wn || strncmp(g, w, gn) != 0 || !g[gn] || !w[wn])
				break;
			g += gn + 1;
			w += wn + 1;
			line++;
		}
		ck_abort_msg("%s: line %d differs:\n got: %.*s\nwant: %.*s", c->name, line,
		             (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
	}
	free(out);
	free(want);
}
END_TEST

START_TEST(test_enough_cases)
{
	ck_assert_uint_ge(NCASES, 60);
}
END_TEST

/* ---- xt: the vendor's commands, token for token (vendor-flow.md) ------- */

#define XT_CC_OPT                                                                       \
	"xt-clang++ -g -std=c++14 -stdlib=libc++-e -fno-jump-tables -Os -Wall -Werror "  \
	"-Wno-c99-designator -mcoproc -MMD -MP -fpic -mlongcalls -c "                    \
	"--xtensa-core=ncore2gp --xtensa-system=/opt/aws/neuron/gpsimd/tools/ncore2gp/config"
#define XT_LINK_OPT                                                                     \
	"xt-clang++ -g -std=c++14 -stdlib=libc++-e -fno-jump-tables -Os -Wall -Werror "  \
	"-Wno-c99-designator -mcoproc -mlongcalls "                                      \
	"--xtensa-core=ncore2gp --xtensa-system=/opt/aws/neuron/gpsimd/tools/ncore2gp/config"
#define XT_INC "-I/opt/nc -I/opt/nc/torch/include -I/opt/nc/c10/include"
#define XT_LIBS_HEAD "/opt/nc/neuron/libneuroncustomop.a /opt/nc/c10/lib/libc10.a -lloader"
#define XT_LIBS_TAIL "-lxmem -lhal -lc++-e -lm -lgcc /opt/nc/neuron/libcweak.a"

START_TEST(test_xt_compile)
{
	clean_env();
	const char *argv[] = {"-c", "relu.cpp", "-o", "build/relu.o", NULL};
	int status;
	char *out = dry_run("xt", argv, &status);
	char *want = expected(XT_CC_OPT " " XT_INC " -I@P@/include/q7cc -o build/relu.o relu.cpp\n");
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
}
END_TEST

/* A C source: xt-clang beside xt-clang++, CC_OPT without its C++ flags
 * (-std=c++14, -stdlib=libc++-e). */
START_TEST(test_xt_compile_c)
{
	clean_env();
	const char *argv[] = {"-c", "helper.c", "-o", "build/helper.o", NULL};
	int status;
	char *out = dry_run("xt", argv, &status);
	char *want = expected("xt-clang -g -fno-jump-tables -Os -Wall -Werror -Wno-c99-designator "
	                      "-mcoproc -MMD -MP -fpic -mlongcalls -c --xtensa-core=ncore2gp "
	                      "--xtensa-system=/opt/aws/neuron/gpsimd/tools/ncore2gp/config " XT_INC
	                      " -I@P@/include/q7cc -o build/helper.o helper.c\n");
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
}
END_TEST

static void xt_link(bool multi)
{
	clean_env();
	const char *argv[] = {"-shared", "relu.o", "-o", "build/libops.so",
	                      multi ? "--q7-multicore" : NULL, NULL};
	int status;
	char *out = dry_run("xt", argv, &status);
	struct q7_strbuf w = {0};
	q7_sb_add(&w, "# q7cc: collect records from 1 input\n# q7cc: merge records\n"
	              "# q7cc: codegen @TMP@/wrapper.cpp\n");
	q7_sb_add(&w, XT_CC_OPT " " XT_INC
	              " -I@P@/include/q7cc -o @TMP@/wrapper.o @TMP@/wrapper.cpp\n");
	for (int i = 0; i < (multi ? 8 : 1); i++) {
		char *base = multi ? q7_xasprintf("build/libops_cpu%d", i) : q7_xstrdup("build/libops");
		char *lsp = multi ? q7_xasprintf("lsp_fll_load_cpu%d", i)
		                  : q7_xstrdup("lsp_fll_load_cpu_single");
		/* Linked into the staging folder beside -o (wrapper/outset.h). */
		q7_sb_addf(&w, XT_LINK_OPT " " XT_INC " -o build/.libops.so.XXXXXX/%s.so relu.o "
		               "@TMP@/wrapper.o " XT_LIBS_HEAD " -mlsp=/opt/nc/lsp_fll_load_cpus/%s "
		               XT_LIBS_TAIL "\n", q7_path_basename(base), lsp);
		free(base);
		free(lsp);
	}
	for (int i = 0; i < (multi ? 8 : 1); i++) {
		char *base = multi ? q7_xasprintf("build/libops_cpu%d", i) : q7_xstrdup("build/libops");
		q7_sb_addf(&w, "# q7cc: pack %s.so -> %s.stripped.so %s.packed.so\n", base, base, base);
		free(base);
	}
	if (multi)
		q7_sb_add(&w, "# q7cc: write manifest build/libops.so\n");
	q7_sb_addf(&w, "# q7cc: commit build/libops.so and %d more files from build/.libops.so.XXXXXX\n",
	           multi ? 24 : 2);
	char *want = expected(w.s);
	ck_assert_str_eq(out, want);
	q7_sb_free(&w);
	free(out);
	free(want);
}

START_TEST(test_xt_link_single)
{
	xt_link(false);
}
END_TEST

START_TEST(test_xt_link_multicore)
{
	xt_link(true);
}
END_TEST

/* The knobs: Q7_CORE, Q7_TOOLS, XTENSA_TOOLS. */
START_TEST(test_xt_knobs)
{
	clean_env();
	setenv("Q7_CORE", "core9", 1);
	setenv("Q7_TOOLS", "/x/sys", 1);
	setenv("XTENSA_TOOLS", "/nonexistent/xt", 1);
	const char *argv[] = {"-c", "a.cpp", NULL};
	int status;
	char *out = dry_run("xt", argv, &status);
	ck_assert_ptr_nonnull(strstr(out, " --xtensa-core=core9 --xtensa-system=/x/sys "));
	free(out);
	clean_env();
}
END_TEST

START_TEST(test_missing_argument)
{
	clean_env();
	const char *argv[] = {"-c", "a.cpp", "-o", NULL};
	int status;
	char *out = dry_run("gnu", argv, &status);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == Q7_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(out, "missing argument to '-o'"));
	free(out);
}
END_TEST

START_TEST(test_unknown_toolchain)
{
	clean_env();
	const char *argv[] = {"-c", "a.cpp", NULL};
	int status;
	char *out = dry_run("msvc", argv, &status);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == Q7_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(out, "unknown toolchain 'msvc'"));
	free(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_argv");
	TCase *t = tcase_create("table");
	tcase_add_loop_test(t, test_case, 0, (int)NCASES);
	tcase_add_test(t, test_enough_cases);
	tcase_set_timeout(t, 60);
	suite_add_tcase(s, t);
	TCase *x = tcase_create("xt");
	tcase_add_test(x, test_xt_compile);
	tcase_add_test(x, test_xt_compile_c);
	tcase_add_test(x, test_xt_link_single);
	tcase_add_test(x, test_xt_link_multicore);
	tcase_add_test(x, test_xt_knobs);
	tcase_add_test(x, test_missing_argument);
	tcase_add_test(x, test_unknown_toolchain);
	suite_add_tcase(s, x);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
