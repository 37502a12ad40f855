/* The kind table (<q7/kinds.h>) against its users on the tools' side:
 * every row's schema words read back as that kind, its mangled letters
 * and class names demangle back to it, the schema text and codegen use
 * its marshalling call, which <neuron/wrapper_api.h> declares with the
 * row's local type, and the q7-profile-kind rule follows its xt column. (The
 * runtime's side: tests/runtime/check_kinds_rt.cpp; libclang's:
 * check_analysis_kernels, kind_table.) */
#include "analysis.h"
#include "codegen.h"
#include "internal.h"
#include "mangle.h"
#include "schema.h"

#include "../analysis/run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define FOR_KINDS(k) for (enum q7_kind k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++)

/* The i-th '|'-separated word of list, or NULL. */
static char *word(const char *list, int i)
{
	const char *p = list;
	for (; i > 0 && p; i--)
		p = (p = strchr(p, '|')) ? p + 1 : NULL;
	return p && *p ? q7_xstrndup(p, strcspn(p, "|")) : NULL;
}

/* "at::Tensor" -> "N2at6TensorE", "int" stays a builtin's letters. */
static char *mangle_class(const char *qual)
{
	struct q7_strbuf b = {0};
	q7_sb_addc(&b, 'N');
	for (const char *p = qual; *p;) {
		size_t n = strcspn(p, ":");
		q7_sb_addf(&b, "%zu%.*s", n, (int)n, p);
		p += n;
		while (*p == ':')
			p++;
	}
	q7_sb_addc(&b, 'E');
	return q7_sb_take(&b);
}

/* Demangles _Z1f<param> and checks the one parameter's kind and ctype
 * (ctype NULL: not checked). */
static void demangles_to(const char *param, bool lp64, enum q7_kind want, const char *ctype)
{
	char *sym = q7_xasprintf("_Z1f%s", param);
	struct q7_mfunc f;
	const char *why;
	ck_assert_msg(q7_demangle(sym, lp64, &f, &why) == 0, "%s: %s", sym, why);
	ck_assert_uint_eq(f.nparams, 1);
	ck_assert_msg(f.params[0].kind == want, "%s: kind %s, want %s", sym,
	              q7_kind_name(f.params[0].kind), q7_kind_name(want));
	if (ctype)
		ck_assert_str_eq(f.params[0].ctype, ctype);
	q7_mfunc_free(&f);
	free(sym);
}

START_TEST(rows)
{
	ck_assert_int_eq(Q7_KIND_INVALID, 0);
	ck_assert_ptr_null(q7_kind_info(Q7_KIND_INVALID));
	ck_assert_ptr_null(q7_kind_info(Q7_KIND_END));
	ck_assert_str_eq(q7_kind_name(Q7_KIND_INVALID), "?");
	ck_assert_int_lt(Q7_KIND_END, 256); /* records store a kind in a byte */
	FOR_KINDS(k) {
		const struct q7_kind_info *r = q7_kind_info(k);
		ck_assert_ptr_nonnull(r);
		ck_assert_msg(*r->name && *r->torch && *r->cxx && *r->call && *r->local, "row %d", k);
		for (enum q7_kind j = Q7_KIND_INVALID + 1; j < k; j++) {
			ck_assert_str_ne(q7_kind_name(j), r->name);
			ck_assert_str_ne(q7_kind_info(j)->call, r->call);
		}
	}
}
END_TEST

START_TEST(words)
{
	FOR_KINDS(k) {
		const struct q7_kind_info *r = q7_kind_info(k);
		ck_assert_int_eq(q7_kind_of_word(r->name, strlen(r->name)), k);
		if (*r->also)
			ck_assert_int_eq(q7_kind_of_word(r->also, strlen(r->also)), k);
		/* The TorchScript type names a kind of that type. */
		enum q7_kind t = q7_kind_of_word(r->torch, strlen(r->torch));
		ck_assert_str_eq(q7_kind_torch(t), r->torch);
		/* ... and the schema text reads each word. */
		char *text = q7_xasprintf("f(%s a, %s b, %s c) -> Tensor", r->name,
		                          *r->also ? r->also : r->name, r->torch);
		struct q7_op op;
		struct q7_err err = Q7_ERR_GROWING;
		ck_assert_msg(q7_schema_parse(text, &op, &err, NULL) == 0, "%s: %s", text, q7_err_text(&err));
		ck_assert_int_eq(op.params[0].kind, k);
		ck_assert_int_eq(op.params[1].kind, k);
		ck_assert_int_eq(op.params[2].kind, t);
		char *ctype = q7_kind_param_ctype(k);
		ck_assert_str_eq(op.params[0].ctype, ctype);
		free(ctype);
		q7_op_clear(&op);
		free(text);
	}
	ck_assert_int_eq(q7_kind_of_word("long", 4), Q7_KIND_INVALID);
	ck_assert_int_eq(q7_kind_of_word("Tensorx", 7), Q7_KIND_INVALID);
}
END_TEST

