/* The lint rule table (analysis/lint.c): every rule documented, the names
 * sorted and unique, and each kernel rule's check fires on facts that
 * break it (and on no others): a new rule without a case here fails. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "run_suite.h"

static const struct q7_kparam tensor_param = {
	.label = "'x'", .kind = Q7_KIND_TENSOR, .ctype = "const at::Tensor &", .at = {"k.cpp", 3, 40}};

/* A kernel that breaks no rule: k.cpp:3:15 "at::Tensor k(const at::Tensor &x)". */
static struct q7_kfacts clean(void)
{
	return (struct q7_kfacts){
		.name = "k",
		.qualname = "ns::k",
		.at = {"k.cpp", 3, 15},
		.toolchain = "xt",
		.proto = true,
		.ret_known = true,
		.ret = Q7_KIND_TENSOR,
		.ret_ctype = "at::Tensor",
		.nparams = 1,
		.params = &tensor_param,
	};
}

static struct q7_kparam bad_param;
static const struct q7_kuse use = {"accessor", {"k.cpp", 5, 7}};

static void break_c_linkage(struct q7_kfacts *k) { k->c_linkage = true; }
static void break_duplicate(struct q7_kfacts *k)
{
	k->same_name = "other::k";
	k->same_name_at = (struct q7_kplace){"k.cpp", 1, 15};
}
static void break_inline(struct q7_kfacts *k) { k->is_inline = true; }
static void break_internal(struct q7_kfacts *k) { k->internal = true; }
static void break_invalid(struct q7_kfacts *k) { k->invalid = true; }
static void break_member(struct q7_kfacts *k) { k->member = true; }
static void break_multicore(struct q7_kfacts *k)
{
	k->multicore = true;
	k->nuses = 1;
	k->uses = &use;
}
static void break_name_length(struct q7_kfacts *k)
{
	k->name = "a_kernel_name_of_32_characters__";
}
static void break_overload(struct q7_kfacts *k) { k->other_decl = (struct q7_kplace){"k.cpp", 2, 15}; }
static void break_profile_kind(struct q7_kfacts *k)
{
	bad_param = tensor_param;
	bad_param.kind = Q7_KIND_BOOL;
	bad_param.ctype = "bool";
	k->params = &bad_param;
}
static void break_return(struct q7_kfacts *k)
{
	k->ret = Q7_KIND_INVALID;
	k->ret_ctype = "void";
}
static void break_stack(struct q7_kfacts *k) { k->stack_flag_bad = "4x"; }
static void break_template(struct q7_kfacts *k) { k->is_template = true; }
static void break_unsupported(struct q7_kfacts *k)
{
	bad_param = tensor_param;
	bad_param.kind = Q7_KIND_INVALID;
	bad_param.ctype = "float *";
	bad_param.why = "a pointer";
	k->params = &bad_param;
}
static void break_variadic(struct q7_kfacts *k) { k->variadic = true; }

/* One case per kernel rule, by name. */
static const struct {
	const char *rule;
	void (*breaks)(struct q7_kfacts *k);
} cases[] = {
	{Q7_RULE_C_LINKAGE, break_c_linkage},
	{Q7_RULE_DUPLICATE, break_duplicate},
	{Q7_RULE_INLINE, break_inline},
	{Q7_RULE_INTERNAL, break_internal},
	{Q7_RULE_INVALID_DECL, break_invalid},
	{Q7_RULE_MEMBER, break_member},
	{Q7_RULE_MULTICORE_ACCESSOR, break_multicore},
	{Q7_RULE_NAME_LENGTH, break_name_length},
	{Q7_RULE_OVERLOAD, break_overload},
	{Q7_RULE_PROFILE_KIND, break_profile_kind},
	{Q7_RULE_RETURN, break_return},
	{Q7_RULE_STACK, break_stack},
	{Q7_RULE_TEMPLATE, break_template},
	{Q7_RULE_UNSUPPORTED_PARAM, break_unsupported},
	{Q7_RULE_VARIADIC, break_variadic},
};

/* Every rule is documented, and the table stays sorted with unique names. */
START_TEST(rules_documented)
{
	size_t len;
	char *doc = q7_read_file(LINT_RULES_MD, &len);
	ck_assert_ptr_nonnull(doc);
	for (const struct q7_rule *r = q7_rules; r->name; r++) {
		char *row = q7_xasprintf("| `%s` |", r->name);
		ck_assert_msg(strstr(doc, row), "docs/lint-rules.md lacks %s", r->name);
		free(row);
		if (r != q7_rules)
			ck_assert_msg(strcmp(r[-1].name, r->name) < 0, "%s: not after %s", r->name,
			              r[-1].name);
		ck_assert_ptr_eq(q7_rule_find(r->name), r);
		ck_assert_msg(!r->steps == !r->check, "%s: a step without a check, or the reverse",
		              r->name);
		ck_assert_uint_eq(r->steps & ~(unsigned)(2 * Q7_LINT_PARAM - 1), 0);
	}
	free(doc);
}
END_TEST

static size_t count(const struct q7_diags *ds, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < ds->n; i++)
		n += strcmp(ds->d[i].rule, rule) == 0;
	return n;
}

/* Each kernel rule's check fires on its case, at the rule's severity, and
 * only its rule does; a clean kernel has no finding. */
