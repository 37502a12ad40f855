/* codegen unit tests: hand-made op tables -> wrapper.cpp, compared byte
 * for byte with the golden files in golden/ (Q7_UPDATE_GOLDEN=1 rewrites
 * them), plus the tables codegen must refuse. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

static const char *golden_dir;

static void add_param(struct q7_op *op, enum q7_kind k, const char *name, const char *ctype)
{
	op->params = q7_xrealloc(op->params, (op->nparams + 1) * sizeof *op->params);
	struct q7_param *p = &op->params[op->nparams++];
	p->kind = k;
	p->name = q7_xstrdup(name);
	p->ctype = q7_xstrdup(ctype);
}

static struct q7_op *add_op(struct q7_op_table *t, const char *name, const char *qualname)
{
	struct q7_op *op = q7_ops_add(t);
	op->name = q7_xstrdup(name);
	op->qualname = q7_xstrdup(qualname);
	op->ret_ctype = q7_xstrdup("at::Tensor");
	op->ret = Q7_KIND_TENSOR;
	op->ret_name = q7_xstrdup("");
	op->file = q7_xstrdup("kernels.cpp");
	op->defined = true;
	return op;
}

static void check_golden(const struct q7_op_table *t, const char *name)
{
	struct q7_strbuf out = {0};
	ck_assert_int_eq(q7_codegen_dispatch(t, &out), 0);
	char *path = q7_xasprintf("%s/%s", golden_dir, name);
	if (getenv("Q7_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fwrite(out.s, 1, out.len, f);
		fclose(f);
	}
	size_t len = 0;
	char *want = q7_read_file(path, &len);
	ck_assert_msg(want != NULL, "cannot read %s", path);
	ck_assert_msg(len == out.len && memcmp(want, out.s, len) == 0,
	              "%s differs from the output:\n%s", path, out.s);
	/* Deterministic: the same table gives the same bytes again. */
	struct q7_strbuf again = {0};
	ck_assert_int_eq(q7_codegen_dispatch(t, &again), 0);
	ck_assert_str_eq(again.s, out.s);
	q7_sb_free(&again);
	free(want);
	free(path);
	q7_sb_free(&out);
}

START_TEST(one_relu)
{
	struct q7_op_table t = {0};
	struct q7_op *op = add_op(&t, "relu", "relu");
	add_param(op, Q7_KIND_TENSOR, "t_in", "const at::Tensor &");
	check_golden(&t, "relu.cpp");
	q7_ops_free(&t);
}
END_TEST

START_TEST(every_kind_and_namespaces)
{
	struct q7_op_table t = {0};
	struct q7_op *op = add_op(&t, "scale", "ops::scale");
	add_param(op, Q7_KIND_TENSOR, "x", "const at::Tensor &");
	add_param(op, Q7_KIND_LONGLONG, "k", "long");
	add_param(op, Q7_KIND_DOUBLE, "a", "double");
	add_param(op, Q7_KIND_SCALAR, "s", "const at::Scalar &");
	op = add_op(&t, "mix", "ops::inner::mix");
	add_param(op, Q7_KIND_TENSOR, "", "at::Tensor");
	add_param(op, Q7_KIND_INT, "n", "int");
	add_param(op, Q7_KIND_FLOAT, "f", "float");
	add_param(op, Q7_KIND_BOOL, "flag", "bool");
	add_param(op, Q7_KIND_LONGLONG, "", "long long");
	op = add_op(&t, "deep", "deep");
	add_param(op, Q7_KIND_TENSOR, "x", "const at::Tensor &");
	op->stack_size = 1048576;
	op = add_op(&t, "noargs", "::noargs");
	check_golden(&t, "kinds.cpp");
	q7_ops_free(&t);
}
END_TEST

START_TEST(empty_table)
{
	struct q7_op_table t = {0};
	check_golden(&t, "empty.cpp");
}
END_TEST

static void expect_refused(struct q7_op_table *t)
{
	struct q7_strbuf out = {0};
	ck_assert_int_eq(q7_codegen_dispatch(t, &out), -1);
	q7_sb_free(&out);
	q7_ops_free(t);
}

START_TEST(refuses_long_name)
{
	struct q7_op_table t = {0};
	add_op(&t, "a_kernel_name_of_32_characters_", "a_kernel_name_of_32_characters_");
	struct q7_strbuf out = {0};
	ck_assert_int_eq(q7_codegen_dispatch(&t, &out), 0); /* 31 is fine */
	q7_sb_free(&out);
	add_op(&t, "a_kernel_name_of_32_characters__", "a_kernel_name_of_32_characters__");
	expect_refused(&t);
}
END_TEST

/* The op list q7-run and PyTorch read ("name<TAB>schema" lines) has
 * 65,534 bytes of room; a library whose list is longer was once linked,
 * and then no tool could list its ops. */
