/* The kernel's stack at the build (analysis/stack.c): GCC's call graph
 * file becomes q7cc's lines (local aliases joined to their function,
 * unmeasured callees kept as calls, a call made twice one line), and the link's graph judges each
 * kernel: the deepest path against the core's stack or the declared one,
 * across objects; recursion and dynamic frames name the function. */
#include "analysis.h"
#include "call_limits.h"
#include "cxx.h"
#include "schema.h"

#include "run_suite.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ci[] =
	"graph: { title: \"k.cpp\"\n"
	"node: { title: \"_Z3reci\" label: \"int rec(int)\\nk.cpp:3:5\\n560 bytes (static)\" }\n"
	"edge: { sourcename: \"_Z3reci\" targetname: \"k.cpp:_Z3reci$localalias\" label: \"k.cpp:3:62\" }\n"
	"node: { title: \"_Z3vlai\" label: \"int vla(int)\\nk.cpp:5:5\\n16 bytes (dynamic)\" }\n"
	"node: { title: \"memcpy\" label: \"void* __builtin_memcpy(void*, const void*, unsigned int)\\n<built-in>\" shape : ellipse }\n"
	"edge: { sourcename: \"_Z3vlai\" targetname: \"memcpy\" }\n"
	"edge: { sourcename: \"_Z3vlai\" targetname: \"memcpy\" label: \"k.cpp:5:40\" }\n"
	"}\n";

START_TEST(from_callgraph)
{
	size_t len;
	char *p = q7_stack_from_callgraph(ci, &len);
	ck_assert_str_eq(p, "F\t_Z3reci\t560\ts\tk.cpp:3\tint rec(int)\n"
	                    "C\t_Z3reci\t_Z3reci\n"
	                    "F\t_Z3vlai\t16\td\tk.cpp:5\tint vla(int)\n"
	                    "C\t_Z3vlai\tmemcpy\n");
	ck_assert_uint_eq(len, strlen(p));
	free(p);
	p = q7_stack_from_callgraph("graph: { title: \"e.cpp\"\n}\n", &len);
	ck_assert_uint_eq(len, 0);
	free(p);
}
END_TEST

/* One kernel k(Tensor x) at k.cpp:4 with stack (0: none declared), and
 * its symbol into sym. */
static void kernel(struct q7_op_table *t, unsigned stack, char **sym)
{
	struct q7_err err = Q7_ERR_GROWING;
	struct q7_op *op = q7_ops_add(t);
	ck_assert_msg(q7_schema_parse("k(Tensor x) -> Tensor", op, &err, NULL) == 0, "%s",
	              q7_err_text(&err));
	op->defined = true;
	free(op->file);
	op->file = q7_xstrdup("k.cpp");
	op->line = 4;
	op->stack_size = stack;
	*sym = q7_cxx_symbol(op);
	ck_assert_ptr_nonnull(*sym);
}

/* The diagnostics of kernel k (stack declared) over the payloads. */
static void judge(unsigned stack, bool host, const char *a, const char *b, struct q7_diags *ds)
{
	struct q7_op_table ops = {0};
	char *sym;
	kernel(&ops, stack, &sym);
	struct q7_strvec texts = {0};
	char *ta = q7_xasprintf(a, sym, sym), *tb = q7_xasprintf(b, sym, sym);
	q7_sv_add(&texts, ta);
	q7_sv_add(&texts, tb);
	q7_stack_check(&ops, &texts, host, ds);
	free(ta);
	free(tb);
	free(sym);
	q7_sv_free(&texts);
	q7_ops_free(&ops);
}

/* The kernel (first %s) calls _Z5helpv, measured in another object. */
static const char kobj[] = "F\t%s\t100\ts\tk.cpp:4\tat::Tensor k(const at::Tensor&)\n"
                           "C\t%s\t_Z5helpv\nC\t_Z5helpv\tmemset\n";

