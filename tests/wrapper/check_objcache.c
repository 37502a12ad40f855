/* The wrapper object cache's reading of the compiler's make dependencies:
 * every header of the first rule, escapes undone, continuations and the
 * phony rules of -MP skipped. */
#include "objcache.h"

#include "../analysis/run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_parse_deps)
{
	const char *text = "/tmp/q7cc.x/wrapper.o: /tmp/q7cc.x/wrapper.cpp \\\n"
	                   " /inc/neuron/wrapper_api.h /inc/my\\ dir/a.h \\\n"
	                   "  /inc/cost$$.h /inc/hash\\#.h\n"
	                   "\n"
	                   "/inc/neuron/wrapper_api.h:\n";
	static const char *const want[] = {
		"/tmp/q7cc.x/wrapper.cpp", "/inc/neuron/wrapper_api.h", "/inc/my dir/a.h",
		"/inc/cost$.h", "/inc/hash#.h",
	};
	struct q7_strvec v = {0};
	q7_objcache_parse_deps(text, &v);
	ck_assert_uint_eq(v.n, sizeof want / sizeof *want);
	for (size_t i = 0; i < v.n; i++)
		ck_assert_str_eq(v.v[i], want[i]);
	q7_sv_free(&v);
	/* A target with an escaped colon-like name, and no trailing newline. */
	q7_objcache_parse_deps("a\\ b.o: x.h y.h", &v);
	ck_assert_uint_eq(v.n, 2);
	ck_assert_str_eq(v.v[1], "y.h");
	q7_sv_free(&v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_objcache");
	TCase *t = tcase_create("objcache");
	tcase_add_test(t, test_parse_deps);
	suite_add_tcase(s, t);
	return run_suite(s, true);
}
