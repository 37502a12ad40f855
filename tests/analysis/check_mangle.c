/* tests/analysis/check_mangle: the Itanium demangler (analysis/mangle.c,
 * over libiberty's) on symbols that GCC and clang emit for kernel-like
 * functions, and the link-time resolution of NEURON_LIBRARY requests
 * (analysis/resolve.c + q7_ops_merge) against symbol lists. The mangled names were taken from
 * g++ (x86-64) and xtensa-lx106-elf-g++ objects; c++filt agrees with the
 * expected signatures. */
#include "analysis.h"
#include "schema.h"
#include "internal.h"
#include "mangle.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Expected parameters: "kind|ctype|why;..." with kind "?" for INVALID and
 * why "" when valid. */
struct dcase {
	const char *sym;
	bool lp64;
	const char *qualname; /* NULL: demangling must fail with why containing params */
	const char *name;
	enum q7_mfunc_what what;
	bool variadic;
	const char *params;
};

static const struct dcase cases[] = {
	/* Tensors and the substitutions that follow them. */
	{"_Z12relu_forwardRKN2at6TensorE", false, "relu_forward", "relu_forward", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|"},
	{"_Z2a1RKN2at6TensorE", true, "a1", "a1", Q7_MF_FREE, false, "Tensor|const at::Tensor &|"},
	{"_Z2a2N2at6TensorERKS0_S2_", true, "a2", "a2", Q7_MF_FREE, false,
	 "Tensor|at::Tensor|;Tensor|const at::Tensor &|;Tensor|const at::Tensor &|"},
	{"_Z14relu_fwd_shapeN2at6TensorE", false, "relu_fwd_shape", "relu_fwd_shape", Q7_MF_FREE,
	 false, "Tensor|at::Tensor|"},
	{"_Z7k_substRKN2at6TensorES0_RKN3c106ScalarES4_S2_", true, "k_subst", "k_subst", Q7_MF_FREE,
	 false,
	 "Tensor|const at::Tensor &|;Tensor|at::Tensor|;Scalar|const c10::Scalar &|;"
	 "Scalar|c10::Scalar|;Tensor|const at::Tensor &|"},
	{"_Z8k_scalarN3c106ScalarERKS0_RKN2at6TensorE", true, "k_scalar", "k_scalar", Q7_MF_FREE,
	 false, "Scalar|c10::Scalar|;Scalar|const c10::Scalar &|;Tensor|const at::Tensor &|"},
	{"_Z1fN2at6ScalarE", true, "f", "f", Q7_MF_FREE, false, "Scalar|at::Scalar|"},
	/* Namespaces, nested and with substitutions of their prefixes. */
	{"_ZN3ops4reluERKN2at6TensorEf", true, "ops::relu", "relu", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|;float|float|"},
	{"_ZN3ops5inner4deepERKN2at6TensorES4_l", true, "ops::inner::deep", "deep", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|;Tensor|const at::Tensor &|;long long|long|"},
	{"_ZN3ops5inner4deepERKN2at6TensorES4_x", false, "ops::inner::deep", "deep", Q7_MF_FREE,
	 false, "Tensor|const at::Tensor &|;Tensor|const at::Tensor &|;long long|long long|"},
	{"_ZN2at5in_atERKNS_6TensorES2_", true, "at::in_at", "in_at", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|;Tensor|const at::Tensor &|"},
	{"_ZSt7k_instdRKN2at6TensorE", true, "std::k_instd", "k_instd", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|"},
	/* Every builtin kind, by value and by const&; long by data model. */
	{"_Z5k_intilxfdb", true, "k_int", "k_int", Q7_MF_FREE, false,
	 "int|int|;long long|long|;long long|long long|;float|float|;double|double|;bool|bool|"},
	{"_Z5k_intilxfdb", false, "k_int", "k_int", Q7_MF_FREE, false,
	 "int|int|;int|long|;long long|long long|;float|float|;double|double|;bool|bool|"},
	{"_Z6k_refsRKiRKxRKfRKdRKb", true, "k_refs", "k_refs", Q7_MF_FREE, false,
	 "int|const int &|;long long|const long long &|;float|const float &|;"
	 "double|const double &|;bool|const bool &|"},
	{"_Z1dRKN2at6TensorExil", false, "d", "d", Q7_MF_FREE, false,
	 "Tensor|const at::Tensor &|;long long|long long|;int|int|;int|long|"},
	{"_Z10k_constvaliN2at6TensorE", true, "k_constval", "k_constval", Q7_MF_FREE, false,
	 "int|int|;Tensor|at::Tensor|"},
	{"_Z6k_nonev", true, "k_none", "k_none", Q7_MF_FREE, false, ""},
	/* Kinds a kernel cannot take. */
	{"_Z5k_unsjmyht", true, "k_uns", "k_uns", Q7_MF_FREE, false,
	 "?|unsigned int|unsigned;?|unsigned long|unsigned;?|unsigned long long|unsigned;"
	 "?|unsigned char|unsigned;?|unsigned short|unsigned"},
	{"_Z8k_narrowcaswDsDi", true, "k_narrow", "k_narrow", Q7_MF_FREE, false,
	 "?|char|narrower than int;?|signed char|narrower than int;?|short|narrower than int;"
	 "?|wchar_t|a character type;?|char16_t|a character type;?|char32_t|a character type"},
	{"_Z4k_lde", true, "k_ld", "k_ld", Q7_MF_FREE, false,
	 "?|long double|not a kind q7cc can pass"},
	{"_Z6k_i128n", true, "k_i128", "k_i128", Q7_MF_FREE, false, "?|__int128|a 128-bit integer"},
	{"_Z5k_ptrPf", true, "k_ptr", "k_ptr", Q7_MF_FREE, false, "?|float *|a pointer"},
	{"_Z6k_cptrPKfPPf", true, "k_cptr", "k_cptr", Q7_MF_FREE, false,
	 "?|const float *|a pointer;?|float **|a pointer"},
	{"_Z10k_restrictPf", true, "k_restrict", "k_restrict", Q7_MF_FREE, false, "?|float *|a pointer"},
	{"_Z9k_nullptrDn", true, "k_nullptr", "k_nullptr", Q7_MF_FREE, false,
	 "?|std::nullptr_t|a pointer"},
	{"_Z5k_refRN2at6TensorE", true, "k_ref", "k_ref", Q7_MF_FREE, false,
	 "?|at::Tensor &|a reference to non-const"},
	{"_Z6k_rrefON2at6TensorE", true, "k_rref", "k_rref", Q7_MF_FREE, false,
	 "?|at::Tensor &&|an rvalue reference"},
	{"_Z7k_cvrefRVKi", true, "k_cvref", "k_cvref", Q7_MF_FREE, false,
	 "?|const volatile int &|volatile"},
	{"_Z5k_arrRA4_i", true, "k_arr", "k_arr", Q7_MF_FREE, false,
	 "?|int[4] &|a reference to non-const"},
	{"_Z5k_vecSt6vectorIiSaIiEERKS_IfSaIfEES1_", true, "k_vec", "k_vec", Q7_MF_FREE, false,
	 "?|std::vector<int, std::allocator<int>>|a container;"
	 "?|const std::vector<float, std::allocator<float>> &|a container;"
	 "?|std::vector<int, std::allocator<int>>|a container"},
	{"_Z8k_vecvecSt6vectorIS_IiSaIiEESaIS1_EES3_", true, "k_vecvec", "k_vecvec", Q7_MF_FREE,
	 false,
	 "?|std::vector<std::vector<int, std::allocator<int>>, "
	 "std::allocator<std::vector<int, std::allocator<int>>>>|a container;"
	 "?|std::vector<std::vector<int, std::allocator<int>>, "
	 "std::allocator<std::vector<int, std::allocator<int>>>>|a container"},
	{"_Z5k_strRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", true, "k_str", "k_str",
	 Q7_MF_FREE, false,
	 "?|const std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char>> "
	 "&|a container"},
	{"_Z1sRKSs", true, "s", "s", Q7_MF_FREE, false, "?|const std::string &|a container"},
	{"_Z7k_tupleSt5tupleIJifEESt5arrayIiLm3EESt4pairIiiE", true, "k_tuple", "k_tuple", Q7_MF_FREE,
	 false,
	 "?|std::tuple<int, float>|a tuple;?|std::array<int, (unsigned long)3>|a tuple;"
	 "?|std::pair<int, int>|a tuple"},
	{"_Z7k_ilistSt16initializer_listIiE", true, "k_ilist", "k_ilist", Q7_MF_FREE, false,
	 "?|std::initializer_list<int>|a container"},
	{"_Z4k_fnPFN2at6TensorERKS0_ESt8functionIFS0_iEE", true, "k_fn", "k_fn", Q7_MF_FREE, false,
	 "?|at::Tensor (const at::Tensor &) *|a pointer;"
	 "?|std::function<at::Tensor (int)>|a class other than Tensor and Scalar"},
	{"_Z6k_enum5Color2E2", true, "k_enum", "k_enum", Q7_MF_FREE, false,
	 "?|Color|a class other than Tensor and Scalar;?|E2|a class other than Tensor and Scalar"},
	{"_Z6k_mempM3FooiMS_KFN2at6TensorERKS2_E", true, "k_memp", "k_memp", Q7_MF_FREE, false,
	 "?|int Foo::*|a pointer;?|const at::Tensor (const at::Tensor &) Foo::*|a pointer"},
	/* What the name says about the function. */
	{"_Z5k_varRKN2at6TensorEz", true, "k_var", "k_var", Q7_MF_FREE, true,
	 "Tensor|const at::Tensor &|"},
	{"_ZNK3Foo1mERKN2at6TensorE", true, "Foo::m", "m", Q7_MF_MEMBER, false,
	 "Tensor|const at::Tensor &|"},
	{"_ZN3FooC2Ev", true, "Foo::(constructor)", "(constructor)", Q7_MF_MEMBER, false, ""},
	{"_Z2tfIiEN2at6TensorERKS1_T_", true, "tf", "tf", Q7_MF_TEMPLATE, false,
	 "Tensor|const at::Tensor &|;?|T0|a template parameter"},
	{"_ZL2stRKN2at6TensorE", true, "st", "st", Q7_MF_INTERNAL, false, "Tensor|const at::Tensor &|"},
	{"_ZN12_GLOBAL__N_14anonERKN2at6TensorE", true, "(anonymous namespace)::anon", "anon",
	 Q7_MF_INTERNAL, false, "Tensor|const at::Tensor &|"},
	{"_ZplRKN2at6TensorEi", true, "operator+", "operator+", Q7_MF_OPERATOR, false,
	 "Tensor|const at::Tensor &|;int|int|"},
	/* From libstdc++: a template constructor (no return type in its
	 * symbol), a member template of a class template, a substitution
	 * with template arguments as a nested-name prefix (NS0_I...EE). */
	{"_ZNSbIwSt11char_traitsIwESaIwEEC1IPKwEET_S6_RKS1_", true,
	 "std::basic_string<wchar_t, std::char_traits<wchar_t>, std::allocator<wchar_t>>::"
	 "(constructor)",
	 "(constructor)", Q7_MF_MEMBER, false,
	 "?|T0|a template parameter;?|T0|a template parameter;"
	 "?|const std::allocator<wchar_t> &|a class other than Tensor and Scalar"},
	{"_ZNKSt7__cxx119money_getIcSt19istreambuf_iteratorIcSt11char_traitsIcEEE10_M_extractILb0EEES4_"
	 "S4_S4_RSt8ios_baseRSt12_Ios_IostateRNS_12basic_stringIcS3_SaIcEEE",
	 true, "std::__cxx11::money_get<char, std::istreambuf_iterator<char, std::char_traits<char>>>::"
	 "_M_extract", "_M_extract", Q7_MF_MEMBER, false,
	 "?|std::istreambuf_iterator<char, std::char_traits<char>>|a class other than Tensor and "
	 "Scalar;?|std::istreambuf_iterator<char, std::char_traits<char>>|a class other than Tensor "
	 "and Scalar;?|std::ios_base &|a reference to non-const;?|std::_Ios_Iostate &|a reference "
	 "to non-const;?|std::__cxx11::basic_string<char, std::char_traits<char>, "
	 "std::allocator<char>> &|a reference to non-const"},
	{"_ZNSs7replaceEN9__gnu_cxx17__normal_iteratorIPcSsEES2_NS0_IPKcSsEES5_", true,
	 "std::string::replace", "replace", Q7_MF_FREE, false,
	 "?|__gnu_cxx::__normal_iterator<char *, std::string>|a class other than Tensor and Scalar;"
	 "?|__gnu_cxx::__normal_iterator<char *, std::string>|a class other than Tensor and Scalar;"
	 "?|__gnu_cxx::__normal_iterator<const char *, std::string>|a class other than Tensor and "
	 "Scalar;?|__gnu_cxx::__normal_iterator<const char *, std::string>|a class other than "
	 "Tensor and Scalar"},
	/* Refused, with a reason. */
	{"relu_forward", true, NULL, NULL, 0, false, "not a C++ name"},
	{"_Z12relu_forwardRKN2at6TensorE.isra.0", true, NULL, NULL, 0, false, "clone"},
	{"_ZNK2at6Tensor4implEv$isra$0", false, NULL, NULL, 0, false, "clone"},
	{"_ZTV3Foo", true, NULL, NULL, 0, false, "special name"},
	{"_ZGVZ4mainE1x", true, NULL, NULL, 0, false, "special name"},
	{"_Z1x", true, NULL, NULL, 0, false, "a variable"},
	{"_ZZ4mainE1f", true, NULL, NULL, 0, false, "local entity"},
	/* Not in the grammar (a substitution out of range, a nested name
	 * without its E, a name longer than the symbol): libiberty's parser
	 * refuses them without saying which. */
	{"_Z1fS3_", true, NULL, NULL, 0, false, "unreadable"},
	{"_Z1fN2at6Tensor", true, NULL, NULL, 0, false, "unreadable"},
	{"_Z40short", true, NULL, NULL, 0, false, "unreadable"},
	{"_Z1fDpT_", true, NULL, NULL, 0, false, "pack expansion"},
	{"_Z1fDTfp_E", true, NULL, NULL, 0, false, "decltype"},
	{"_Z1fIXadL_Z1gvEEEvv", true, NULL, NULL, 0, false, "expression"},
	{"_Z1fU3AS1i", true, NULL, NULL, 0, false, "vendor"},
	{"_Z", true, NULL, NULL, 0, false, "unreadable"},
};

START_TEST(demangle_table)
{
	const struct dcase *c = &cases[_i];
	struct q7_mfunc f;
	const char *why = "unset";
	int rc = q7_demangle(c->sym, c->lp64, &f, &why);
	if (!c->qualname) {
		ck_assert_msg(rc == -1, "%s: accepted", c->sym);
		ck_assert_msg(why && strstr(why, c->params), "%s: why '%s', want '%s'", c->sym, why,
		              c->params);
		return;
	}
	ck_assert_msg(rc == 0, "%s: refused: %s", c->sym, why);
	ck_assert_str_eq(f.qualname, c->qualname);
	ck_assert_str_eq(f.name, c->name);
	ck_assert_int_eq(f.what, c->what);
	ck_assert_int_eq(f.variadic, c->variadic);
	struct q7_strbuf got = {0};
	for (size_t i = 0; i < f.nparams; i++)
		q7_sb_addf(&got, "%s%s|%s|%s", i ? ";" : "", q7_kind_name(f.params[i].kind),
		           f.params[i].ctype, f.params[i].why ? f.params[i].why : "");
	ck_assert_str_eq(got.s ? got.s : "", c->params);
	q7_sb_free(&got);
	q7_mfunc_free(&f);
}
END_TEST

/* Bytes cut anywhere never crash and never read past the end. */
START_TEST(demangle_truncations)
{
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *s = cases[k].sym;
		for (size_t n = 0; n < strlen(s); n++) {
			char *cut = q7_xstrndup(s, n);
			struct q7_mfunc f;
			const char *why;
			if (q7_demangle(cut, true, &f, &why) == 0)
				q7_mfunc_free(&f);
			else
				ck_assert_ptr_nonnull(why);
			free(cut);
		}
	}
}
END_TEST

START_TEST(class_kinds)
{
	const char *why;
	ck_assert_int_eq(q7_class_kind("at::Tensor", &why), Q7_KIND_TENSOR);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(q7_class_kind("torch::Tensor", NULL), Q7_KIND_TENSOR);
	ck_assert_int_eq(q7_class_kind("c10::Scalar", NULL), Q7_KIND_SCALAR);
	ck_assert_int_eq(q7_class_kind("std::__1::vector<int>", &why), Q7_KIND_INVALID);
	ck_assert_str_eq(why, "a container");
	ck_assert_int_eq(q7_class_kind("std::pair<int, int>", &why), Q7_KIND_INVALID);
	ck_assert_str_eq(why, "a tuple");
	ck_assert_int_eq(q7_class_kind("ns::Tensor", &why), Q7_KIND_INVALID);
	ck_assert_str_eq(why, "a class other than Tensor and Scalar");
}
END_TEST

/* ---- resolution ---- */

static struct q7_op *request(struct q7_op_table *t, const char *name, const char *file,
                             unsigned line, const char *const *pnames)
{
	struct q7_op *op = q7_ops_add(t);
	const char *last = strrchr(name, ':');
	op->name = q7_xstrdup(last ? last + 1 : name);
	op->qualname = q7_xstrdup(last ? name : "");
	op->ret_ctype = q7_xstrdup("");
	op->ret_name = q7_xstrdup("");
	op->file = q7_xstrdup(file);
	op->line = line;
	op->col = 31;
	op->by_name_only = true;
	size_t n = 0;
	while (pnames && pnames[n])
		n++;
	op->nparams = n;
	op->params = q7_xcalloc(n ? n : 1, sizeof *op->params);
	for (size_t i = 0; i < n; i++) {
		op->params[i].name = q7_xstrdup(pnames[i]);
		op->params[i].ctype = q7_xstrdup("");
	}
	return op;
}

static struct q7_op *kernel(struct q7_op_table *t, const char *qual, bool defined,
                            const char *ctype, const char *pname)
{
	struct q7_op *op = q7_ops_add(t);
	const char *last = strrchr(qual, ':');
	op->name = q7_xstrdup(last ? last + 1 : qual);
	op->qualname = q7_xstrdup(qual);
	op->ret_ctype = q7_xstrdup("at::Tensor");
	op->ret = Q7_KIND_TENSOR;
	op->ret_name = q7_xstrdup("");
	op->nparams = 1;
	op->params = q7_xcalloc(1, sizeof *op->params);
	op->params[0].kind = Q7_KIND_TENSOR;
	op->params[0].name = q7_xstrdup(pname);
	op->params[0].ctype = q7_xstrdup(ctype);
	op->defined = defined;
	op->file = q7_xstrdup(defined ? "k.cpp" : "k.h");
	op->line = 3;
	op->col = 1;
	return op;
}

struct run {
	struct q7_op_table in, out;
	struct q7_fsyms syms;
	struct q7_diags ds;
	size_t errors;
};

static void link_run(struct run *r, const char *toolchain)
{
	q7_ops_resolve(&r->in, &r->syms, toolchain, &r->ds);
	q7_ops_merge(&r->in, toolchain, &r->out, &r->ds);
	r->errors = 0;
	for (size_t i = 0; i < r->ds.n; i++)
		r->errors += r->ds.d[i].severity == Q7_SEV_ERROR;
}

static void run_free(struct run *r)
{
	q7_ops_free(&r->in);
	q7_ops_free(&r->out);
	q7_fsyms_free(&r->syms);
	q7_diags_free(&r->ds);
}

static bool has_diag(const struct run *r, const char *rule, const char *text)
{
	for (size_t i = 0; i < r->ds.n; i++)
		if (strcmp(r->ds.d[i].rule, rule) == 0 && strstr(r->ds.d[i].message, text))
			return true;
	return false;
}

static const char *const t_in[] = {"t_in", NULL};

START_TEST(found_by_symbol)
{
	struct run r = {0};
	request(&r.in, "relu_forward", "shape.cpp", 14, t_in);
	q7_fsyms_add(&r.syms, "_Z14relu_fwd_shapeN2at6TensorE", "shape.o", false, false, false);
	q7_fsyms_add(&r.syms, "_Z12relu_forwardRKN2at6TensorE", "relu.o", false, false, false);
	q7_fsyms_add(&r.syms, "_Z12relu_forwardRKN2at6TensorE.isra.0", "relu.o", true, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 0);
	ck_assert_uint_eq(r.out.n, 1);
	const struct q7_op *op = &r.out.ops[0];
	ck_assert_str_eq(op->qualname, "relu_forward");
	ck_assert_int_eq(op->defined, true);
	ck_assert_int_eq(op->by_name_only, false);
	ck_assert_str_eq(op->ret_ctype, "at::Tensor");
	ck_assert_uint_eq(op->nparams, 1);
	ck_assert_str_eq(op->params[0].ctype, "const at::Tensor &");
	ck_assert_str_eq(op->params[0].name, "t_in"); /* from the shape function */
	ck_assert_str_eq(op->file, "shape.cpp");
	ck_assert_uint_eq(op->line, 14);
	run_free(&r);
}
END_TEST

START_TEST(found_in_namespace_with_kinds)
{
	struct run r = {0};
	request(&r.in, "scale", "shape.cpp", 9, t_in); /* arity differs: argN names */
	request(&r.in, "scale", "shape2.cpp", 4, NULL); /* a second request: one op */
	q7_fsyms_add(&r.syms, "_ZN3ops5scaleERKN2at6TensorExfN3c106ScalarE", "libk.a(scale.o)",
	             false, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 0);
	ck_assert_uint_eq(r.out.n, 1);
	const struct q7_op *op = &r.out.ops[0];
	ck_assert_str_eq(op->qualname, "ops::scale");
	ck_assert_uint_eq(op->nparams, 4);
	ck_assert_int_eq(op->params[1].kind, Q7_KIND_LONGLONG);
	ck_assert_str_eq(op->params[1].ctype, "long long");
	ck_assert_int_eq(op->params[2].kind, Q7_KIND_FLOAT);
	ck_assert_int_eq(op->params[3].kind, Q7_KIND_SCALAR);
	ck_assert_str_eq(op->params[0].name, "arg0");
	ck_assert_str_eq(op->params[3].name, "arg3");
	struct q7_strbuf b = {0};
	q7_schema_print(op, NULL, &b);
	ck_assert_str_eq(b.s, "scale(Tensor arg0, int arg1, float arg2, Scalar arg3) -> Tensor");
	q7_sb_free(&b);
	run_free(&r);
}
END_TEST

START_TEST(qualified_request_filters)
{
	struct run r = {0};
	request(&r.in, "b::relu", "shape.cpp", 2, NULL);
	q7_fsyms_add(&r.syms, "_ZN1a4reluERKN2at6TensorE", "a.o", false, false, true);
	q7_fsyms_add(&r.syms, "_ZN1b4reluERKN2at6TensorE", "b.o", false, false, true);
	link_run(&r, "host");
	ck_assert_uint_eq(r.errors, 0);
	ck_assert_uint_eq(r.out.n, 1);
	ck_assert_str_eq(r.out.ops[0].qualname, "b::relu");
	run_free(&r);
}
END_TEST

START_TEST(satisfied_by_record)
{
	struct run r = {0};
	request(&r.in, "relu", "shape.cpp", 2, NULL);
	kernel(&r.in, "relu", true, "const at::Tensor &", "x");
	/* A symbol is there too; the record wins and nothing is looked up. */
	q7_fsyms_add(&r.syms, "_Z4reluRKN2at6TensorE", "k.o", false, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 0);
	ck_assert_uint_eq(r.out.n, 1);
	ck_assert_str_eq(r.out.ops[0].params[0].name, "x");
	run_free(&r);
}
END_TEST

START_TEST(declaration_completed_by_symbol)
{
	struct run r = {0};
	kernel(&r.in, "ops::relu", false, "const at::Tensor &", "x");
	kernel(&r.in, "ops::relu", false, "const at::Tensor &", "x"); /* another TU's */
	q7_fsyms_add(&r.syms, "_ZN3ops4reluERKN2at6TensorEi", "other.o", false, false, false);
	q7_fsyms_add(&r.syms, "_ZN3ops4reluERKN2at6TensorE", "k.o", false, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 0);
	ck_assert_uint_eq(r.out.n, 1);
	ck_assert_int_eq(r.out.ops[0].defined, true);
	ck_assert_str_eq(r.out.ops[0].params[0].name, "x");
	ck_assert_str_eq(r.out.ops[0].file, "k.h");
	run_free(&r);
	/* Without the symbol: the merge's usual error. */
	struct run r2 = {0};
	kernel(&r2.in, "ops::relu", false, "const at::Tensor &", "x");
	link_run(&r2, "gnu");
	ck_assert(has_diag(&r2, Q7_RULE_UNDEFINED, "no object of the link defines it"));
	run_free(&r2);
}
END_TEST

START_TEST(not_defined_anywhere)
{
	struct run r = {0};
	request(&r.in, "relu_forward", "shape.cpp", 12, NULL);
	request(&r.in, "relu_forward", "shape.cpp", 13, NULL);
	q7_fsyms_add(&r.syms, "_Z12relu_backwardRKN2at6TensorE", "relu.o", false, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 1); /* once per name */
	ck_assert(has_diag(&r, Q7_RULE_UNDEFINED,
	                   "'relu_forward' named by NEURON_LIBRARY at shape.cpp:12 is not defined "
	                   "in any object of this link"));
	ck_assert_str_eq(r.ds.d[0].file, "shape.cpp");
	ck_assert_uint_eq(r.ds.d[0].line, 12);
	ck_assert_uint_eq(r.out.n, 0);
	run_free(&r);
}
END_TEST

START_TEST(two_definitions)
{
	struct run r = {0};
	request(&r.in, "relu", "shape.cpp", 5, NULL);
	q7_fsyms_add(&r.syms, "_Z4reluRKN2at6TensorE", "a.o", false, false, false);
	q7_fsyms_add(&r.syms, "_Z4reluRKN2at6TensorEf", "b.o", false, false, false);
	q7_fsyms_add(&r.syms, "_Z4reluRKN2at6TensorE", "lib.a(a.o)", false, false, false);
	link_run(&r, "gnu");
	ck_assert_uint_eq(r.errors, 1);
	ck_assert(has_diag(&r, Q7_RULE_OVERLOAD,
	                   "relu(const at::Tensor &) ('_Z4reluRKN2at6TensorE' in a.o) and "
	                   "relu(const at::Tensor &, float) ('_Z4reluRKN2at6TensorEf' in b.o)"));
	ck_assert(has_diag(&r, Q7_RULE_OVERLOAD, "named by NEURON_LIBRARY at shape.cpp:5"));
	ck_assert_uint_eq(r.out.n, 0);
	run_free(&r);
}
END_TEST

START_TEST(unsupported_kinds)
{
	struct run r = {0};
	request(&r.in, "scale", "shape.cpp", 7, NULL);
	q7_fsyms_add(&r.syms, "_Z5scaleRKN2at6TensorEPfd", "scale.o", false, false, false);
	link_run(&r, "xt");
	ck_assert(has_diag(&r, Q7_RULE_UNSUPPORTED_PARAM,
	                   "parameter 2 of kernel 'scale' (defined in scale.o) has type 'float *' "
	                   "(a pointer)"));
	ck_assert(has_diag(&r, Q7_RULE_PROFILE_KIND, "parameter 3 of kernel 'scale'"));
	ck_assert_str_eq(r.ds.d[0].file, "shape.cpp");
	ck_assert_uint_eq(r.ds.d[0].line, 7);
	ck_assert_uint_eq(r.errors, 1);
	ck_assert_uint_eq(r.out.n, 0); /* and no second report from the merge */
	run_free(&r);
}
END_TEST

START_TEST(unusable_definitions)
{
	static const struct {
		const char *sym;
		bool local, weak;
		const char *rule, *text;
	} u[] = {
		{"_ZL4reluRKN2at6TensorE", true, false, Q7_RULE_INTERNAL, "internal linkage"},
		{"_ZN12_GLOBAL__N_14reluERKN2at6TensorE", true, false, Q7_RULE_INTERNAL, "static"},
		{"_Z4reluRKN2at6TensorE", false, true, Q7_RULE_INLINE, "inline (weak)"},
		{"relu", false, false, Q7_RULE_C_LINKAGE, "extern \"C\""},
		{"_ZNK3Foo4reluERKN2at6TensorE", false, false, Q7_RULE_MEMBER, "member function"},
		{"_Z4reluIiEN2at6TensorERKS1_T_", false, true, Q7_RULE_INLINE, "weak"},
		{"_Z4reluIiEN2at6TensorERKS1_T_", false, false, Q7_RULE_TEMPLATE, "template"},
		{"_Z4reluRKN2at6TensorEz", false, false, Q7_RULE_VARIADIC, "variadic"},
		{"_Z4reluRKN2at6TensorEU3AS1i", false, false, Q7_RULE_UNDEFINED, "cannot read it"},
	};
	for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
		struct run r = {0};
		request(&r.in, "relu", "shape.cpp", 5, NULL);
		q7_fsyms_add(&r.syms, u[i].sym, "k.o", u[i].local, u[i].weak, false);
		link_run(&r, "gnu");
		ck_assert_msg(r.errors == 1, "%s: %zu errors", u[i].sym, r.errors);
		ck_assert_msg(has_diag(&r, u[i].rule, u[i].text), "%s: %s", u[i].sym,
		              r.ds.n ? r.ds.d[0].message : "(none)");
		ck_assert_uint_eq(r.out.n, 0);
		run_free(&r);
	}
	/* A name of 32 characters. */
	struct run r = {0};
	request(&r.in, "a_kernel_name_of_thirty_two_char", "shape.cpp", 5, NULL);
	q7_fsyms_add(&r.syms, "_Z32a_kernel_name_of_thirty_two_charRKN2at6TensorE", "k.o", false,
	             false, false);
	link_run(&r, "gnu");
	ck_assert(has_diag(&r, Q7_RULE_NAME_LENGTH, "32 characters"));
	run_free(&r);
}
END_TEST

START_TEST(unresolved_names)
{
	struct q7_op_table t = {0};
	struct q7_strvec names = {0};
	kernel(&t, "done", true, "at::Tensor", "x");
	request(&t, "done", "s.cpp", 1, NULL);
	request(&t, "wanted", "s.cpp", 2, NULL);
	request(&t, "wanted", "s.cpp", 3, NULL);
	kernel(&t, "decl", false, "at::Tensor", "x");
	q7_ops_unresolved(&t, &names);
	ck_assert_uint_eq(names.n, 2);
	ck_assert_str_eq(names.v[0], "wanted");
	ck_assert_str_eq(names.v[1], "decl");
	q7_sv_free(&names);
	q7_ops_free(&t);
	/* A link of marked kernels only reads no symbols. */
	kernel(&t, "relu", true, "at::Tensor", "x");
	q7_ops_unresolved(&t, &names);
	ck_assert_uint_eq(names.n, 0);
	q7_ops_free(&t);
}
END_TEST

int main(void)
{
	q7_set_progname("q7cc");
	Suite *s = suite_create("mangle");
	TCase *tc = tcase_create("demangle");
	tcase_add_loop_test(tc, demangle_table, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, demangle_truncations);
	tcase_add_test(tc, class_kinds);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("resolve");
	tcase_add_test(tr, found_by_symbol);
	tcase_add_test(tr, found_in_namespace_with_kinds);
	tcase_add_test(tr, qualified_request_filters);
	tcase_add_test(tr, satisfied_by_record);
	tcase_add_test(tr, declaration_completed_by_symbol);
	tcase_add_test(tr, not_defined_anywhere);
	tcase_add_test(tr, two_definitions);
	tcase_add_test(tr, unsupported_kinds);
	tcase_add_test(tr, unusable_definitions);
	tcase_add_test(tr, unresolved_names);
	suite_add_tcase(s, tr);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