START_TEST(cxx_and_mangled)
{
	FOR_KINDS(k) {
		const struct q7_kind_info *r = q7_kind_info(k);
		if (*r->mangled) {
			/* A builtin: its letters and its spelling, by value and const&. */
			ck_assert_int_eq(q7_kind_of_builtin(r->cxx, 32), k);
			char *cref = q7_xasprintf("const %s &", r->cxx);
			char *rk = q7_xasprintf("RK%s", r->mangled);
			demangles_to(r->mangled, false, k, r->cxx);
			demangles_to(r->mangled, true, k, r->cxx);
			demangles_to(rk, false, k, cref);
			free(rk);
			free(cref);
			if (r->intbits) /* a long of its width */
				demangles_to("l", r->intbits == 64, k, "long");
			continue;
		}
		/* A class: every name it has. */
		char *name;
		for (int i = 0; (name = word(r->cxx, i)) != NULL; i++) {
			ck_assert_int_eq(q7_kind_of_class(name), k);
			ck_assert_int_eq(q7_class_kind(name, NULL), k);
			char *m = mangle_class(name);
			char *rk = q7_xasprintf("RK%s", m);
			char *cref = q7_xasprintf("const %s &", name);
			demangles_to(m, false, k, name);
			demangles_to(rk, true, k, cref);
			free(cref);
			free(rk);
			free(m);
			free(name);
		}
	}
	/* Every integer width a long can have has its kind. */
	ck_assert_int_ne(q7_kind_of_builtin("long", 32), Q7_KIND_INVALID);
	ck_assert_int_ne(q7_kind_of_builtin("long", 64), Q7_KIND_INVALID);
	ck_assert_int_eq(q7_kind_of_builtin("unsigned int", 32), Q7_KIND_INVALID);
}
END_TEST

START_TEST(marshalling)
{
	size_t len;
	char *api = q7_read_file(WRAPPER_API_H, &len);
	ck_assert_ptr_nonnull(api);
	FOR_KINDS(k) {
		const struct q7_kind_info *r = q7_kind_info(k);
		char *decl = q7_xasprintf("\n%s %s();\n", r->local, r->call);
		ck_assert_msg(strstr(api, decl), "wrapper_api.h does not declare%s", decl);
		free(decl);

		struct q7_op_table t = {0};
		struct q7_op *op = q7_ops_add(&t);
		op->name = q7_xstrdup("f");
		op->qualname = q7_xstrdup("f");
		op->ret = Q7_KIND_TENSOR;
		op->ret_ctype = q7_kind_result_ctype(Q7_KIND_TENSOR);
		op->ret_name = q7_xstrdup("");
		op->file = q7_xstrdup("");
		op->nparams = 1;
		op->params = q7_xcalloc(1, sizeof *op->params);
		op->params[0] = (struct q7_param){k, q7_xstrdup("a"), q7_kind_param_ctype(k)};
		struct q7_strbuf w = {0};
		ck_assert_int_eq(q7_codegen_dispatch(&t, &w), 0);
		char *unpack = q7_xasprintf("\t%s a0 = %s();\n", r->local, r->call);
		ck_assert_msg(strstr(w.s, unpack), "no '%s' in:\n%s", unpack, w.s);
		struct q7_strvec refs = {0};
		q7_codegen_runtime_refs(&t, &refs);
		char *sym = q7_xasprintf("_Z%zu%sv", strlen(r->call), r->call);
		bool found = false;
		for (size_t i = 0; i < refs.n; i++)
			found |= strcmp(refs.v[i], sym) == 0;
		ck_assert_msg(found, "no %s among the runtime symbols", sym);
		ck_assert(q7_toolchain_marshals("gnu", k));
		ck_assert_int_eq(q7_toolchain_marshals("xt", k), r->xt);
		free(sym);
		q7_sv_free(&refs);
		free(unpack);
		q7_sb_free(&w);
		q7_ops_free(&t);
	}
	ck_assert(!q7_toolchain_marshals("gnu", Q7_KIND_INVALID));
	free(api);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kinds");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, rows);
	tcase_add_test(tc, words);
	tcase_add_test(tc, cxx_and_mangled);
	tcase_add_test(tc, marshalling);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
