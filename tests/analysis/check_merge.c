/* q7_ops_merge: declarations meet definitions, duplicates across objects
 * are errors naming both places, undefined kernels and the 10-kernel
 * limit are caught, and the order is stable (by name). */
#include "analysis.h"
#include "schema.h"

#include "run_suite.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void add(struct q7_op_table *t, const char *schema, bool defined, const char *file,
                unsigned line, unsigned stack)
{
	struct q7_err err = Q7_ERR_GROWING;
	struct q7_op *op = q7_ops_add(t);
	ck_assert_msg(q7_schema_parse(schema, op, &err, NULL) == 0, "%s", q7_err_text(&err));
	op->defined = defined;
	free(op->file);
	op->file = q7_xstrdup(file);
	op->line = line;
	op->col = 1;
	op->stack_size = stack;
}

static const struct q7_diag *find(const struct q7_diags *ds, const char *rule)
{
	for (size_t i = 0; i < ds->n; i++)
		if (strcmp(ds->d[i].rule, rule) == 0)
			return &ds->d[i];
	return NULL;
}

START_TEST(declaration_meets_definition)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_diags ds = {0};
	add(&in, "ops::zeta(Tensor x) -> Tensor", true, "z.cpp", 3, 0);
	add(&in, "ops::relu(Tensor x, int k) -> Tensor", false, "k.h", 5, 8192);
	add(&in, "ops::relu(Tensor a, int b) -> Tensor", true, "relu.cpp", 9, 0);
	add(&in, "ops::relu(Tensor x, int k) -> Tensor", false, "k.h", 5, 8192); /* 2nd TU */
	add(&in, "alpha(Tensor x) -> Tensor", true, "a.cpp", 1, 0);
	add(&in, "alpha(Tensor x) -> Tensor", true, "a.cpp", 1, 0); /* same object twice */
	q7_ops_merge(&in, "gnu", &out, &ds);
	ck_assert_uint_eq(ds.n, 0);
	ck_assert_uint_eq(out.n, 3);
	ck_assert_str_eq(out.ops[0].name, "alpha");
	ck_assert_str_eq(out.ops[1].name, "relu");
	ck_assert_str_eq(out.ops[2].name, "zeta");
	/* The definition's place and names, the declaration's stack size. */
	ck_assert_str_eq(out.ops[1].file, "relu.cpp");
	ck_assert_uint_eq(out.ops[1].line, 9);
	ck_assert_str_eq(out.ops[1].params[0].name, "a");
	ck_assert(out.ops[1].defined);
	ck_assert_uint_eq(out.ops[1].stack_size, 8192);
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);
}
END_TEST

START_TEST(duplicates)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_diags ds = {0};
	add(&in, "a::relu(Tensor x) -> Tensor", true, "one.cpp", 4, 0);
	add(&in, "b::relu(Tensor x) -> Tensor", true, "two.cpp", 7, 0);
	add(&in, "c::conv(Tensor x) -> Tensor", true, "one.cpp", 10, 0);
	add(&in, "c::conv(Tensor x) -> Tensor", true, "three.cpp", 2, 0); /* ODR: twice */
	q7_ops_merge(&in, "gnu", &out, &ds);
	const struct q7_diag *d = find(&ds, "q7-duplicate-kernel");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->severity, Q7_SEV_ERROR);
	/* conv first (by name): both places named, one in the message. */
	ck_assert_str_eq(d->file, "three.cpp");
	ck_assert_uint_eq(d->line, 2);
	ck_assert_ptr_nonnull(strstr(d->message, "one.cpp:10"));
	ck_assert_int_eq(d[1].severity, Q7_SEV_NOTE);
	ck_assert_str_eq(d[1].file, "one.cpp");
	ck_assert_str_eq(d[2].rule, "q7-duplicate-kernel");
	ck_assert_str_eq(d[2].file, "two.cpp");
	ck_assert_ptr_nonnull(strstr(d[2].message, "one.cpp:4"));
	ck_assert_uint_eq(out.n, 2);
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);
}
END_TEST

START_TEST(undefined)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_diags ds = {0};
	add(&in, "k(Tensor x) -> Tensor", false, "k.h", 3, 0);
	add(&in, "k(Tensor x, int n) -> Tensor", true, "k.cpp", 3, 0); /* another overload */
	q7_ops_merge(&in, "gnu", &out, &ds);
	const struct q7_diag *d = find(&ds, "q7-undefined-kernel");
	ck_assert_ptr_null(d); /* reported as a duplicate name first */
	ck_assert_ptr_nonnull(find(&ds, "q7-duplicate-kernel"));
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);

	add(&in, "only_declared(Tensor x) -> Tensor", false, "k.h", 8, 0);
	q7_ops_merge(&in, "gnu", &out, &ds);
	d = find(&ds, "q7-undefined-kernel");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->file, "k.h");
	ck_assert_uint_eq(d->line, 8);
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);
}
END_TEST

