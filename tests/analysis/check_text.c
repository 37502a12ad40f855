/* analysis without libclang: the schema text format (round trips and
 * errors), the warning policy, compiler-format printing, JSON and SARIF. */
#include "analysis.h"
#include "schema.h"
#include "internal.h"

#include "run_suite.h"

#include <check.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *print_op(const struct q7_op *op)
{
	struct q7_strbuf b = {0};
	q7_schema_print(op, NULL, &b);
	return q7_sb_take(&b);
}

/* parse(text) prints as canonical (TorchScript), and canonical parses to
 * an op that prints the same again. */
static void round_trip(const char *text, const char *canonical)
{
	struct q7_op op, op2;
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_msg(q7_schema_parse(text, &op, &err, NULL) == 0, "%s: %s", text, q7_err_text(&err));
	char *s = print_op(&op);
	ck_assert_str_eq(s, canonical);
	ck_assert_int_eq(q7_schema_parse(s, &op2, &err, NULL), 0);
	char *s2 = print_op(&op2);
	ck_assert_str_eq(s2, canonical);
	ck_assert_str_eq(op2.name, op.name);
	ck_assert_int_eq(op2.ret, op.ret);
	ck_assert_uint_eq(op2.nparams, op.nparams);
	free(s2);
	free(s);
	q7_op_clear(&op);
	q7_op_clear(&op2);
}

START_TEST(schema_round_trips)
{
	round_trip("relu(Tensor x, int k, float a) -> Tensor", "relu(Tensor x, int k, float a) -> Tensor");
	round_trip("  relu ( Tensor   x,int k ,float a )->Tensor  ", "relu(Tensor x, int k, float a) -> Tensor");
	/* The vendor's grammar reads; the exact kinds print as TorchScript. */
	round_trip("ns::inner::fn(long long n, double d, bool b, Scalar s) -> (Tensor out)",
	           "fn(int n, float d, bool b, Scalar s) -> (Tensor out)");
	round_trip("my_ops::relu_forward(Tensor t_in, number alpha, int64_t k) -> (Tensor ret)",
	           "my_ops::relu_forward(Tensor t_in, Scalar alpha, int k) -> (Tensor ret)");
	round_trip("f(long\n\tlong x) -> ( Tensor )", "f(int x) -> Tensor");
	round_trip("noargs() -> Tensor", "noargs() -> Tensor");
	/* TorchScript needs every name, and not one of its keywords. */
	round_trip("unnamed(Tensor, int) -> Tensor", "unnamed(Tensor arg0, int arg1) -> Tensor");
	round_trip("k(Tensor in, int is, bool x) -> (Tensor None)",
	           "k(Tensor in_, int is_, bool x) -> (Tensor None_)");
}
END_TEST

START_TEST(schema_namespace)
{
	struct q7_op op;
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("ops::inner::relu(Tensor x) -> Tensor", &op, &err, NULL), 0);
	struct q7_strbuf b = {0};
	q7_schema_print(&op, "my_ops", &b);
	ck_assert_str_eq(b.s, "my_ops::relu(Tensor x) -> Tensor");
	q7_sb_free(&b);
	q7_schema_print(&op, "", &b);
	ck_assert_str_eq(b.s, "relu(Tensor x) -> Tensor");
	q7_sb_free(&b);
	q7_schema_print(&op, "not an identifier", &b);
	ck_assert_str_eq(b.s, "relu(Tensor x) -> Tensor");
	q7_sb_free(&b);
	ck_assert_str_eq(op.qualname, "ops::inner::relu"); /* kept for codegen */
	ck_assert_str_eq(op.ns, ""); /* no TorchScript namespace */
	q7_op_clear(&op);
	/* One qualifier is the op's own namespace, which wins. */
	ck_assert_int_eq(q7_schema_parse("my_ops::relu(Tensor x) -> Tensor", &op, &err, NULL), 0);
	ck_assert_str_eq(op.ns, "my_ops");
	q7_schema_print(&op, "libname", &b);
	ck_assert_str_eq(b.s, "my_ops::relu(Tensor x) -> Tensor");
	q7_sb_free(&b);
	q7_op_clear(&op);
	/* A library's namespace is its file's name. */
	static const char *const libs[][2] = {
		{"libmy_ops.so", "my_ops"}, {"out/libops.so.1", "ops"}, {"kernels", "kernels"},
		{"/a.b/libk_1.so", "k_1"},  {"lib.so", NULL},          {"libmy-ops.so", NULL},
		{"libin.so", NULL},         {"lib9.so", NULL},
	};
	for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
		char *ns = q7_library_namespace(libs[i][0]);
		if (libs[i][1])
			ck_assert_str_eq(ns, libs[i][1]);
		else
			ck_assert_msg(ns == NULL, "%s: %s", libs[i][0], ns);
		free(ns);
	}
}
END_TEST

