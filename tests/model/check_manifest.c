/* Unit tests of model/manifest, the multicore manifest's one codec: what
 * the link writes reads back as the same images beside the manifest; a
 * file that is not a manifest is an image; a damaged manifest (a NUL
 * byte, no image, more than eight) and a name that cannot be a line are
 * refused naming the file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "q7/xtensa.h"
#include "manifest.h"
#include "support.h"
#include "tempfile.h"
#include "../analysis/run_suite.h"

/* A file of n bytes of text in the temporary directory (caller frees). */
static char *file_with(const char *name, const char *text, size_t n)
{
	char *path = q7_path_join(q7_temp_dir(), name);
	const char *what = NULL;
	ck_assert_int_eq(q7_outfile_write(path, text, n, 0644, &what), 0);
	q7_temp_register(path);
	return path;
}

/* q7_manifest_read of text must fail, its message naming the file and
 * holding needle. */
static void refused(const char *text, size_t n, const char *needle)
{
	char *path = file_with("bad.so", text, n);
	struct q7_strvec images = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_manifest_read(path, &images, &err), -1);
	ck_assert_ptr_nonnull(err.msg);
	ck_assert_msg(strstr(err.msg, path) == err.msg, "%s", q7_err_text(&err));
	ck_assert_msg(strstr(err.msg, needle), "%s", q7_err_text(&err));
	ck_assert_uint_eq(images.n, 0);
	q7_err_free(&err);
	free(path);
}

START_TEST(written_reads_back_beside_it)
{
	const char *names[Q7_NUM_CORES] = {"l_cpu0.so", "l_cpu1.so", "l_cpu2.so", "l_cpu3.so",
	                                   "l_cpu4.so", "l_cpu5.so", "l_cpu6.so", "l_cpu7.so"};
	char *text = NULL;
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_manifest_text("l.so", names, Q7_NUM_CORES, &text, &err), 0);
	ck_assert_str_eq(text, "q7cc-multicore 1\nl_cpu0.so\nl_cpu1.so\nl_cpu2.so\nl_cpu3.so\n"
	                       "l_cpu4.so\nl_cpu5.so\nl_cpu6.so\nl_cpu7.so\n");
	char *path = file_with("l.so", text, strlen(text));
	struct q7_strvec images = {0};
	ck_assert_int_eq(q7_manifest_read(path, &images, &err), 1);
	ck_assert_uint_eq(images.n, Q7_NUM_CORES);
	for (unsigned i = 0; i < Q7_NUM_CORES; i++) {
		char *want = q7_path_join(q7_temp_dir(), names[i]);
		ck_assert_str_eq(images.v[i], want);
		free(want);
	}
	q7_sv_free(&images);
	free(path);
	free(text);
}
END_TEST

START_TEST(an_image_is_not_a_manifest)
{
	char *path = file_with("one.so", "\177ELF\1\1\1", 7);
	struct q7_strvec images = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_manifest_read(path, &images, &err), 0);
	ck_assert_uint_eq(images.n, 0);
	ck_assert_ptr_null(err.msg);
	free(path);
	/* The magic must be a whole line. */
	path = file_with("two.so", "q7cc-multicore 12\na.so\n", 23);
	ck_assert_int_eq(q7_manifest_read(path, &images, &err), 0);
	free(path);
}
END_TEST

START_TEST(damaged_manifests_are_refused)
{
	refused("q7cc-multicore 1\na.so\0\n", 23, "damaged multicore manifest (a NUL byte)");
	refused("q7cc-multicore 1\n\n\n", 19, "names no image");
	const char *nine = "q7cc-multicore 1\n0\n1\n2\n3\n4\n5\n6\n7\n8\n";
	refused(nine, strlen(nine), "9 images, at most 8");
	struct q7_err err = Q7_ERR_GROWING;
	struct q7_strvec images = {0};
	ck_assert_int_eq(q7_manifest_read("/nonexistent/l.so", &images, &err), -1);
	ck_assert_msg(strstr(err.msg, "/nonexistent/l.so: cannot read") == err.msg, "%s", q7_err_text(&err));
	q7_err_free(&err);
}
END_TEST

START_TEST(names_that_cannot_be_lines_are_refused)
{
	const char *names[2] = {"a.so", "b\n.so"};
	char *text = NULL;
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_manifest_text("out/l.so", names, 2, &text, &err), -1);
	ck_assert_ptr_null(text);
	ck_assert_msg(strstr(err.msg, "out/l.so: ") == err.msg, "%s", q7_err_text(&err));
	q7_err_free(&err);
	names[1] = "";
	ck_assert_int_eq(q7_manifest_text("out/l.so", names, 2, &text, &err), -1);
	q7_err_free(&err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("codec");
	tcase_add_test(tc, written_reads_back_beside_it);
	tcase_add_test(tc, an_image_is_not_a_manifest);
	tcase_add_test(tc, damaged_manifests_are_refused);
	tcase_add_test(tc, names_that_cannot_be_lines_are_refused);
	suite_add_tcase(s, tc);
	int failed = run_suite(s, false); /* one temporary directory, removed at exit */
	q7_temp_cleanup();
	return failed;
}