START_TEST(too_deep)
{
	struct q7_diags ds = {0};
	judge(0, false, kobj, "F\t_Z5helpv\t65500\ts\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_int_eq(ds.d[0].severity, Q7_SEV_ERROR);
	ck_assert(ds.d[0].demotable);
	ck_assert_str_eq(ds.d[0].rule, "q7-stack");
	ck_assert_str_eq(ds.d[0].file, "k.cpp");
	ck_assert_uint_eq(ds.d[0].line, 4);
	ck_assert_str_eq(ds.d[0].message,
	                 "kernel 'k' needs at least 65600 bytes of stack; the core has 65536");
	ck_assert_str_eq(ds.d[1].message, "the deepest calls: 'at::Tensor k(const at::Tensor&)' "
	                                  "(100 bytes) -> 'void help()' (65500 bytes)");
	q7_diags_free(&ds);
	/* Fits: nothing. Without the helper's object: only what is measured. */
	judge(0, false, kobj, "F\t_Z5helpv\t65436\ts\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_uint_eq(ds.n, 0);
	judge(0, false, kobj, "", &ds);
	ck_assert_uint_eq(ds.n, 0);
	/* The host: a warning. */
	judge(0, true, kobj, "F\t_Z5helpv\t65500\ts\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_int_eq(ds.d[0].severity, Q7_SEV_WARNING);
	ck_assert_ptr_nonnull(strstr(ds.d[0].message, "measured on the host"));
	q7_diags_free(&ds);
}
END_TEST

START_TEST(declared)
{
	struct q7_diags ds = {0};
	judge(8192, false, kobj, "F\t_Z5helpv\t8100\ts\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_str_eq(ds.d[0].message,
	                 "kernel 'k' needs at least 8200 bytes of stack; its declared stack is 8192");
	q7_diags_free(&ds);
	/* Larger than the core's, and declared: fits. */
	judge(Q7_DEVICE_CORE_STACK * 2, false, kobj, "F\t_Z5helpv\t65500\ts\th.cpp:2\tvoid help()\n",
	      &ds);
	ck_assert_uint_eq(ds.n, 0);
}
END_TEST

START_TEST(unbounded)
{
	struct q7_diags ds = {0};
	judge(0, false, kobj, "F\t_Z5helpv\t544\ts\th.cpp:2\tvoid help()\nC\t_Z5helpv\t_Z5helpv\n",
	      &ds);
	ck_assert_uint_eq(ds.n, 1);
	ck_assert_int_eq(ds.d[0].severity, Q7_SEV_WARNING);
	ck_assert_str_eq(ds.d[0].message,
	                 "the stack of kernel 'k' has no bound: 'void help()' (h.cpp:2) is recursive");
	q7_diags_free(&ds);
	judge(0, false, kobj, "F\t_Z5helpv\t16\td\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_uint_eq(ds.n, 1);
	ck_assert_ptr_nonnull(strstr(ds.d[0].message, "'void help()' (h.cpp:2) has a frame of dynamic size"));
	q7_diags_free(&ds);
	/* A kernel that declares its stack has taken the unknown part on. */
	judge(4096, false, kobj, "F\t_Z5helpv\t16\td\th.cpp:2\tvoid help()\n", &ds);
	ck_assert_uint_eq(ds.n, 0);
}
END_TEST

/* A chain of 100,000 calls (an object may say anything): followed 4,096
 * deep, what lies below counting 0, and no crash. */
START_TEST(long_chain)
{
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "C\t%s\t_Z2f0v\n");
	for (int i = 0; i < 100000; i++)
		q7_sb_addf(&b, "F\t_Z2f%dv\t16\ts\tc.cpp:%d\tvoid f%d()\nC\t_Z2f%dv\t_Z2f%dv\n", i, i,
		           i, i, i + 1);
	struct q7_diags ds = {0};
	judge(0, false, "F\t%s\t100\ts\tk.cpp:4\tat::Tensor k(const at::Tensor&)\n", b.s, &ds);
	ck_assert_uint_ge(ds.n, 1);
	ck_assert_str_eq(ds.d[0].message,
	                 "kernel 'k' needs at least 65636 bytes of stack; the core has 65536");
	q7_diags_free(&ds);
	q7_sb_free(&b);
}
END_TEST

/* A prebuilt object's text, checked before it is trusted: what q7cc
 * writes passes (other kinds of line skipped); a figure that is no
 * number up to 4 GiB, missing fields, another qualifier fail naming the
 * object and the line. */
START_TEST(payload_check)
{
	static const struct {
		const char *text, *error; /* NULL: passes */
	} rows[] = {
		{"F\t_Z1fv\t16\ts\tf.cpp:2\tvoid f()\nC\t_Z1fv\tmemset\n\nX\tnew\n", NULL},
		{"F\t_Z1fv\t4294967295\tb\tf.cpp:2\t\n", NULL},
		{"C\ta\tb\nF\t_Z1fv\t4294967296\ts\tf.cpp:2\tvoid f()\n",
		 "o.o: .q7.stack: line 2: a frame's bytes are not a number up to 4 GiB"},
		{"F\t_Z1fv\t-1\ts\tf.cpp:2\tvoid f()\n",
		 "o.o: .q7.stack: line 1: a frame's bytes are not a number up to 4 GiB"},
		{"F\t_Z1fv\t99999999999999999999999\ts\tf.cpp:2\tf\n",
		 "o.o: .q7.stack: line 1: a frame's bytes are not a number up to 4 GiB"},
		{"F\t_Z1fv\t16 \ts\tf.cpp:2\tf\n",
		 "o.o: .q7.stack: line 1: a frame's bytes are not a number up to 4 GiB"},
		{"F\t_Z1fv\t16\tx\tf.cpp:2\tf\n", "o.o: .q7.stack: line 1: a frame's kind is not s, b or d"},
		{"F\t_Z1fv\t16\n", "o.o: .q7.stack: line 1: a frame is not "
		                     "'F<TAB>symbol<TAB>bytes<TAB>s|b|d<TAB>file:line<TAB>declaration'"},
		{"F\t_Z1fv\t16\ts\tf.cpp:2\tf\textra\n", "o.o: .q7.stack: line 1: a frame is not "
		                     "'F<TAB>symbol<TAB>bytes<TAB>s|b|d<TAB>file:line<TAB>declaration'"},
		{"C\ta\n", "o.o: .q7.stack: line 1: a call is not 'C<TAB>caller<TAB>callee'"},
		{"C\t\tb\n", "o.o: .q7.stack: line 1: a call is not 'C<TAB>caller<TAB>callee'"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct q7_err err = Q7_ERR_GROWING;
		int rc = q7_stack_payload_check(rows[i].text, "o.o", &err);
		ck_assert_msg(rc == (rows[i].error ? -1 : 0), "row %zu: %d", i, rc);
		if (rows[i].error)
			ck_assert_str_eq(q7_err_text(&err), rows[i].error);
		q7_err_free(&err);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-stack");
	TCase *tc = tcase_create("all");
	tcase_add_test(tc, from_callgraph);
	tcase_add_test(tc, too_deep);
	tcase_add_test(tc, declared);
	tcase_add_test(tc, unbounded);
	tcase_add_test(tc, long_chain);
	tcase_add_test(tc, payload_check);
	suite_add_tcase(s, tc);
	return run_suite(s, true);
}
