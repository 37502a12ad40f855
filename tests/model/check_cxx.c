/* model/cxx: the allow-list of record text, and the symbol it names
 * against what GCC emits for the same declarations (g++ and
 * xtensa-lx106-elf-g++ agree on these; nm of tests' objects), including
 * substitutions past S9_ (base 36); each symbol demangles back (the
 * link-time demangler, analysis/mangle.c) to the same names and types. */
#include "cxx.h"
#include "mangle.h"

#include "../analysis/run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* "qual(type|type|...)" and the symbol GCC gives it. */
static const struct {
	const char *decl;
	const char *symbol;
	bool lp64;
} symbols[] = {
	{"relu(const at::Tensor &|int|float)", "_Z4reluRKN2at6TensorEif", false},
	{"wide(const at::Tensor &|long long|long long|long long|double)", "_Z4wideRKN2at6TensorExxxd", false},
	{"deep(at::Tensor|int)", "_Z4deepN2at6TensorEi", false},
	{"raw_attr(const at::Tensor &|const long long &)", "_Z8raw_attrRKN2at6TensorERKx", false},
	{"hdr::from_header(const at::Tensor &|long long)", "_ZN3hdr11from_headerERKN2at6TensorEx", false},
	{"hdr::header_stack(at::Tensor|double)", "_ZN3hdr12header_stackEN2at6TensorEd", false},
	{"ops::v1::scale(at::Tensor|const c10::Scalar &|bool)", "_ZN3ops2v15scaleEN2at6TensorERKN3c106ScalarEb", false},
	{"ops::scale(const at::Tensor &|long long|float|c10::Scalar)", "_ZN3ops5scaleERKN2at6TensorExfN3c106ScalarE", false},
	{"add(const at::Tensor &|const at::Tensor &)", "_Z3addRKN2at6TensorES2_", false},
	{"noargs()", "_Z6noargsv", false},
	{"at::foo(at::Tensor)", "_ZN2at3fooENS_6TensorE", false},
	{"g(const int &|const int &)", "_Z1gRKiS0_", false},
	{"ops::inner::mix(at::Tensor|const at::Tensor &|int)", "_ZN3ops5inner3mixEN2at6TensorERKS2_i", false},
	{"c10::k(c10::Scalar|const c10::Scalar &|at::Tensor|long)", "_ZN3c101kENS_6ScalarERKS0_N2at6TensorEl", true},
	{"h(const at::Tensor &|const c10::Scalar &|const torch::Tensor &|const at::Scalar &|const int &|"
	 "const float &|const bool &|const torch::Scalar &|const long long &|const double &|"
	 "const at::Tensor &|const double &|const torch::Scalar &)",
	 "_Z1hRKN2at6TensorERKN3c106ScalarERKN5torch6TensorERKNS_6ScalarERKiRKfRKbRKNS7_6ScalarERKxRKdS2_SQ_SM_",
	 false},
	{"f(const at::Tensor &|long)", "_Z1fRKN2at6TensorEl", true},
	{"f(const at::Tensor &|long)", "_Z1fRKN2at6TensorEl", false},
};

/* The kind a type of the list spells, as analysis would give it. */
static enum q7_kind kind_of(const char *ctype, bool lp64)
{
	const char *b = strncmp(ctype, "const ", 6) == 0 ? ctype + 6 : ctype;
	char *base = q7_xstrndup(b, strcspn(b, " "));
	if (strcmp(base, "long") == 0 && strncmp(b, "long long", 9) == 0) {
		free(base);
		base = q7_xstrdup("long long");
	}
	enum q7_kind k = q7_kind_of_class(base);
	if (k == Q7_KIND_INVALID)
		k = q7_kind_of_builtin(base, lp64 ? 64 : 32);
	free(base);
	return k;
}

static void op_of(const char *decl, bool lp64, struct q7_op *op)
{
	memset(op, 0, sizeof *op);
	size_t open = strcspn(decl, "(");
	op->qualname = q7_xstrndup(decl, open);
	op->name = q7_xstrdup(q7_cxx_unqualified(op->qualname));
	char *list = q7_xstrndup(decl + open + 1, strlen(decl) - open - 2);
	for (char *save = NULL, *t = strtok_r(list, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		op->params = q7_xrealloc(op->params, (op->nparams + 1) * sizeof *op->params);
		op->params[op->nparams].kind = kind_of(t, lp64);
		op->params[op->nparams].name = q7_xstrdup("");
		op->params[op->nparams++].ctype = q7_xstrdup(t);
	}
	free(list);
}

START_TEST(symbol_as_gcc_mangles)
{
	struct q7_op op;
	op_of(symbols[_i].decl, symbols[_i].lp64, &op);
	for (size_t k = 0; k < op.nparams; k++)
		ck_assert_msg(q7_cxx_param_type(op.params[k].kind, op.params[k].ctype,
		                                symbols[_i].lp64 ? 64 : 32),
		              "%s: '%s' refused", symbols[_i].decl, op.params[k].ctype);
	char *sym = q7_cxx_symbol(&op);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym, symbols[_i].symbol);
	/* And back: the demangler reads the same function. */
	struct q7_mfunc f;
	const char *why = NULL;
	ck_assert_int_eq(q7_demangle(sym, symbols[_i].lp64, &f, &why), 0);
	ck_assert_str_eq(f.qualname, op.qualname);
	ck_assert_uint_eq(f.nparams, op.nparams);
	for (size_t k = 0; k < op.nparams; k++) {
		ck_assert_int_eq(f.params[k].kind, op.params[k].kind);
		ck_assert_str_eq(f.params[k].ctype, op.params[k].ctype);
	}
	q7_mfunc_free(&f);
	free(sym);
	q7_op_clear(&op);
}
END_TEST

