/* The split 8-core link's plan: which stage each linker word belongs to,
 * and which user link lines keep the split or fall back to full links. */
#include "cmdline.h"
#include "ldsplit.h"
#include "toolchain.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_word_stages)
{
	static const struct {
		const char *word;
		enum q7_ld_stage stage;
		bool arg;
	} cases[] = {
		{"--start-group", Q7_LD_RESOLVE, false}, {"--whole-archive", Q7_LD_RESOLVE, false},
		{"-Bstatic", Q7_LD_RESOLVE, false},      {"-L/opt/lib", Q7_LD_RESOLVE, false},
		{"-lmine", Q7_LD_RESOLVE, false},        {"-L", Q7_LD_RESOLVE, true},
		{"-u", Q7_LD_BOTH, true},                {"-ukeep_me", Q7_LD_BOTH, false},
		{"--undefined=keep", Q7_LD_BOTH, false}, {"-soname", Q7_LD_IMAGE, true},
		{"--soname=libx.so", Q7_LD_IMAGE, false}, {"-Map=a.map", Q7_LD_IMAGE, false},
		{"--gc-sections", Q7_LD_IMAGE, false},   {"-z", Q7_LD_IMAGE, true},
		{"-zdefs", Q7_LD_IMAGE, false},          {"--build-id", Q7_LD_IMAGE, false},
		{"--build-id=sha1", Q7_LD_IMAGE, false}, {"-O1", Q7_LD_IMAGE, false},
		{"-s", Q7_LD_IMAGE, false},              {"--version-script", Q7_LD_IMAGE, true},
		/* Unknown: the full links keep their meaning. */
		{"--wrap=malloc", Q7_LD_UNKNOWN, false}, {"--exclude-libs=ALL", Q7_LD_UNKNOWN, false},
		{"-r", Q7_LD_UNKNOWN, false},            {"--gc-sectionsx", Q7_LD_UNKNOWN, false},
		{"-sx", Q7_LD_UNKNOWN, false},           {"--no-whole-archive=1", Q7_LD_UNKNOWN, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool arg = !cases[i].arg;
		enum q7_ld_stage st = q7_ldsplit_word_stage(cases[i].word, &arg);
		ck_assert_msg(st == cases[i].stage, "%s: stage %d, want %d", cases[i].word, st,
		              cases[i].stage);
		ck_assert_msg(arg == cases[i].arg, "%s: takes_arg %d", cases[i].word, arg);
	}
}
END_TEST

/* Plans the link of q7cc's argv (as the driver parsed it) with the
 * positional words the link collects. */
static bool plan(const char *const *argv, struct q7_ldsplit *s)
{
	size_t n = 0;
	while (argv[n])
		n++;
	struct q7_inv inv;
	ck_assert(q7_inv_parse(&inv, (char **)argv, n) == 0);
	struct q7_toolchain p = {.kind = Q7_TOOLCHAIN_GNU, .name = "gnu",
	                       .cxx = (char *)"xtensa-lx106-elf-g++"};
	struct q7_strvec objs = {0};
	for (size_t i = 0; i < inv.n; i++) {
		const struct q7_unit *u = &inv.u[i];
		if (u->input || (q7_unit_flags(u) & Q7_OPT_POSITIONAL))
			q7_unit_add(u, &objs);
	}
	bool ok = q7_ldsplit_plan(&p, &inv, objs.v ? objs.v : (char *[]){NULL}, s);
	q7_sv_free(&objs);
	q7_inv_free(&inv);
	return ok;
}

static char *joined(const struct q7_strvec *v)
{
	return q7_shell_join(v->v ? v->v : (char *[]){NULL});
}

START_TEST(test_plan_cmake_line)
{
	/* CMake's shared-library link line, with an archive of kernels pulled
	 * in whole and a link map. */
	const char *argv[] = {"-fPIC", "-O3", "--q7-multicore", "-shared", "-Wl,-soname,libops.so",
	                      "-Wl,--gc-sections,-Map=ops.map", "-o", "libops.so", "a.o",
	                      "-Wl,--whole-archive", "libk.a", "-Wl,--no-whole-archive",
	                      "-Xlinker", "-u", "-Xlinker", "keep", "-L/opt/lib", "-lmine", NULL};
	struct q7_ldsplit s;
	ck_assert_msg(plan(argv, &s), "no split: %s", s.why_not);
	ck_assert_str_eq(s.ld, "xtensa-lx106-elf-ld");
	char *f = joined(&s.flags), *in = joined(&s.inputs), *im = joined(&s.image_args);
	ck_assert_str_eq(f, "-L/opt/lib");
	ck_assert_str_eq(in, "a.o -Xlinker --whole-archive libk.a -Xlinker --no-whole-archive "
	                     "-Xlinker -u -Xlinker keep -lmine");
	ck_assert_str_eq(im, "-soname libops.so --gc-sections -Map=ops.map -u keep");
	free(f);
	free(in);
	free(im);
	q7_ldsplit_free(&s);
}
END_TEST

START_TEST(test_plan_falls_back)
{
	static const char *const lines[][8] = {
		{"--q7-multicore", "-shared", "-o", "l.so", "a.o", "-Wl,--wrap=malloc", NULL},
		{"--q7-multicore", "-shared", "-o", "l.so", "a.o", "-flto", NULL},
		{"--q7-multicore", "-shared", "-o", "l.so", "a.o", "-fuse-ld=gold", NULL},
		{"--q7-multicore", "-shared", "-o", "l.so", "a.o", "-T", "my.ld", NULL},
		{"--q7-multicore", "-shared", "-o", "l.so", "a.o", "-Wl,-soname", NULL},
		{"-shared", "-o", "l.so", "a.o", NULL}, /* one core: one link anyway */
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct q7_ldsplit s;
		ck_assert_msg(!plan(lines[i], &s), "line %zu: split", i);
		ck_assert_ptr_nonnull(s.why_not);
		q7_ldsplit_free(&s);
	}
}
END_TEST

START_TEST(test_plan_switch)
{
	const char *argv[] = {"--q7-multicore", "-shared", "-o", "l.so", "a.o", NULL};
	struct q7_ldsplit s;
	setenv("Q7CC_LINK_SPLIT", "0", 1);
	ck_assert(!plan(argv, &s));
	ck_assert_str_eq(s.why_not, "Q7CC_LINK_SPLIT=0");
	q7_ldsplit_free(&s);
	unsetenv("Q7CC_LINK_SPLIT");
	ck_assert(plan(argv, &s));
	q7_ldsplit_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_ldsplit");
	TCase *t = tcase_create("ldsplit");
	tcase_add_test(t, test_word_stages);
	tcase_add_test(t, test_plan_cmake_line);
	tcase_add_test(t, test_plan_falls_back);
	tcase_add_test(t, test_plan_switch);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
