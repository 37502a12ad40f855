/* The kind table (<q7/kinds.h>) against the runtime: every row's
 * marshalling call is declared by <neuron/wrapper_api.h> with the row's
 * local type (checked by the compiler), the row's mangled letters and C++
 * names are how this compiler mangles that type, and the host runtime,
 * driven through q7_entry, reads every word of the row in a schema (the
 * exact name, the other word, the TorchScript type), takes each frame
 * argument kind the row lists and refuses the others. The wrapper here is
 * written by hand: one op per way of naming the kinds, each unpacking one
 * argument of every kind in table order. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <type_traits>
#include <typeinfo>

#include <neuron/wrapper_api.h>
#include <q7/kinds.h>

#include "../analysis/run_suite.h"
#include "frames.h"

#define DECLARED(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL, LOCAL, ARGS) \
	static_assert(std::is_same<decltype(CALL()), LOCAL>::value, #CALL " returns " #LOCAL);
Q7_KINDS(DECLARED)
#undef DECLARED

namespace {

struct row {
	const char *torch, *name, *also, *cxx, *mangled, *local;
	unsigned args;
	const char *typeid_name;
};
#define ROW(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL, LOCAL, ARGS) \
	{TS, VENDOR, ALSO, CXX, MANGLED, #LOCAL, ARGS, typeid(LOCAL).name()},
const row rows[] = {Q7_KINDS(ROW)};
#undef ROW
const int nrows = (int)(sizeof rows / sizeof rows[0]);

/* "at::Tensor" -> "N2at6TensorE" */
std::string mangle_class(const std::string &qual)
{
	std::string m = "N";
	size_t p = 0;
	while (p < qual.size()) {
		size_t e = qual.find("::", p);
		if (e == std::string::npos)
			e = qual.size();
		m += std::to_string(e - p) + qual.substr(p, e - p);
		p = e == qual.size() ? e : e + 2;
	}
	return m + "E";
}

/* The three ops, one per way of spelling the kinds. */
std::string schemas[3];
const char *const names[3] = {"by_name", "by_also", "by_torch"};
int unpacked; /* arguments the last call unpacked */

int all_kinds()
{
	customop_setup(true);
	unpacked = 0;
#define UNPACK(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL, LOCAL, ARGS) \
	{                                                                              \
		LOCAL v = CALL();                                                          \
		(void)v;                                                                   \
		unpacked++;                                                                \
	}
	Q7_KINDS(UNPACK)
#undef UNPACK
	customop_return_tensor(torch::zeros({1}, torch::kFloat));
	customop_cleanup();
	return 0;
}

unsigned char heap[1 << 20] __attribute__((aligned(64)));
float one = 1.0f;

void frame_init(q7_frame *f, const char *op)
{
	q7t_frame_init(f, op, heap, sizeof heap);
}

/* An argument of frame kind ak. */
void set_arg(q7_arg *a, unsigned ak)
{
	memset(a, 0, sizeof *a);
	a->kind = ak;
	if (ak == Q7_ARG_TENSOR) {
		a->u.tensor.dtype = Q7_DTYPE_FLOAT32;
		a->u.tensor.ndim = 1;
		a->u.tensor.sizes[0] = 1;
		a->u.tensor.strides[0] = 1;
		a->u.tensor.data = (uint64_t)(uintptr_t)&one;
	} else if (ak == Q7_ARG_FLOAT) {
		double d = 1.0;
		memcpy(&a->u.f_bits, &d, sizeof d);
	} else {
		a->u.i = 1;
	}
}

unsigned lowest(unsigned mask)
{
	for (unsigned b = 0; b < 32; b++)
		if (mask & (1u << b))
			return b;
	return Q7_ARG_NONE;
}