START_TEST(schema_fields)
{
	struct q7_op op;
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("ops::k(Tensor x, Scalar s, long long n) -> (Tensor y)", &op, &err, NULL), 0);
	ck_assert_str_eq(op.name, "k");
	ck_assert_str_eq(op.qualname, "ops::k");
	ck_assert_uint_eq(op.nparams, 3);
	ck_assert_int_eq(op.params[0].kind, Q7_KIND_TENSOR);
	ck_assert_str_eq(op.params[0].ctype, "const at::Tensor &");
	ck_assert_int_eq(op.params[1].kind, Q7_KIND_SCALAR);
	ck_assert_int_eq(op.params[2].kind, Q7_KIND_LONGLONG);
	ck_assert_str_eq(op.params[2].ctype, "long long");
	ck_assert_str_eq(op.params[2].name, "n");
	ck_assert_int_eq(op.ret, Q7_KIND_TENSOR);
	ck_assert_str_eq(op.ret_ctype, "at::Tensor");
	ck_assert_str_eq(op.ret_name, "y");
	ck_assert_str_eq(op.file, "");
	q7_op_clear(&op);
	/* TorchScript's types read as the narrowest kind of each. */
	ck_assert_int_eq(q7_schema_parse("k(int a, float b, bool c) -> Tensor", &op, &err, NULL), 0);
	ck_assert_int_eq(op.params[0].kind, Q7_KIND_INT);
	ck_assert_int_eq(op.params[1].kind, Q7_KIND_FLOAT);
	ck_assert_int_eq(op.params[2].kind, Q7_KIND_BOOL);
	q7_op_clear(&op);
}
END_TEST

static void parse_fails(const char *text, const char *want)
{
	struct q7_op op;
	memset(&op, 0, sizeof op);
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_msg(q7_schema_parse(text, &op, &err, NULL) == -1, "parsed: %s", text);
	ck_assert_ptr_nonnull(err.msg);
	ck_assert_msg(strstr(err.msg, want), "%s: error '%s' lacks '%s'", text, q7_err_text(&err), want);
	ck_assert_ptr_null(op.name);
	q7_err_free(&err);
}

START_TEST(schema_errors)
{
	parse_fails("", "expected a name at the end");
	parse_fails("relu", "expected '(' at the end");
	parse_fails("relu(Tensor x", "expected ',' or ')'");
	parse_fails("relu(Tensor x) Tensor", "expected '->' at column 16");
	parse_fails("relu(Tensor x) ->", "expected a type");
	parse_fails("relu(long x) -> Tensor", "found 'long'");
	parse_fails("relu(Tensor? x) -> Tensor", "found '?'");
	parse_fails("relu(int[] x) -> Tensor", "found '['");
	parse_fails("relu(int x=1) -> Tensor", "found '='");
	parse_fails("relu(string x) -> Tensor", "found 'string'");
	parse_fails("relu(Tensor x) -> (Tensor a, Tensor b)", "one result only");
	parse_fails("relu(Tensor x) -> Tensor out extra", "the end of the schema");
	parse_fails("ns::(Tensor x) -> Tensor", "expected a name at column 5");
	parse_fails("relu(Tensor x,) -> Tensor", "expected a type");
	struct q7_op op;
	struct q7_err err = Q7_ERR_GROWING;
	unsigned col = 0;
	ck_assert_int_eq(q7_schema_parse("relu(Tensor x) Tensor", &op, &err, &col), -1);
	ck_assert_uint_eq(col, 16);
	q7_err_free(&err);
}
END_TEST

/* Every prefix and every one-byte change of valid schemas parses or fails
 * cleanly, with a message on failure (run under valgrind/ASan too). */
