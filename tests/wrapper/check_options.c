/* The option table (sorted, lookups), @file response files, input kinds,
 * and the parsers of the real compiler's -E -v and -dM output. */
#include "args.h"
#include "options.h"
#include "sysinfo.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_table_sorted)
{
	size_t n;
	const struct q7_option *t = q7_option_table(&n);
	ck_assert_uint_gt(n, 50);
	for (size_t i = 1; i < n; i++)
		ck_assert_msg(strcmp(t[i - 1].name, t[i].name) < 0, "table not sorted at %s / %s",
		              t[i - 1].name, t[i].name);
}
END_TEST

START_TEST(test_lookup)
{
	bool joined;
	const struct q7_option *o = q7_option_find("-Wl,-soname,x", &joined);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->name, "-Wl,");
	ck_assert(joined);
	o = q7_option_find("-Wall", &joined);
	ck_assert_str_eq(o->name, "-W");
	ck_assert_int_eq(o->id, Q7_ID_WARN);
	o = q7_option_find("-include-pch", &joined);
	ck_assert_str_eq(o->name, "-include-pch");
	ck_assert(!joined);
	o = q7_option_find("-includefoo.h", &joined);
	ck_assert_str_eq(o->name, "-include");
	ck_assert(joined);
	o = q7_option_find("-I", &joined);
	ck_assert(!joined && (o->flags & Q7_OPT_SEP));
	o = q7_option_find("-stdlib=libc++-e", &joined);
	ck_assert_str_eq(o->name, "-stdlib=");
	o = q7_option_find("-std=c++17", &joined);
	ck_assert_str_eq(o->name, "-std=");
	o = q7_option_find("-print-file-name=libc.a", &joined);
	ck_assert_int_eq(o->id, Q7_ID_INFO);
	ck_assert_ptr_null(q7_option_find("-fPIC", &joined));
	ck_assert_ptr_null(q7_option_find("--no-such-option", &joined));
	o = q7_option_find("--q7-toolchain=gnu", &joined);
	ck_assert(o->flags & Q7_OPT_Q7);
}
END_TEST