/* The allow-list: kind, type text, long's width (0: unknown), taken? */
static const struct {
	enum q7_kind kind;
	const char *ctype;
	unsigned long_bits;
	bool ok;
} types[] = {
	{Q7_KIND_TENSOR, "at::Tensor", 0, true},
	{Q7_KIND_TENSOR, "const torch::Tensor &", 0, true},
	{Q7_KIND_SCALAR, "const c10::Scalar &", 0, true},
	{Q7_KIND_SCALAR, "torch::Scalar", 0, true},
	{Q7_KIND_INT, "int", 0, true},
	{Q7_KIND_INT, "const int &", 0, true},
	{Q7_KIND_INT, "long", 32, true},
	{Q7_KIND_INT, "long", 64, false},
	{Q7_KIND_INT, "long", 0, true},
	{Q7_KIND_LONGLONG, "long", 64, true},
	{Q7_KIND_LONGLONG, "long", 32, false},
	{Q7_KIND_LONGLONG, "const long &", 64, true},
	{Q7_KIND_FLOAT, "long", 0, false},
	{Q7_KIND_DOUBLE, "double", 0, true},
	{Q7_KIND_BOOL, "const bool &", 0, true},
	{Q7_KIND_INVALID, "int", 0, false},
	{Q7_KIND_END, "int", 0, false},
	{Q7_KIND_INT, "int\r", 0, false},
	{Q7_KIND_INT, "int\n", 0, false},
	{Q7_KIND_INT, "%:", 0, false},
	{Q7_KIND_INT, "const int&", 0, false},
	{Q7_KIND_INT, "const int & ", 0, false},
	{Q7_KIND_INT, "constint &", 0, false},
	{Q7_KIND_INT, "const const int & &", 0, false},
	{Q7_KIND_INT, "volatile int", 0, false},
	{Q7_KIND_INT, "int&", 0, false},
	{Q7_KIND_TENSOR, "::at::Tensor", 0, false},
	{Q7_KIND_TENSOR, "at :: Tensor", 0, false},
	{Q7_KIND_TENSOR, "at::Tensor<int>", 0, false},
	{Q7_KIND_SCALAR, "at::Tensor", 0, false},
	{Q7_KIND_TENSOR, "", 0, false},
};

START_TEST(allow_list)
{
	ck_assert_msg(q7_cxx_param_type(types[_i].kind, types[_i].ctype, types[_i].long_bits) ==
	                  types[_i].ok,
	              "row %d", _i);
}
END_TEST

START_TEST(names_and_quoting)
{
	ck_assert(q7_cxx_qualname("a::b_2::_c"));
	ck_assert(!q7_cxx_qualname("::a"));
	ck_assert(!q7_cxx_qualname("a::"));
	ck_assert(!q7_cxx_qualname("a:::b"));
	ck_assert(!q7_cxx_qualname("a::b c"));
	ck_assert(!q7_cxx_qualname(""));
	ck_assert(q7_cxx_result_type("at::Tensor"));
	ck_assert(!q7_cxx_result_type("const at::Tensor &"));
	ck_assert(!q7_cxx_result_type("c10::Scalar"));
	char *q = q7_cxx_quote("a\r\\b\x7f\xc3\xa9");
	ck_assert_str_eq(q, "a\\x0d\\x5cb\\x7f\\xc3\\xa9");
	free(q);
	char long_text[200];
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	q = q7_cxx_quote(long_text);
	ck_assert_uint_eq(strlen(q), 83);
	free(q);
	struct q7_op bad = {.name = "f", .qualname = "f"};
	struct q7_param p = {Q7_KIND_INT, "", "int\r"};
	bad.params = &p;
	bad.nparams = 1;
	ck_assert_ptr_null(q7_cxx_symbol(&bad));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model-cxx");
	TCase *tc = tcase_create("cxx");
	tcase_add_loop_test(tc, symbol_as_gcc_mangles, 0, (int)(sizeof symbols / sizeof symbols[0]));
	tcase_add_loop_test(tc, allow_list, 0, (int)(sizeof types / sizeof types[0]));
	tcase_add_test(tc, names_and_quoting);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