START_TEST(schema_mutations)
{
	static const char *const seeds[] = {
		"ns::relu(Tensor x, long long n, Scalar s) -> (Tensor out)",
		"f(int a,float b,double c,bool d) -> Tensor",
	};
	static const char bytes[] = " \t(),:-><>?[]=!#\"xL0_";
	size_t parsed = 0, failed = 0;
	for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
		size_t n = strlen(seeds[k]);
		for (size_t cut = 0; cut <= n; cut++) {
			for (size_t b = 0; b <= sizeof bytes - 1; b++) {
				char *t = q7_xstrdup(seeds[k]);
				if (b < sizeof bytes - 1 && cut < n)
					t[cut] = bytes[b];
				else
					t[cut] = '\0';
				struct q7_op op;
				struct q7_err err = Q7_ERR_GROWING;
				if (q7_schema_parse(t, &op, &err, NULL) == 0) {
					char *again = print_op(&op);
					struct q7_op op2;
					ck_assert_msg(q7_schema_parse(again, &op2, &err, NULL) == 0, "%s -> %s", t, again);
					q7_op_clear(&op2);
					free(again);
					q7_op_clear(&op);
					parsed++;
				} else {
					ck_assert_ptr_nonnull(err.msg);
					q7_err_free(&err);
					failed++;
				}
				free(t);
			}
		}
	}
	ck_assert_uint_gt(parsed, 0);
	ck_assert_uint_gt(failed, 0);
}
END_TEST

static struct q7_diags sample(void)
{
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_WARNING, "a.cpp", 3, 5, "q7-profile-kind", "w %d", 1);
	q7_diags_add(&ds, Q7_SEV_NOTE, "a.cpp", 1, 1, "", "note of w");
	q7_diags_add(&ds, Q7_SEV_ERROR, "a.cpp", 4, 1, "q7-return", "e");
	q7_diags_add(&ds, Q7_SEV_WARNING, "b.cpp", 2, 2, "q7-other", "w2");
	return ds;
}

/* One -W[no-][error=]RULE flag, as the driver takes it apart. */
struct wf {
	const char *rule;
	bool no, error;
};

/* Applies -Werror (werror), -w (none) and the rule flags fs (ending in
 * a NULL rule) to ds. */
static size_t apply(bool werror, bool none, const struct wf *fs, struct q7_diags *ds)
{
	struct q7_warn_policy p = {.werror = werror, .suppress_all = none};
	for (; fs && fs->rule; fs++)
		q7_warn_policy_rule(&p, fs->rule, fs->no, fs->error);
	size_t e = q7_diags_apply_policy(ds, &p);
	q7_warn_policy_free(&p);
	return e;
}

START_TEST(policy)
{
	/* Known rule names, from the rule table. */
	struct q7_warn_policy p = {0};
	ck_assert(q7_warn_policy_rule(&p, "q7-profile-kind", true, false));
	ck_assert(!q7_warn_policy_rule(&p, "q7-bogus", false, false));
	q7_warn_policy_free(&p);

	struct q7_diags ds = sample();
	ck_assert_uint_eq(apply(false, false, NULL, &ds), 1);
	ck_assert_uint_eq(ds.n, 4);
	q7_diags_free(&ds);

	ds = sample(); /* disabling a warning drops its note; errors stay */
	ck_assert_uint_eq(apply(false, false, (const struct wf[]){{"q7-profile-kind", true, false},
	                                                         {"q7-return", true, false},
	                                                         {NULL, false, false}},
	                        &ds),
	                  1);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_str_eq(ds.d[0].rule, "q7-return");
	q7_diags_free(&ds);

	ds = sample(); /* -Werror */
	ck_assert_uint_eq(apply(true, false, NULL, &ds), 3);
	ck_assert(ds.d[0].promoted);
	ck_assert_int_eq(ds.d[0].severity, Q7_SEV_ERROR);
	q7_diags_free(&ds);

	ds = sample(); /* -Werror -Wno-error=q7-other */
	ck_assert_uint_eq(apply(true, false, (const struct wf[]){{"q7-other", true, true},
	                                                        {NULL, false, false}},
	                        &ds),
	                  2);
	ck_assert_int_eq(ds.d[3].severity, Q7_SEV_WARNING);
	q7_diags_free(&ds);

	ds = sample(); /* -Werror=q7-other */
	ck_assert_uint_eq(apply(false, false, (const struct wf[]){{"q7-other", false, true},
	                                                         {NULL, false, false}},
	                        &ds),
	                  2);
	ck_assert_int_eq(ds.d[0].severity, Q7_SEV_WARNING);
	q7_diags_free(&ds);

	ds = sample(); /* -w drops warnings (and their notes), never errors */
	ck_assert_uint_eq(apply(false, true, NULL, &ds), 1);
	ck_assert_uint_eq(ds.n, 1);
	q7_diags_free(&ds);

	ds = sample(); /* -w wins over -Werror and -Werror=, as in GCC */
	ck_assert_uint_eq(apply(true, true, (const struct wf[]){{"q7-other", false, true},
	                                                       {NULL, false, false}},
	                        &ds),
	                  1);
	ck_assert_uint_eq(ds.n, 1);
	ck_assert(!ds.d[0].promoted);
	q7_diags_free(&ds);

	ds = sample(); /* the last flag wins: -Wno-q7-other -Wq7-other */
	ck_assert_uint_eq(apply(false, false, (const struct wf[]){{"q7-other", true, false},
	                                                         {"q7-other", false, false},
	                                                         {NULL, false, false}},
	                        &ds),
	                  1);
	ck_assert_uint_eq(ds.n, 4);
	q7_diags_free(&ds);
}
END_TEST

