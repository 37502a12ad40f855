/* The trailer q7cc -E appends to preprocessed text: it reads back whole
 * from the file's end, text without one is plain preprocessed text, and
 * every cut or flipped byte of a file with one is refused (or read whole),
 * never half, never a crash. */
#include "modes.h"
#include "schema.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[] = "/tmp/q7trailerXXXXXX";

/* Rewrites the file in place: truncating it to nothing first would make
 * ext4 flush it on every close (auto_da_alloc), hundreds of times. */
static void put(const char *data, size_t n)
{
	int fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, data, n, 0), (ssize_t)n);
	ck_assert_int_eq(ftruncate(fd, (off_t)n), 0);
	ck_assert_int_eq(close(fd), 0);
}

/* Preprocessed text with the trailer of two kernels and one finding. */
static char *sample(size_t *len, size_t *text_len)
{
	struct q7_op_table ops = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("ns::deep(Tensor x, long long n) -> Tensor", q7_ops_add(&ops), &err, NULL), 0);
	ops.ops[0].stack_size = 2097152;
	ops.ops[0].defined = true;
	free(ops.ops[0].file);
	ops.ops[0].file = q7_xstrdup("/src/deep.cpp");
	ops.ops[0].line = 20;
	ops.ops[0].col = 40;
	ck_assert_int_eq(q7_schema_parse("relu(Tensor x) -> Tensor", q7_ops_add(&ops), &err, NULL), 0);
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_WARNING, "inc/k.h", 3, 7, "q7-profile-kind", "a */ in a message");
	char *names[] = {"relu", NULL};
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "# 0 \"deep.cpp\"\n int x;\n");
	*text_len = b.len;
	q7_pp_trailer_text("gnu", true, names, 0, &ops, &ds, &b);
	q7_ops_free(&ops);
	q7_diags_free(&ds);
	*len = b.len;
	return q7_sb_take(&b);
}

START_TEST(round_trip)
{
	size_t len, text_len;
	char *data = sample(&len, &text_len);
	/* A comment: nothing in it ends it early. */
	ck_assert_ptr_eq(strstr(data + text_len, "*/"), data + len - 3);
	put(data, len);
	struct q7_pp_trailer t;
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 1);
	ck_assert_str_eq(t.toolchain, "gnu");
	ck_assert(t.analysed);
	ck_assert_int_eq(t.rc, 0);
	ck_assert_uint_eq(t.kernel_names.n, 1);
	ck_assert_str_eq(t.kernel_names.v[0], "relu");
	ck_assert_uint_eq(t.ops.n, 2);
	ck_assert_uint_eq(t.ops.ops[0].stack_size, 2097152);
	ck_assert_str_eq(t.ops.ops[0].file, "/src/deep.cpp");
	ck_assert_uint_eq(t.ops.ops[0].col, 40);
	ck_assert_uint_eq(t.diags.n, 1);
	ck_assert_str_eq(t.diags.d[0].message, "a */ in a message");
	q7_pp_trailer_free(&t);
	/* The text alone, and nothing at all: no trailer, no complaint. */
	put(data, text_len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 0);
	put("", 0);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 0);
	ck_assert_int_eq(q7_pp_trailer_read("/nonexistent/k.ii", "k.ii", &t), 0);
	free(data);
}
END_TEST

START_TEST(damage)
{
	size_t len, text_len;
	char *data = sample(&len, &text_len);
	/* The refusals' messages (each test runs in its own process). */
	int null = open("/dev/null", O_WRONLY);
	ck_assert_int_ge(null, 0);
	ck_assert_int_eq(dup2(null, 2), 2);
	struct q7_pp_trailer t;
	for (size_t cut = 0; cut < len; cut++) {
		put(data, cut);
		int rc = q7_pp_trailer_read(path, "k.ii", &t);
		ck_assert_int_le(rc, 0);
		ck_assert_uint_eq(t.ops.n + t.diags.n + t.kernel_names.n, 0);
		ck_assert_ptr_null(t.toolchain);
	}
	for (size_t i = text_len; i < len; i++) {
		char *m = q7_xmalloc(len);
		memcpy(m, data, len);
		m[i] ^= 0x21;
		put(m, len);
		int rc = q7_pp_trailer_read(path, "k.ii", &t);
		if (rc == 1)
			ck_assert_ptr_nonnull(t.toolchain);
		else
			ck_assert_uint_eq(t.ops.n + t.diags.n + t.kernel_names.n, 0);
		q7_pp_trailer_free(&t);
		free(m);
	}
	/* A size beyond the file, and one too small. */
	char big[] = "/* q7cc-preprocessed 1 gnu analysed\nq7cc-end 9999999999 */\n";
	put(big, strlen(big));
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	char small[] = "xq7cc-end 0000000001 */\n";
	put(small, strlen(small));
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	close(null);
	free(data);
}
END_TEST

/* A trailer of one op and diagnostics, with rc. */
static char *crafted(const char *op_name, int rc, enum q7_severity sev, size_t *len)
{
	struct q7_op_table ops = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("relu(Tensor x) -> Tensor", q7_ops_add(&ops), &err, NULL), 0);
	free(ops.ops[0].name);
	ops.ops[0].name = q7_xstrdup(op_name);
	struct q7_diags ds = {0};
	q7_diags_add(&ds, sev, "k.cpp", 1, 1, "", "why");
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "int x;\n");
	q7_pp_trailer_text("gnu", true, NULL, rc, &ops, &ds, &b);
	q7_ops_free(&ops);
	q7_diags_free(&ds);
	*len = b.len;
	return q7_sb_take(&b);
}

