/* The analysis server's wire format: requests and results survive the
 * round trip, and every truncation or damage of a message is refused
 * without a crash and without touching the caller's tables. */
#include "schema.h"
#include "wire.h"

#include "run_suite.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static struct q7_op_table sample_ops(void)
{
	struct q7_op_table t = {0};
	struct q7_err err = Q7_ERR_GROWING;
	ck_assert_int_eq(q7_schema_parse("ns::k(Tensor x, long long n, bool b) -> (Tensor y)", q7_ops_add(&t), &err, NULL), 0);
	t.ops[0].defined = true;
	t.ops[0].stack_size = 8192;
	free(t.ops[0].file);
	t.ops[0].file = q7_xstrdup("dir/k.cpp");
	t.ops[0].line = 7;
	t.ops[0].col = 3;
	free(t.ops[0].params[1].ctype);
	t.ops[0].params[1].ctype = q7_xstrdup("long");
	ck_assert_int_eq(q7_schema_parse("noargs() -> Tensor", q7_ops_add(&t), &err, NULL), 0);
	t.ops[1].by_name_only = true; /* a NEURON_LIBRARY request: no result (model/opcheck.c) */
	t.ops[1].ret = Q7_KIND_INVALID;
	t.ops[1].ret_ctype[0] = '\0';
	/* its m.def; a lambda's has no shape name */
	q7_ops_add_def(&t, &(struct q7_neuron_def){.ns = "ns", .op = "noargs", .fn = "noargs",
	                                            .shape = "ns::shape", .file = "s.cpp",
	                                            .line = 12, .col = 5, .shape_file = "s.cpp",
	                                            .shape_line = 3});
	q7_ops_add_def(&t, &(struct q7_neuron_def){.ns = "ns", .op = "k", .fn = "k", .shape = "",
	                                            .file = "s.cpp", .line = 13, .col = 5});
	return t;
}

static struct q7_diags sample_diags(void)
{
	struct q7_diags d = {0};
	q7_diags_add(&d, Q7_SEV_ERROR, "k.cpp", 3, 4, "q7-return", "bad \"%s\"", "x");
	q7_diags_add(&d, Q7_SEV_NOTE, "", 0, 0, "", "with\nnewline");
	d.d[0].promoted = true;
	return d;
}

/* A result as the client reads it (no kernel names). */
static int get_result(const char *data, size_t len, int *rc, struct q7_op_table *ops,
                      struct q7_diags *diags)
{
	struct q7_strvec names = {0};
	struct q7_strbuf why = {0};
	int got = q7_analysis_result_read(data, len, &names, rc, ops, diags, &why);
	ck_assert_uint_eq(names.n, 0);
	q7_sv_free(&names);
	q7_sb_free(&why);
	return got;
}