static char *capture(void (*fn)(const struct q7_diags *, FILE *, bool), const struct q7_diags *ds, bool color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(ds, f, color);
	fclose(f);
	return buf;
}

static void print_plain(const struct q7_diags *ds, FILE *f, bool color)
{
	q7_diags_print(ds, f, &(struct q7_diag_render){.style = Q7_DIAG_CLANG, .color = color});
}

/* What q7_diags_print writes with r. */
static const struct q7_diag_render *render_with;

static void print_with(const struct q7_diags *ds, FILE *f, bool color)
{
	(void)color;
	q7_diags_print(ds, f, render_with);
}

static char *render(const struct q7_diags *ds, const struct q7_diag_render *r)
{
	render_with = r;
	return capture(print_with, ds, false);
}

static void print_gcc(const struct q7_diags *ds, FILE *f, bool color)
{
	struct q7_diag_render r = {.style = Q7_DIAG_GCC, .color = color};
	q7_gcc_colors_init(&r.gcc, NULL);
	q7_diags_print(ds, f, &r);
}

static void print_gcc_json(const struct q7_diags *ds, FILE *f, bool color)
{
	(void)color;
	q7_diags_print(ds, f, &(struct q7_diag_render){.style = Q7_DIAG_GCC, .json = true});
}

static void json(const struct q7_diags *ds, FILE *f, bool color)
{
	(void)color;
	q7_lint_write_json(ds, &(struct q7_op_table){0}, f); /* the findings, no kernels */
}

static void sarif(const struct q7_diags *ds, FILE *f, bool color)
{
	(void)color;
	q7_diags_write_sarif(ds, f);
}

/* Writes src to a new temporary file, its name into path (a mkstemp
 * template). */
static void write_temp(char *path, const char *src)
{
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
}

START_TEST(print_caret)
{
	char path[] = "/tmp/q7diagXXXXXX";
	write_temp(path, "int a;\n\tQ7_KERNEL at::Tensor k(float *p);\n");
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_ERROR, path, 2, 33, "q7-unsupported-param", "bad %s", "p");
	ds.d[0].source_read = true;
	q7_diags_add(&ds, Q7_SEV_WARNING, "", 0, 0, "", "no place");
	char *out = capture(print_plain, &ds, false);
	char *want = q7_xasprintf("%s:2:33: error: bad p [-Wq7-unsupported-param]\n"
	                          "\tQ7_KERNEL at::Tensor k(float *p);\n"
	                          "\t                               ^\n"
	                          "%s: warning: no place\n",
	                          path, q7_progname());
	ck_assert_str_eq(out, want);
	free(out);
	out = capture(print_plain, &ds, true);
	/* clang 14's codes: the severity, then the caret line in green. */
	ck_assert_ptr_nonnull(strstr(out, "\033[0;1;31merror: \033[0m\033[1mbad p"));
	ck_assert_ptr_nonnull(strstr(out, "\033[0;1;32m\t                               ^\n\033[0m"));
	free(out);
	free(want);
	q7_diags_free(&ds);
	unlink(path);
}
END_TEST

/* GCC 12's style (the gnu toolchain): display columns (a tab to the next
 * multiple of 8), the " 12 | " gutter with tabs expanded, "^~~~" under
 * the identifier at the column, [-Werror=RULE] and the closing line; its
 * colours and GCC_COLORS; its JSON objects, notes as children. The
 * expected text is what g++ 12 -Wextra prints for an unused parameter at
 * the same place (tests/e2e/lint_gcc_style.sh compares with g++ itself). */