START_TEST(each_check_fires)
{
	struct q7_diags ds = {0};
	struct q7_kfacts k = clean();
	ck_assert(q7_lint_kernel(&k, &ds));
	ck_assert_uint_eq(ds.n, 0);
	for (const struct q7_rule *r = q7_rules; r->name; r++) {
		if (!r->check)
			continue;
		size_t c = 0;
		while (c < sizeof cases / sizeof cases[0] && strcmp(cases[c].rule, r->name) != 0)
			c++;
		ck_assert_msg(c < sizeof cases / sizeof cases[0], "%s: no case in check_lint.c",
		              r->name);
		k = clean();
		cases[c].breaks(&k);
		bool ok = q7_lint_kernel(&k, &ds);
		ck_assert_msg(ds.n >= 1 && count(&ds, r->name) == 1, "%s: %zu findings", r->name, ds.n);
		for (size_t i = 0; i < ds.n; i++) {
			const struct q7_diag *d = &ds.d[i];
			ck_assert_msg(d->severity == Q7_SEV_NOTE || strcmp(d->rule, r->name) == 0,
			              "%s: also %s", r->name, d->rule);
			if (*d->rule)
				ck_assert_int_eq(d->severity, r->severity);
		}
		ck_assert_int_eq(ok, r->severity != Q7_SEV_ERROR);
		q7_diags_free(&ds);
	}
}
END_TEST

/* The fronts' wordings of one rule: the symbol front names the object, the
 * link's merge both records. */
START_TEST(wordings)
{
	struct q7_diags ds = {0};
	struct q7_kfacts k = clean();
	k.member = true;
	q7_lint_kernel(&k, &ds);
	k.where = "k.o";
	q7_lint_kernel(&k, &ds);
	k = clean();
	k.internal = true;
	k.who = "'k' named by NEURON_LIBRARY at shape.cpp:6";
	k.where = "k.o";
	q7_lint_kernel(&k, &ds);
	k = clean();
	break_duplicate(&k);
	k.linked = k.declared = true;
	q7_lint_kernel(&k, &ds);
	ck_assert_uint_eq(ds.n, 5); /* the duplicate and its note */
	ck_assert_str_eq(ds.d[0].message,
	                 "kernel 'ns::k' is a member function; a kernel is a free function");
	ck_assert_str_eq(ds.d[1].message, "kernel 'ns::k' (defined in k.o) is a member function; a "
	                                  "kernel is a free function");
	ck_assert_str_eq(ds.d[2].message,
	                 "'k' named by NEURON_LIBRARY at shape.cpp:6 is defined in k.o with internal "
	                 "linkage (static, or in an unnamed namespace); the generated wrapper cannot "
	                 "call it");
	ck_assert_str_eq(ds.d[2].file, "k.cpp");
	ck_assert_str_eq(ds.d[3].message, "kernel 'k' (ns::k) is declared here and also at k.cpp:1 "
	                                  "(other::k); kernel names must be unique in a library");
	ck_assert_str_eq(ds.d[4].message, "the other 'k' is here");
	ck_assert_uint_eq(ds.d[2].line, 3);
	ck_assert_uint_eq(ds.d[2].col, 15);
	q7_diags_free(&ds);
}
END_TEST

/* The steps: a scope finding ends the lint, linkage is judged only
 * without an earlier error, the prototype only when known, and each
 * parameter's rules in turn. */
START_TEST(steps)
{
	struct q7_diags ds = {0};
	struct q7_kfacts k = clean();
	break_overload(&k);
	k.member = true;
	ck_assert(!q7_lint_kernel(&k, &ds));
	ck_assert_uint_eq(ds.n, 2); /* the overload and its note */
	ck_assert_str_eq(ds.d[0].rule, Q7_RULE_OVERLOAD);
	q7_diags_free(&ds);

	k = clean();
	k.member = k.is_inline = k.c_linkage = k.variadic = true;
	q7_lint_kernel(&k, &ds);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_str_eq(ds.d[0].rule, Q7_RULE_MEMBER);
	ck_assert_str_eq(ds.d[1].rule, Q7_RULE_VARIADIC);
	q7_diags_free(&ds);

	k = clean();
	k.is_inline = k.c_linkage = true;
	k.proto = false;
	k.variadic = true;
	q7_lint_kernel(&k, &ds);
	ck_assert_uint_eq(ds.n, 1);
	ck_assert_str_eq(ds.d[0].rule, Q7_RULE_INLINE);
	q7_diags_free(&ds);

	struct q7_kparam ps[2] = {tensor_param, tensor_param};
	ps[0].kind = Q7_KIND_INVALID;
	ps[0].ctype = "int *";
	ps[0].why = "a pointer";
	ps[1].kind = Q7_KIND_DOUBLE;
	k = clean();
	k.nparams = 2;
	k.params = ps;
	q7_lint_kernel(&k, &ds);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_str_eq(ds.d[0].rule, Q7_RULE_UNSUPPORTED_PARAM);
	ck_assert_str_eq(ds.d[1].rule, Q7_RULE_PROFILE_KIND);
	q7_diags_free(&ds);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-lint");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, rules_documented);
	tcase_add_test(tc, each_check_fires);
	tcase_add_test(tc, wordings);
	tcase_add_test(tc, steps);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