static char *write_tmp(const char *text)
{
	char *path = q7_xstrdup("/tmp/q7cc-test-rsp.XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(test_response_files)
{
	char *inner = write_tmp("-DINNER 'it''s'\n");
	char *text = q7_xasprintf("-c \"a b.cpp\" -o 'o $x.o'\n-DQ=\\\"q\\\" @%s \"\"", inner);
	char *outer = write_tmp(text);
	char *at = q7_xasprintf("@%s", outer);
	char *argv[] = {"-O2", at, "@/nonexistent/file", NULL};
	struct q7_strvec out = {0};
	q7_expand_response_files(3, argv, &out);
	const char *want[] = {"-O2", "-c", "a b.cpp", "-o", "o $x.o", "-DQ=\"q\"", "-DINNER",
	                      "its", "", "@/nonexistent/file"};
	ck_assert_uint_eq(out.n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < out.n; i++)
		ck_assert_str_eq(out.v[i], want[i]);
	q7_sv_free(&out);
	unlink(inner);
	unlink(outer);
	free(inner);
	free(outer);
	free(text);
	free(at);
}
END_TEST

START_TEST(test_units)
{
	char *argv[] = {"-I", "inc", "-DX", "-x", "c++", "k.cu", "-x", "none", "b.o",
	                "-Wl,-z,now", "-o", "out", "-c", NULL};
	struct q7_inv inv;
	ck_assert_int_eq(q7_inv_parse(&inv, argv, 13), 0);
	ck_assert_int_eq(inv.mode, Q7_MODE_COMPILE);
	ck_assert_uint_eq(inv.n, 9);
	ck_assert_int_eq(inv.u[0].ntok, 2);
	ck_assert_str_eq(inv.u[0].value, "inc");
	ck_assert_str_eq(inv.u[1].value, "X");
	ck_assert_int_eq(inv.u[3].input, Q7_IN_CXX);  /* k.cu under -x c++ */
	ck_assert_int_eq(inv.u[5].input, Q7_IN_LINK); /* b.o after -x none */
	ck_assert_str_eq(inv.output, "out");
	ck_assert_uint_eq(inv.nsources, 1);
	q7_inv_free(&inv);
}
END_TEST

START_TEST(test_flags_of_invocation)
{
	char *argv[] = {"-shared", "-g", "--q7-multicore", "--q7-kernel=a", "--q7-kernel=b",
	                "-fno-color-diagnostics", "x.o", "-###", "-v", NULL};
	struct q7_inv inv;
	ck_assert_int_eq(q7_inv_parse(&inv, argv, 9), 0);
	ck_assert_int_eq(inv.mode, Q7_MODE_LINK_SHARED);
	ck_assert(inv.debug && inv.multicore && inv.dry_run && inv.verbose);
	ck_assert_int_eq(inv.color, 0);
	ck_assert_uint_eq(inv.kernels.n, 2);
	q7_inv_free(&inv);
	char *argv2[] = {"-g0", "x.o", "--q7-format=yaml", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, argv2, 3), Q7_EXIT_USAGE);
	q7_inv_free(&inv);
	char *argv3[] = {"-g", "-g0", "x.o", NULL};
	ck_assert_int_eq(q7_inv_parse(&inv, argv3, 3), 0);
	ck_assert(!inv.debug);
	ck_assert_int_eq(inv.mode, Q7_MODE_LINK_EXE);
	q7_inv_free(&inv);
}
END_TEST

START_TEST(test_input_kinds)
{
	ck_assert_int_eq(q7_input_kind_of("a/b.cpp"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.cc"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.C"), Q7_IN_CXX);
	ck_assert_int_eq(q7_input_kind_of("b.c"), Q7_IN_C);
	ck_assert_int_eq(q7_input_kind_of("b.S"), Q7_IN_OTHER_SRC);
	ck_assert_int_eq(q7_input_kind_of("libx.a"), Q7_IN_LINK);
	ck_assert_int_eq(q7_input_kind_of("x.o"), Q7_IN_LINK);
	ck_assert_int_eq(q7_input_kind_of("dir.d/noext"), Q7_IN_LINK);
}
END_TEST

START_TEST(test_sysinfo_includes)
{
	const char *text =
		"ignoring nonexistent directory \"/x\"\n"
		"#include \"...\" search starts here:\n"
		" /quote/only\n"
		"#include <...> search starts here:\n"
		" /usr/lib/gcc/xtensa-lx106-elf/12.2.0/include\n"
		" /usr/lib/xtensa-lx106-elf/include\n"
		" /Library/Frameworks (framework directory)\n"
		"End of search list.\n"
		" /after/end\n";
	struct q7_strvec v = {0};
	q7_sysinfo_parse_includes(text, &v);
	ck_assert_uint_eq(v.n, 3);
	ck_assert_str_eq(v.v[0], "/usr/lib/gcc/xtensa-lx106-elf/12.2.0/include");
	ck_assert_str_eq(v.v[2], "/Library/Frameworks");
	q7_sv_free(&v);
}
END_TEST

START_TEST(test_sysinfo_macros)
{
	const char *text = "#define __xtensa__ 1\n#define __SIZEOF_LONG__ 4\n"
	                   "#define __cplusplus 201402L\n#define __cpp_rtti 199711L\n"
	                   "#define F(a, b) ((a) + (b))\n#define EMPTY\n";
	struct q7_strvec v = {0};
	q7_sysinfo_parse_macros(text, &v);
	ck_assert_uint_eq(v.n, 4);
	ck_assert_str_eq(v.v[0], "__xtensa__=1");
	ck_assert_str_eq(v.v[1], "__SIZEOF_LONG__=4");
	ck_assert_str_eq(v.v[2], "F(a, b)=((a) + (b))");
	ck_assert_str_eq(v.v[3], "EMPTY=");
	q7_sv_free(&v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_options");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_table_sorted);
	tcase_add_test(t, test_lookup);
	tcase_add_test(t, test_response_files);
	tcase_add_test(t, test_units);
	tcase_add_test(t, test_flags_of_invocation);
	tcase_add_test(t, test_input_kinds);
	tcase_add_test(t, test_sysinfo_includes);
	tcase_add_test(t, test_sysinfo_macros);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