START_TEST(result_round_trip)
{
	struct q7_op_table ops = sample_ops(), got = {0};
	struct q7_diags diags = sample_diags(), gotd = {0};
	struct q7_strbuf b = {0};
	q7_analysis_result_put(&b, NULL, -1, &ops, &diags);
	int rc = 0;
	ck_assert_int_eq(get_result(b.s, b.len, &rc, &got, &gotd), 0);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(got.n, 2);
	for (size_t i = 0; i < 2; i++) {
		struct q7_strbuf x = {0}, y = {0};
		q7_schema_print(&ops.ops[i], NULL, &x);
		q7_schema_print(&got.ops[i], NULL, &y);
		ck_assert_str_eq(x.s, y.s);
		q7_sb_free(&x);
		q7_sb_free(&y);
	}
	ck_assert_str_eq(got.ops[0].params[1].ctype, "long");
	ck_assert_str_eq(got.ops[0].ns, "ns");
	ck_assert_str_eq(got.ops[0].file, "dir/k.cpp");
	ck_assert_uint_eq(got.ops[0].stack_size, 8192);
	ck_assert(got.ops[0].defined);
	ck_assert(!got.ops[0].by_name_only);
	ck_assert(got.ops[1].by_name_only);
	ck_assert(!got.ops[1].defined);
	ck_assert_uint_eq(got.ops[0].line, 7);
	ck_assert_uint_eq(got.ops[0].col, 3);
	ck_assert_str_eq(got.ops[0].ret_name, "y");
	ck_assert_uint_eq(gotd.n, 2);
	ck_assert_str_eq(gotd.d[0].message, "bad \"x\"");
	ck_assert(gotd.d[0].promoted);
	ck_assert_str_eq(gotd.d[1].message, "with\nnewline");
	ck_assert_int_eq(gotd.d[1].severity, Q7_SEV_NOTE);
	ck_assert_uint_eq(got.ndefs, 2);
	ck_assert_str_eq(got.defs[0].ns, "ns");
	ck_assert_str_eq(got.defs[0].op, "noargs");
	ck_assert_str_eq(got.defs[0].fn, "noargs");
	ck_assert_str_eq(got.defs[0].shape, "ns::shape");
	ck_assert_str_eq(got.defs[0].file, "s.cpp");
	ck_assert_uint_eq(got.defs[0].line, 12);
	ck_assert_uint_eq(got.defs[0].col, 5);
	ck_assert_str_eq(got.defs[0].shape_file, "s.cpp");
	ck_assert_uint_eq(got.defs[0].shape_line, 3);
	ck_assert_str_eq(got.defs[1].shape_file, "");
	ck_assert_uint_eq(got.defs[1].shape_line, 0);
	ck_assert_str_eq(got.defs[1].op, "k");
	ck_assert_str_eq(got.defs[1].shape, "");
	ck_assert_uint_eq(got.defs[1].line, 13);

	/* Every cut and every flipped byte: refused or whole, never half. */
	for (size_t cut = 0; cut < b.len; cut++) {
		struct q7_op_table t = {0};
		struct q7_diags d = {0};
		ck_assert_int_eq(get_result(b.s, cut, &rc, &t, &d), -1);
		ck_assert_uint_eq(t.n, 0);
		ck_assert_uint_eq(t.ndefs, 0);
		ck_assert_uint_eq(d.n, 0);
		char *m = q7_xmalloc(b.len);
		memcpy(m, b.s, b.len);
		m[cut] ^= (char)0xa5;
		if (get_result(m, b.len, &rc, &t, &d) != 0) {
			ck_assert_uint_eq(t.n, 0);
			ck_assert_uint_eq(t.ndefs, 0);
			ck_assert_uint_eq(d.n, 0);
		}
		q7_ops_free(&t);
		q7_diags_free(&d);
		free(m);
	}
	q7_sb_free(&b);
	q7_ops_free(&ops);
	q7_ops_free(&got);
	q7_diags_free(&diags);
	q7_diags_free(&gotd);
}
END_TEST

START_TEST(request_round_trip)
{
	char *args[] = {"-Idir with space", "-DX=1", NULL};
	char *none[] = {NULL};
	char *env[] = {"CPATH=/a:/b", "C_INCLUDE_PATH", NULL};
	struct q7_analysis_opts o = {.source = "k.cpp", .clang_args = args, .triple = "i386-unknown-none",
	                             .sys_includes = none, .predefines = NULL, .toolchain = "xt",
	                             .kernel_names = args, .multicore = true};
	struct q7_strbuf b = {0};
	q7_wire_put_request(&b, &o, "/work", env);
	struct q7_wire_request q;
	ck_assert_int_eq(q7_wire_get_request(b.s, b.len, &q), 0);
	ck_assert_str_eq(q.cwd, "/work");
	ck_assert_str_eq(q.opts.source, "k.cpp");
	ck_assert_str_eq(q.opts.triple, "i386-unknown-none");
	ck_assert_str_eq(q.opts.toolchain, "xt");
	ck_assert_str_eq(q.opts.clang_args[0], "-Idir with space");
	ck_assert_str_eq(q.opts.clang_args[1], "-DX=1");
	ck_assert_ptr_null(q.opts.clang_args[2]);
	ck_assert_ptr_nonnull(q.opts.sys_includes); /* empty, not absent */
	ck_assert_ptr_null(q.opts.sys_includes[0]);
	ck_assert_ptr_null(q.opts.predefines);
	ck_assert_str_eq(q.opts.kernel_names[1], "-DX=1");
	ck_assert(q.opts.multicore);
	ck_assert_uint_eq(q.env.n, 2);
	ck_assert_str_eq(q.env.v[1], "C_INCLUDE_PATH");
	ck_assert(!q.opts.preprocessed);
	q7_wire_request_free(&q);
	for (size_t cut = 0; cut < b.len; cut++)
		ck_assert_int_eq(q7_wire_get_request(b.s, cut, &q), -1);
	q7_sb_free(&b);
	/* Preprocessed text (a .ii) reaches the server as such. */
	o.preprocessed = true;
	q7_wire_put_request(&b, &o, "/work", env);
	ck_assert_int_eq(q7_wire_get_request(b.s, b.len, &q), 0);
	ck_assert(q.opts.preprocessed);
	q7_wire_request_free(&q);
	q7_sb_free(&b);
}
END_TEST