START_TEST(print_gcc_style)
{
	char path[] = "/tmp/q7diagXXXXXX";
	write_temp(path, "\n\n\n\n\n\n\n\n\n\n\n"
	                 "\tQ7_KERNEL at::Tensor k(float *scale, int \xc3\xa9t\xc3\xa9);\n");
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_ERROR, path, 12, 32, "q7-unsupported-param", "bad %s", "scale");
	ds.d[0].source_read = true;
	ds.d[0].promoted = true;
	q7_diags_add(&ds, Q7_SEV_NOTE, path, 12, 43, "", "here");
	ds.d[1].source_read = true;
	q7_diags_add(&ds, Q7_SEV_WARNING, "", 0, 0, "q7-return", "no place");
	char *out = capture(print_gcc, &ds, false);
	char *want = q7_xasprintf(
	        "%s:12:39: error: bad scale [-Werror=q7-unsupported-param]\n"
	        "   12 |         Q7_KERNEL at::Tensor k(float *scale, int \xc3\xa9t\xc3\xa9);\n"
	        "      |                                       ^~~~~\n"
	        "%s:12:50: note: here\n"
	        "   12 |         Q7_KERNEL at::Tensor k(float *scale, int \xc3\xa9t\xc3\xa9);\n"
	        "      |                                                  ^~~\n"
	        "%s: warning: no place [-Wq7-return]\n"
	        "%s: some warnings being treated as errors\n",
	        path, path, q7_progname(), q7_progname());
	ck_assert_str_eq(out, want);
	free(out);
	free(want);

	out = capture(print_gcc, &ds, true);
	ck_assert_ptr_nonnull(strstr(out, "\033[01m\033[K"));
	ck_assert_ptr_nonnull(strstr(out, ":12:39:\033[m\033[K \033[01;31m\033[Kerror: \033[m\033[Kbad scale "
	                                  "[\033[01;31m\033[K-Werror=q7-unsupported-param\033[m\033[K]\n"));
	ck_assert_ptr_nonnull(strstr(out, "k(float *\033[01;31m\033[Kscale\033[m\033[K, int"));
	ck_assert_ptr_nonnull(strstr(out, "|                                       \033[01;31m\033[K^~~~~\033[m\033[K\n"));
	ck_assert_ptr_nonnull(strstr(out, "\033[01;36m\033[Knote: \033[m\033[K"));
	free(out);

	/* -fno-diagnostics-show-line-numbers, -fdiagnostics-column-unit=byte,
	 * -fdiagnostics-column-origin=0; -fno-diagnostics-show-caret and
	 * -fno-show-column (clang's too). */
	struct q7_diag_render r = {.style = Q7_DIAG_GCC, .no_line_numbers = true,
	                           .byte_columns = true, .column_shift = -1};
	out = render(&ds, &r);
	want = q7_xasprintf("%s:12:31: error: bad scale [-Werror=q7-unsupported-param]\n"
	                    "         Q7_KERNEL at::Tensor k(float *scale, int \xc3\xa9t\xc3\xa9);\n"
	                    " %*s^~~~~\n",
	                    path, 38, "");
	ck_assert_ptr_nonnull(strstr(out, want));
	free(out);
	free(want);
	/* A column inside a UTF-8 character (byte 44, é's second) means it. */
	ds.d[1].col = 44;
	r = (struct q7_diag_render){.style = Q7_DIAG_GCC};
	out = render(&ds, &r);
	want = q7_xasprintf("%s:12:50: note: here\n", path);
	ck_assert_ptr_nonnull(strstr(out, want));
	ck_assert_ptr_nonnull(strstr(out, "      | " "                                                 ^~~\n"));
	free(out);
	free(want);
	ds.d[1].col = 43;
	for (int style = Q7_DIAG_CLANG; style <= Q7_DIAG_GCC; style++) {
		r = (struct q7_diag_render){.style = style, .no_caret = true, .no_column = true};
		out = render(&ds, &r);
		ck_assert_ptr_null(strstr(out, "scale, int"));
		want = q7_xasprintf("%s:12: error: bad scale [", path);
		ck_assert_ptr_nonnull(strstr(out, want));
		free(out);
		free(want);
	}

	/* GCC_COLORS: what it names, until a malformed entry. */
	struct q7_gcc_colors c;
	q7_gcc_colors_init(&c, "error=01;33:range1=32:locus=04:note=x:warning=1");
	ck_assert_str_eq(c.error, "01;33");
	ck_assert_str_eq(c.locus, "04");
	ck_assert_str_eq(c.note, "01;36");
	ck_assert_str_eq(c.warning, "01;35");
	q7_gcc_colors_init(&c, "warning=:error=7");
	ck_assert_str_eq(c.warning, "");
	ck_assert_str_eq(c.error, "7");

	/* JSON: GCC's keys, display and byte columns, a finish for a token of
	 * more than one byte, the note a child. */
	out = capture(print_gcc_json, &ds, false);
	want = q7_xasprintf(
	        "[{\"kind\": \"error\", \"message\": \"bad scale\", \"option\": "
	        "\"-Werror=q7-unsupported-param\", \"locations\": [{\"caret\": {\"file\": \"%s\", "
	        "\"line\": 12, \"column\": 39, \"display-column\": 39, \"byte-column\": 32}, "
	        "\"finish\": {\"file\": \"%s\", \"line\": 12, \"column\": 43, \"display-column\": 43, "
	        "\"byte-column\": 36}}], \"column-origin\": 1, \"escape-source\": false, "
	        "\"children\": [{\"kind\": \"note\", \"message\": \"here\", \"locations\": "
	        "[{\"caret\": {\"file\": \"%s\", \"line\": 12, \"column\": 50, \"display-column\": 50, "
	        "\"byte-column\": 43}, \"finish\": {\"file\": \"%s\", \"line\": 12, \"column\": 52, "
	        "\"display-column\": 52, \"byte-column\": 47}}], \"column-origin\": 1, "
	        "\"escape-source\": false}]}, "
	        "{\"kind\": \"warning\", \"message\": \"no place\", \"option\": \"-Wq7-return\", "
	        "\"locations\": [], \"column-origin\": 1, \"escape-source\": false, \"children\": []}]\n",
	        path, path, path, path);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
	q7_diags_free(&ds);
	/* Nothing to say: no array (the caller merges the compiler's). */
	out = capture(print_gcc_json, &ds, false);
	ck_assert_str_eq(out, "");
	free(out);
	unlink(path);
}
END_TEST