/* A frame for op with every row's first frame kind, row r's being ak. */
void all_args(q7_frame *f, const char *op, int r, unsigned ak)
{
	frame_init(f, op);
	f->nargs = (uint32_t)nrows;
	for (int i = 0; i < nrows; i++)
		set_arg(&f->args[i], i == r ? ak : lowest(rows[i].args));
}

} // namespace

int get_func_cnt() { return 3; }
char const *get_func_name(int i) { return i >= 0 && i < 3 ? names[i] : "error"; }
wrapper_fn get_func_ptr(int i) { return i >= 0 && i < 3 ? all_kinds : nullptr; }
char const *get_func_schema(int i) { return i >= 0 && i < 3 ? schemas[i].c_str() : "error"; }

START_TEST(mangled)
{
	for (int i = 0; i < nrows; i++) {
		const row &r = rows[i];
		if (*r.mangled) {
			/* a builtin: its letters, and its one C++ spelling */
			ck_assert_str_eq(r.typeid_name, r.mangled);
			ck_assert_str_eq(r.cxx, r.local);
			continue;
		}
		/* a class: this compiler's name for the local is one of its names */
		bool found = false;
		std::string list = r.cxx;
		for (size_t p = 0; p <= list.size();) {
			size_t e = list.find('|', p);
			if (e == std::string::npos)
				e = list.size();
			found |= mangle_class(list.substr(p, e - p)) == r.typeid_name;
			p = e + 1;
		}
		ck_assert_msg(found, "%s (%s) is none of %s", r.local, r.typeid_name, r.cxx);
	}
}
END_TEST

START_TEST(words_and_args)
{
	for (int s = 0; s < 3; s++) {
		schemas[s] = std::string(names[s]) + "(";
		for (int i = 0; i < nrows; i++) {
			const row &r = rows[i];
			const char *w = s == 0 ? r.name : s == 1 && *r.also ? r.also : s == 1 ? r.name : r.torch;
			schemas[s] += (i ? ", " : "") + std::string(w) + " a" + std::to_string(i);
		}
		schemas[s] += ") -> Tensor";
	}
	q7_frame f;
	for (int s = 0; s < 3; s++) {
		for (int i = 0; i < nrows; i++) {
			for (unsigned ak = Q7_ARG_TENSOR; ak <= Q7_ARG_BOOL; ak++) {
				all_args(&f, names[s], i, ak);
				int st = q7_entry(&f);
				if (rows[i].args & (1u << ak)) {
					ck_assert_msg(st == Q7_STATUS_OK, "%s, a%d as frame kind %u: %d %s",
					              schemas[s].c_str(), i, ak, st, f.message);
					ck_assert_int_eq(unpacked, nrows);
				} else {
					ck_assert_msg(st == Q7_STATUS_BAD_ARGS, "%s, a%d as frame kind %u: %d",
					              schemas[s].c_str(), i, ak, st);
					char want[32];
					snprintf(want, sizeof want, "argument %d (a%d)", i + 1, i);
					ck_assert_msg(strstr(f.message, want), "%s", f.message);
				}
			}
		}
	}
	/* Blanks inside a two-word type are free; a word of no kind is refused. */
	std::string spaced;
	for (char c : schemas[0])
		spaced += c == ' ' ? std::string(" \t ") : std::string(1, c);
	schemas[0] = spaced;
	all_args(&f, "by_name", -1, 0);
	ck_assert_msg(q7_entry(&f) == Q7_STATUS_OK, "%s: %s", schemas[0].c_str(), f.message);
	schemas[0] = "by_name(long a0) -> Tensor";
	frame_init(&f, "by_name");
	f.nargs = 1;
	set_arg(&f.args[0], Q7_ARG_INT);
	ck_assert_int_eq(q7_entry(&f), Q7_STATUS_BAD_ARGS);
	ck_assert_ptr_nonnull(strstr(f.message, "cannot read the op's schema"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runtime-kinds");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, mangled);
	tcase_add_test(tc, words_and_args);
	suite_add_tcase(s, tc);
	return run_suite(s, false);
}