/* A trailer with bytes after its end line or without it is damage, not
 * foreign text (it was once taken for text another preprocessor made, and
 * its kernels silently lost); a well-formed trailer with
 * an op no record may hold, or a failure without an error that says why,
 * is refused when the text is compiled (naming the text), not at the
 * link (naming the object). */
START_TEST(disallowed)
{
	int null = open("/dev/null", O_WRONLY);
	ck_assert_int_ge(null, 0);
	ck_assert_int_eq(dup2(null, 2), 2);
	struct q7_pp_trailer t;
	size_t len;
	char *good = crafted("relu", 0, Q7_SEV_WARNING, &len);
	put(good, len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 1);
	q7_pp_trailer_free(&t);
	static const char *const after[] = {"\n", " ", "\r\n", "x"};
	for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
		char *m = q7_xasprintf("%.*s%s", (int)len, good, after[i]);
		put(m, strlen(m));
		ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
		free(m);
	}
	/* The end line gone, and the head line alone. */
	put(good, len - 23);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	put(good, strlen("int x;\n") + 40);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	/* Text that only mentions the head, not at a line's start: foreign. */
	const char *prose = "int y; // /* q7cc-preprocessed 1 gnu analysed\n";
	put(prose, strlen(prose));
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 0);
	free(good);
	char *bad = crafted("bad name", 0, Q7_SEV_WARNING, &len);
	put(bad, len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	free(bad);
	bad = crafted("relu", -1, Q7_SEV_WARNING, &len);
	put(bad, len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	free(bad);
	bad = crafted("relu", -2, Q7_SEV_ERROR, &len);
	put(bad, len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), -1);
	free(bad);
	good = crafted("relu", -1, Q7_SEV_ERROR, &len);
	put(good, len);
	ck_assert_int_eq(q7_pp_trailer_read(path, "k.ii", &t), 1);
	q7_pp_trailer_free(&t);
	free(good);
	close(null);
}
END_TEST

/* The trailer around result bytes data (as q7_pp_trailer_text writes it,
 * but of bytes a test may have damaged). */
static char *trailer_of(const char *data, size_t n, size_t *len)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "int x;\n");
	size_t start = b.len;
	q7_sb_add(&b, "/* q7cc-preprocessed 1 gnu analysed\n");
	for (size_t i = 0; i < n; i++)
		q7_sb_addf(&b, "%02x%s", (unsigned char)data[i], i % 64 == 63 || i + 1 == n ? "\n" : "");
	q7_sb_addf(&b, "q7cc-end %010zu */\n", b.len - start + 23);
	*len = b.len;
	return q7_sb_take(&b);
}

/* What q7_pp_trailer_read printed to stderr. */
static char *read_refusal(const char *name, int *rc)
{
	char errpath[] = "/tmp/q7trailer_errXXXXXX";
	int fd = mkstemp(errpath);
	ck_assert_int_ge(fd, 0);
	int saved = dup(2);
	ck_assert_int_eq(dup2(fd, 2), 2);
	struct q7_pp_trailer t;
	*rc = q7_pp_trailer_read(path, name, &t);
	fflush(stderr);
	ck_assert_int_eq(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	q7_pp_trailer_free(&t);
	size_t n;
	char *msg = q7_read_file(errpath, &n);
	unlink(errpath);
	ck_assert_ptr_nonnull(msg);
	return msg;
}

/* The trailer's ops are an op record, read as the link reads an object's:
 * a byte changed inside a kernel's source file name still reads as a
 * printable name, which the wire's own op layout took (it checked only
 * kinds); the record's checksum refuses it, and the message names the
 * text and the reason. */
START_TEST(record_checked)
{
	struct q7_op_table ops = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("relu(Tensor x) -> Tensor", q7_ops_add(&ops), &err, NULL), 0);
	free(ops.ops[0].file);
	ops.ops[0].file = q7_xstrdup("/src/deep.cpp");
	struct q7_diags ds = {0};
	struct q7_strbuf data = {0};
	q7_analysis_result_put(&data, NULL, 0, &ops, &ds);
	size_t len;
	char *text = trailer_of(data.s, data.len, &len);
	put(text, len);
	int rc;
	char *msg = read_refusal("k.ii", &rc);
	ck_assert_int_eq(rc, 1);
	ck_assert_str_eq(msg, "");
	free(msg);
	free(text);
	char *at = memmem(data.s, data.len, "deep.cpp", 8);
	ck_assert_ptr_nonnull(at);
	at[3] = 'q'; /* "/src/deeq.cpp" */
	text = trailer_of(data.s, data.len, &len);
	put(text, len);
	msg = read_refusal("k.ii", &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "q7cc: error: k.ii: the records q7cc -E left in it are damaged: checksum "
	                      "mismatch (damaged record): preprocess the source again\n");
	free(msg);
	free(text);
	q7_sb_free(&data);
	q7_ops_free(&ops);
}
END_TEST

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	Suite *s = suite_create("wrapper_preprocess");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, damage);
	tcase_add_test(tc, disallowed);
	tcase_add_test(tc, record_checked);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	unlink(path);
	return failed ? 1 : 0;
}