/* A finding from a trailer or a record names
 * whatever file it likes; its line is shown only when the analysis read
 * that file itself, and only from a regular file (never a FIFO, which
 * would block, nor /dev/zero, which never ends). Names, messages, rules
 * and lines reach the terminal without their control characters. */
START_TEST(print_hostile)
{
	char dir[] = "/tmp/q7diagXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *secret = q7_xasprintf("%s/secret", dir), *fifo = q7_xasprintf("%s/fifo", dir);
	FILE *f = fopen(secret, "w");
	ck_assert_ptr_nonnull(f);
	fputs("the-secret-line\n", f);
	fclose(f);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_WARNING, secret, 1, 1, "q7-return", "named, not read");
	/* Said to be read, but a FIFO and a device: no line, no wait. */
	q7_diags_add(&ds, Q7_SEV_WARNING, fifo, 1, 1, "q7-return", "a fifo");
	ds.d[1].source_read = true;
	q7_diags_add(&ds, Q7_SEV_WARNING, "/dev/zero", 1, 1, "q7-return", "a device");
	ds.d[2].source_read = true;
	q7_diags_add(&ds, Q7_SEV_ERROR, "k\x1b]0;t\x07.cpp", 1, 1, "q7-\x1b[2J", "x\nq7cc: error: forged\xc2\x9b");
	char *out = capture(print_plain, &ds, false);
	ck_assert_ptr_null(strstr(out, "the-secret-line"));
	char *want = q7_xasprintf("%s:1:1: warning: named, not read [-Wq7-return]\n"
	                          "%s:1:1: warning: a fifo [-Wq7-return]\n"
	                          "/dev/zero:1:1: warning: a device [-Wq7-return]\n"
	                          "k\\x1b]0;t\\x07.cpp:1:1: error: x\\x0aq7cc: error: forged\\xc2\\x9b "
	                          "[-Wq7-\\x1b[2J]\n",
	                          secret, fifo);
	ck_assert_str_eq(out, want);
	free(want);
	free(out);
	/* Read by the analysis, a regular file: shown, escaped. */
	f = fopen(secret, "w");
	fputs("a\x1b[2Jb\tc\n", f);
	fclose(f);
	q7_diags_free(&ds);
	q7_diags_add(&ds, Q7_SEV_WARNING, secret, 1, 5, "q7-return", "read");
	ds.d[0].source_read = true;
	out = capture(print_plain, &ds, false);
	ck_assert_ptr_nonnull(strstr(out, "\na\\x1b[2Jb\tc\n"));
	free(out);
	q7_diags_free(&ds);
	unlink(secret);
	unlink(fifo);
	rmdir(dir);
	free(secret);
	free(fifo);
}
END_TEST