/* q7_analysis_result_read, why dropped. */
static int result_read(const char *data, size_t len, struct q7_strvec *names, int *rc,
                       struct q7_op_table *ops, struct q7_diags *diags)
{
	struct q7_strbuf why = {0};
	int got = q7_analysis_result_read(data, len, names, rc, ops, diags, &why);
	q7_sb_free(&why);
	return got;
}

/* What q7cc -E leaves in its output for q7cc -c: names and result. */
START_TEST(analysis_result_round_trip)
{
	struct q7_op_table ops = sample_ops(), got = {0};
	struct q7_diags diags = sample_diags(), gotd = {0};
	char *names[] = {"ns::k", "other", NULL};
	struct q7_strbuf b = {0};
	q7_analysis_result_put(&b, names, Q7_ANALYZE_PARSE_ERROR, &ops, &diags);
	struct q7_strvec gotn = {0};
	int rc = 0;
	ck_assert_int_eq(result_read(b.s, b.len, &gotn, &rc, &got, &gotd), 0);
	ck_assert_int_eq(rc, Q7_ANALYZE_PARSE_ERROR);
	ck_assert_uint_eq(gotn.n, 2);
	ck_assert_str_eq(gotn.v[0], "ns::k");
	ck_assert_uint_eq(got.n, 2);
	ck_assert_uint_eq(got.ops[0].stack_size, 8192);
	ck_assert_uint_eq(gotd.n, 2);
	ck_assert_str_eq(gotd.d[0].rule, "q7-return");
	/* Re-encoded, the same bytes: the records stay byte-identical. */
	struct q7_strbuf again = {0};
	q7_analysis_result_put(&again, gotn.v, rc, &got, &gotd);
	ck_assert_uint_eq(again.len, b.len);
	ck_assert(memcmp(again.s, b.s, b.len) == 0);
	q7_sb_free(&again);
	/* No names at all, and every cut refused without touching the tables. */
	for (size_t cut = 0; cut < b.len; cut++) {
		struct q7_strvec n = {0};
		struct q7_op_table t = {0};
		struct q7_diags d = {0};
		ck_assert_int_eq(result_read(b.s, cut, &n, &rc, &t, &d), -1);
		ck_assert_uint_eq(n.n + t.n + d.n, 0);
	}
	q7_sb_free(&b);
	struct q7_op_table empty = {0};
	struct q7_diags nod = {0};
	q7_analysis_result_put(&b, NULL, 0, &empty, &nod);
	q7_sv_free(&gotn);
	ck_assert_int_eq(result_read(b.s, b.len, &gotn, &rc, &empty, &nod), 0);
	ck_assert_uint_eq(gotn.n + empty.n + nod.n, 0);
	ck_assert_int_eq(rc, 0);
	q7_sb_free(&b);
	q7_sv_free(&gotn);
	q7_ops_free(&ops);
	q7_ops_free(&got);
	q7_diags_free(&diags);
	q7_diags_free(&gotd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-wire");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, result_round_trip);
	tcase_add_test(tc, request_round_trip);
	tcase_add_test(tc, analysis_result_round_trip);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