START_TEST(refuses_long_op_list)
{
	struct q7_op_table t = {0};
	char *name = q7_xmalloc(40001);
	memset(name, 'p', 40000);
	name[40000] = '\0';
	struct q7_op *op = add_op(&t, "k", "k");
	add_param(op, Q7_KIND_INT, name, "int");
	struct q7_strbuf out = {0};
	ck_assert_int_eq(q7_codegen_dispatch(&t, &out), 0); /* one such name fits */
	q7_sb_free(&out);
	op = add_op(&t, "k2", "k2");
	add_param(op, Q7_KIND_INT, name, "int");
	expect_refused(&t);
	free(name);
}
END_TEST

START_TEST(refuses_bad_tables)
{
	struct q7_op_table t = {0};
	struct q7_op *op = add_op(&t, "f", "f");
	add_param(op, Q7_KIND_INVALID, "v", "std::vector<int>");
	expect_refused(&t);

	op = add_op(&t, "f", "f");
	op->ret = Q7_KIND_INT;
	expect_refused(&t);

	add_op(&t, "f", "a::f");
	add_op(&t, "f", "b::f");
	expect_refused(&t);

	add_op(&t, "f", "(anonymous namespace)::f");
	expect_refused(&t);

	add_op(&t, "f", "ns::g");
	expect_refused(&t);

	op = add_op(&t, "f", "f");
	op->stack_size = 0x400001;
	expect_refused(&t);

	op = add_op(&t, "f", "f");
	for (int i = 0; i < 17; i++)
		add_param(op, Q7_KIND_INT, "", "int");
	expect_refused(&t);
}
END_TEST

/* Type text from a crafted record: a lone CR is a line break to GCC,
 * %: is '#', and the rest would change what the declaration says. Each
 * is refused as a parameter of its kind (and "at::Tensor" as a result). */
static const struct {
	enum q7_kind kind;
	const char *ctype;
} hostile[] = {
	{Q7_KIND_INT, "int\r#include </etc/hostname>"},
	{Q7_KIND_INT, "int %:include </etc/hostname>"},
	{Q7_KIND_INT, "%:include </etc/hostname>\rint"},
	{Q7_KIND_INT, "int\v"},
	{Q7_KIND_INT, "int\f"},
	{Q7_KIND_INT, "int /* c */"},
	{Q7_KIND_INT, "int // c"},
	{Q7_KIND_INT, "int ?" "?="}, /* a trigraph, spelled apart here */
	{Q7_KIND_INT, "int\\"},
	{Q7_KIND_INT, "int <:1:>"},
	{Q7_KIND_INT, "int <%%>"},
	{Q7_KIND_INT, "unsigned int"},
	{Q7_KIND_INT, "int *"},
	{Q7_KIND_INT, "const int&"},
	{Q7_KIND_INT, "const  int &"},
	{Q7_KIND_INT, " int"},
	{Q7_KIND_INT, "const int &&"},
	{Q7_KIND_INT, "float"},
	{Q7_KIND_INT, ""},
	{Q7_KIND_FLOAT, "long"},
	{Q7_KIND_TENSOR, "const at::Scalar &"},
	{Q7_KIND_TENSOR, "const at::Tensor &\r"},
	{Q7_KIND_TENSOR, "at::Tensor\x85"},
	{Q7_KIND_TENSOR, "::at::Tensor"},
	{Q7_KIND_SCALAR, "const at::Tensor &"},
	{Q7_KIND_SCALAR, "std::vector<int>"},
};

START_TEST(refuses_hostile_types)
{
	struct q7_op_table t = {0};
	struct q7_op *op = add_op(&t, "f", "f");
	add_param(op, hostile[_i].kind, "x", hostile[_i].ctype);
	expect_refused(&t);
	op = add_op(&t, "f", "f");
	free(op->ret_ctype);
	op->ret_ctype = q7_xstrdup(hostile[_i].ctype);
	expect_refused(&t);
	/* The names around them too. */
	op = add_op(&t, "f", "ops\r::f");
	expect_refused(&t);
	op = add_op(&t, "f", "f");
	free(op->name);
	op->name = q7_xstrdup("f\r");
	expect_refused(&t);
}
END_TEST

int main(int argc, char **argv)
{
	golden_dir = argc > 1 ? argv[1] : "golden";
	q7_set_progname("check_codegen");
	Suite *s = suite_create("codegen");
	TCase *tc = tcase_create("wrapper");
	tcase_add_test(tc, one_relu);
	tcase_add_test(tc, every_kind_and_namespaces);
	tcase_add_test(tc, empty_table);
	tcase_add_test(tc, refuses_long_name);
	tcase_add_test(tc, refuses_long_op_list);
	tcase_add_test(tc, refuses_bad_tables);
	tcase_add_loop_test(tc, refuses_hostile_types, 0, (int)(sizeof hostile / sizeof hostile[0]));
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