START_TEST(json_and_sarif)
{
	struct q7_diags ds = {0};
	q7_diags_add(&ds, Q7_SEV_ERROR, "/abs/dir with space/k.cpp", 7, 3, "q7-return", "say \"no\"\n");
	q7_diags_add(&ds, Q7_SEV_ERROR, "rel.cpp", 0, 0, "", "clang's own");
	char *j = capture(json, &ds, false);
	ck_assert_ptr_nonnull(strstr(j, "\"file\": \"/abs/dir with space/k.cpp\", \"line\": 7, \"column\": 3, "
	                                "\"severity\": \"error\", \"rule\": \"q7-return\", \"message\": \"say \\\"no\\\"\\n\""));
	free(j);
	char *s = capture(sarif, &ds, false);
	ck_assert_ptr_nonnull(strstr(s, "\"version\": \"2.1.0\""));
	ck_assert_ptr_nonnull(strstr(s, "{\"id\": \"q7-unsupported-param\""));
	ck_assert_ptr_nonnull(strstr(s, "\"ruleId\": \"q7-return\", \"level\": \"error\""));
	ck_assert_ptr_nonnull(strstr(s, "\"uri\": \"file:///abs/dir%20with%20space/k.cpp\"}, "
	                                "\"region\": {\"startLine\": 7, \"startColumn\": 3}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"level\": \"error\", \"message\": {\"text\": \"clang's own\"}, "
	                                "\"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"rel.cpp\"}}}]}"));
	free(s);
	q7_diags_free(&ds);

	struct q7_op_table ops = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("ns::k(Tensor x, long long n) -> Tensor", q7_ops_add(&ops), &err, NULL), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	q7_ops_write_json(&ops, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"name\": \"k\", \"qualname\": \"ns::k\", \"namespace\": \"ns\", \"schema\": \"ns::k(Tensor x, int n) -> Tensor\""));
	ck_assert_ptr_nonnull(strstr(buf, "{\"name\": \"n\", \"type\": \"int\", \"kind\": \"long long\", \"ctype\": \"long long\"}"));
	ck_assert_ptr_nonnull(strstr(buf, "\"return\": {\"type\": \"Tensor\", \"kind\": \"Tensor\", \"ctype\": \"at::Tensor\""));
	free(buf);
	q7_ops_free(&ops);
}
END_TEST

/* JSON strings from files, as q7_json_print writes them: controls (DEL
 * and C1 too) as \u escapes, a byte that is not UTF-8 as the text \xNN,
 * well-formed UTF-8 as it is: the document stays valid JSON and no
 * control reaches a terminal. */
START_TEST(json_strings_hostile)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *a = q7_json_arr(NULL, NULL);
	q7_json_str(a, NULL, "a\x1b\x7f" "b\xc2\x85" "c\xff" "d\xed\xa0\x80" "e\xe2\x82\xac\"\\\n");
	q7_json_print(a, f);
	json_object_put(a);
	fclose(f);
	ck_assert_str_eq(buf, "[\"a\\u001b\\u007fb\\u0085c\\\\xffd\\\\xed\\\\xa0\\\\x80"
	                      "e\xe2\x82\xac\\\"\\\\\\n\"]\n");
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-text");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, schema_round_trips);
	tcase_add_test(tc, schema_namespace);
	tcase_add_test(tc, schema_fields);
	tcase_add_test(tc, schema_errors);
	tcase_add_test(tc, schema_mutations);
	tcase_add_test(tc, policy);
	tcase_add_test(tc, print_caret);
	tcase_add_test(tc, print_hostile);
	tcase_add_test(tc, print_gcc_style);
	tcase_add_test(tc, json_and_sarif);
	tcase_add_test(tc, json_strings_hostile);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