START_TEST(too_many)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_diags ds = {0};
	char schema[64];
	for (int i = 0; i < 10; i++) {
		snprintf(schema, sizeof schema, "k%02d(Tensor x) -> Tensor", i);
		add(&in, schema, true, "k.cpp", (unsigned)i + 1, 0);
	}
	q7_ops_merge(&in, "gnu", &out, &ds);
	ck_assert_uint_eq(ds.n, 0);
	q7_ops_free(&out);
	add(&in, "k10(Tensor x) -> Tensor", true, "k.cpp", 11, 0);
	q7_ops_merge(&in, "gnu", &out, &ds);
	const struct q7_diag *d = find(&ds, "q7-too-many-kernels");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->severity, Q7_SEV_ERROR);
	ck_assert_uint_eq(d->line, 11);
	q7_diags_free(&ds);
	q7_ops_free(&out);
	q7_ops_merge(&in, "host", &out, &ds);
	ck_assert_int_eq(find(&ds, "q7-too-many-kernels")->severity, Q7_SEV_WARNING);
	ck_assert_uint_eq(out.n, 11);
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);
}
END_TEST

/* Errors after policy p of an 11-kernel library merged for toolchain. */
static size_t too_many_errors(const char *toolchain, struct q7_warn_policy *p, size_t *left)
{
	struct q7_op_table in = {0}, out = {0};
	struct q7_diags ds = {0};
	char schema[64];
	for (int i = 0; i < 11; i++) {
		snprintf(schema, sizeof schema, "k%02d(Tensor x) -> Tensor", i);
		add(&in, schema, true, "k.cpp", (unsigned)i + 1, 0);
	}
	q7_ops_merge(&in, toolchain, &out, &ds);
	size_t errors = q7_diags_apply_policy(&ds, p);
	*left = ds.n;
	q7_ops_free(&in);
	q7_ops_free(&out);
	q7_diags_free(&ds);
	q7_warn_policy_free(p);
	return errors;
}

/* The cap is the device's: under xt no flag lowers it; on gnu it is a
 * default-error warning (-Wno-error= demotes, -Wno- and -w drop it),
 * on host a warning. */
START_TEST(too_many_policy)
{
	const char *rule = "q7-too-many-kernels";
	struct q7_warn_policy p = {0};
	size_t left;
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 1);
	q7_warn_policy_rule(&p, rule, true, true); /* -Wno-error=RULE */
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 0);
	ck_assert_uint_eq(left, 1);
	q7_warn_policy_rule(&p, rule, true, false); /* -Wno-RULE */
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 0);
	ck_assert_uint_eq(left, 0);
	p.suppress_all = true; /* -w */
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 0);
	ck_assert_uint_eq(left, 0);
	q7_warn_policy_rule(&p, rule, true, false); /* -Wno-RULE -WRULE */
	q7_warn_policy_rule(&p, rule, false, false);
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 1);
	p.werror = true; /* -Wno-error=RULE -Werror */
	q7_warn_policy_rule(&p, rule, true, true);
	ck_assert_uint_eq(too_many_errors("gnu", &p, &left), 0);
	ck_assert_uint_eq(left, 1);
	q7_warn_policy_rule(&p, rule, true, false);
	ck_assert_uint_eq(too_many_errors("host", &p, &left), 0);
	ck_assert_uint_eq(left, 0);
	ck_assert_uint_eq(too_many_errors("host", &p, &left), 0);
	ck_assert_uint_eq(left, 1);
	for (int error = 0; error < 2; error++) { /* -Wno-RULE, -Wno-error=RULE */
		q7_warn_policy_rule(&p, rule, true, error);
		ck_assert_uint_eq(too_many_errors("xt", &p, &left), 1);
	}
	p.suppress_all = true;
	ck_assert_uint_eq(too_many_errors("xt", &p, &left), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-merge");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, declaration_meets_definition);
	tcase_add_test(tc, duplicates);
	tcase_add_test(tc, undefined);
	tcase_add_test(tc, too_many);
	tcase_add_test(tc, too_many_policy);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
