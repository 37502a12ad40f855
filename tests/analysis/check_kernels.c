/* q7_analyze through the libclang plugin: the schemas of a set of kernels
 * (typedefs, aliases, namespaces, macros, header declarations, every
 * kind) for the device triple with the real xtensa-lx106-elf-g++ include
 * directories and for the host triple; every lint rule on a fixture that
 * breaks it; NEURON_LIBRARY and --q7-kernel names; parse errors; a
 * missing plugin. Fixtures include the runtime's own <torch/torch.h>. */
#include "analysis.h"
#include "schema.h"
#include "internal.h"
#include "server.h"
#include "tempfile.h"

#include "run_suite.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEVICE_TRIPLE "i386-unknown-none"
#define HOST_TRIPLE "x86_64-pc-linux-gnu"

static struct q7_strvec xtensa_sys, host_sys, xtensa_macros, host_macros;

/* "#define NAME VALUE" lines of `cc -dM -E` (written at configure time)
 * as the driver passes them: "NAME=VALUE", function-like ones skipped. */
static void read_macros(const char *path, struct q7_strvec *out)
{
	size_t len;
	char *text = q7_read_file(path, &len);
	if (!text)
		return;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "#define ", 8) != 0)
			continue;
		char *name = l + 8, *sp = strchr(name, ' ');
		if (!sp || memchr(name, '(', (size_t)(sp - name)))
			continue;
		*sp = '\0';
		q7_sv_addf(out, "%s=%s", name, sp + 1);
	}
	free(text);
}

static void split(const char *list, struct q7_strvec *out)
{
	char *copy = q7_xstrdup(list), *save = NULL;
	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save))
		q7_sv_add(out, t);
	free(copy);
}

struct run {
	struct q7_op_table ops;
	struct q7_diags diags;
	struct q7_err err; /* q7_analyze's why */
	int rc;
};

static bool multicore; /* --q7-multicore on the compile line */

static void analyze_with(struct run *r, const char *fixture, bool host, const char *toolchain,
                         const char *const *names, const char *const *wanted,
                         char *const *extra)
{
	char *src = q7_path_join(FIXTURES, fixture);
	char *inc = q7_xasprintf("-I%s", RUNTIME_INCLUDE);
	struct q7_strvec args = {0};
	q7_sv_add(&args, inc);
	q7_sv_add(&args, "-std=c++14");
	for (; extra && *extra; extra++)
		q7_sv_add(&args, *extra);
	struct q7_analysis_opts o = {
		.source = src,
		.clang_args = args.v,
		.triple = host ? HOST_TRIPLE : DEVICE_TRIPLE,
		.sys_includes = host ? host_sys.v : xtensa_sys.v,
		.predefines = host ? host_macros.v : xtensa_macros.v,
		.toolchain = toolchain,
		.kernel_names = (char *const *)names,
		.multicore = multicore,
		.wanted_names = (char *const *)wanted,
	};
	memset(r, 0, sizeof *r);
	r->err = Q7_ERR_GROWING;
	r->rc = q7_analyze(&o, &r->ops, &r->diags, &r->err);
	q7_sv_free(&args);
	free(inc);
	free(src);
}

static void analyze(struct run *r, const char *fixture, bool host, const char *toolchain,
                    const char *const *names)
{
	analyze_with(r, fixture, host, toolchain, names, NULL, NULL);
}

static void run_free(struct run *r)
{
	q7_ops_free(&r->ops);
	q7_diags_free(&r->diags);
	q7_err_free(&r->err);
}

/* "qualname | schema | exact kinds | ret(ctypes) | stack | def/decl |
 * file-basename:line" */
static char *describe(const struct q7_op *op)
{
	struct q7_strbuf b = {0};
	q7_sb_addf(&b, "%s | ", op->qualname);
	q7_schema_print(op, NULL, &b);
	q7_sb_add(&b, " |");
	for (size_t i = 0; i < op->nparams; i++)
		q7_sb_addf(&b, "%s%s", i ? ", " : " ", q7_kind_name(op->params[i].kind));
	q7_sb_addf(&b, " | %s(", op->ret_ctype);
	for (size_t i = 0; i < op->nparams; i++)
		q7_sb_addf(&b, "%s%s", i ? ", " : "", op->params[i].ctype);
	q7_sb_addf(&b, ") | %u | %s | %s:%u", op->stack_size, op->defined ? "def" : "decl",
	           q7_path_basename(op->file), op->line);
	return q7_sb_take(&b);
}

static void expect_ops(const struct run *r, const char *const *want)
{
	size_t n = 0;
	while (want[n])
		n++;
	for (size_t i = 0; i < r->diags.n; i++)
		ck_assert_msg(r->diags.d[i].severity != Q7_SEV_ERROR, "unexpected error: %s:%u: %s",
		              r->diags.d[i].file, r->diags.d[i].line, r->diags.d[i].message);
	ck_assert_int_eq(r->rc, 0);
	ck_assert_uint_eq(r->ops.n, n);
	for (size_t i = 0; i < n; i++) {
		char *got = describe(&r->ops.ops[i]);
		bool found = false;
		for (size_t k = 0; k < n; k++)
			found |= strcmp(got, want[k]) == 0;
		ck_assert_msg(found, "unexpected op: %s", got);
		free(got);
	}
}

static const char *const device_set[] = {
	"hdr::from_header | from_header(Tensor x, int n) -> Tensor | Tensor, long long | at::Tensor(const at::Tensor &, long long) | 0 | def | kernels.cpp:34",
	"hdr::header_stack | header_stack(Tensor x, float d) -> Tensor | Tensor, double | at::Tensor(at::Tensor, double) | 8192 | def | kernels.cpp:36",
	"hdr::declared_only | declared_only(Tensor x) -> Tensor | Tensor | at::Tensor(const at::Tensor &) | 0 | decl | kern_decls.h:9",
	"relu | relu(Tensor x, int k, float a) -> Tensor | Tensor, int, float | at::Tensor(const at::Tensor &, int, float) | 0 | def | kernels.cpp:17",
	"ops::v1::scale | scale(Tensor x, Scalar s, bool flag) -> Tensor | Tensor, Scalar, bool | at::Tensor(at::Tensor, const c10::Scalar &, bool) | 0 | def | kernels.cpp:21",
	"wide | wide(Tensor x, int a, int b, int c, float d) -> Tensor | Tensor, long long, long long, long long, double | at::Tensor(const at::Tensor &, long long, long long, long long, double) | 0 | def | kernels.cpp:25",
	"from_macro | from_macro(Tensor in_, float f) -> Tensor | Tensor, float | at::Tensor(const at::Tensor &, float) | 0 | def | kernels.cpp:30",
	"deep | deep(Tensor x, int n) -> Tensor | Tensor, int | at::Tensor(at::Tensor, int) | 65536 | def | kernels.cpp:32",
	"raw_attr | raw_attr(Tensor x, int n) -> Tensor | Tensor, long long | at::Tensor(const at::Tensor &, const long long &) | 0 | def | kernels.cpp:49",
	NULL,
};

START_TEST(device_schemas)
{
	struct run r;
	analyze(&r, "kernels.cpp", false, "gnu", NULL);
	expect_ops(&r, device_set);
	ck_assert_uint_eq(r.diags.n, 0);
	run_free(&r);
}
END_TEST

START_TEST(host_schemas)
{
	/* x86-64 is LP64: int64_t is long there, and must be declared so. */
	static const char *const host_set[] = {
		"hdr::from_header | from_header(Tensor x, int n) -> Tensor | Tensor, long long | at::Tensor(const at::Tensor &, long) | 0 | def | kernels.cpp:34",
		"hdr::header_stack | header_stack(Tensor x, float d) -> Tensor | Tensor, double | at::Tensor(at::Tensor, double) | 8192 | def | kernels.cpp:36",
		"hdr::declared_only | declared_only(Tensor x) -> Tensor | Tensor | at::Tensor(const at::Tensor &) | 0 | decl | kern_decls.h:9",
		"relu | relu(Tensor x, int k, float a) -> Tensor | Tensor, int, float | at::Tensor(const at::Tensor &, int, float) | 0 | def | kernels.cpp:17",
		"ops::v1::scale | scale(Tensor x, Scalar s, bool flag) -> Tensor | Tensor, Scalar, bool | at::Tensor(at::Tensor, const c10::Scalar &, bool) | 0 | def | kernels.cpp:21",
		"wide | wide(Tensor x, int a, int b, int c, float d) -> Tensor | Tensor, long long, long long, long long, double | at::Tensor(const at::Tensor &, long, long long, long long, double) | 0 | def | kernels.cpp:25",
		"from_macro | from_macro(Tensor in_, float f) -> Tensor | Tensor, float | at::Tensor(const at::Tensor &, float) | 0 | def | kernels.cpp:30",
		"deep | deep(Tensor x, int n) -> Tensor | Tensor, int | at::Tensor(at::Tensor, int) | 65536 | def | kernels.cpp:32",
		"raw_attr | raw_attr(Tensor x, int n) -> Tensor | Tensor, long long | at::Tensor(const at::Tensor &, const long long &) | 0 | def | kernels.cpp:49",
		NULL,
	};
	struct run r;
	analyze(&r, "kernels.cpp", true, "host", NULL);
	expect_ops(&r, host_set);
	ck_assert_uint_eq(r.diags.n, 0);
	run_free(&r);
}
END_TEST

START_TEST(neuron_library_and_names)
{
	static const char *const want[] = {
		"relu_forward | my_ops::relu_forward(Tensor t_in) -> Tensor | Tensor | at::Tensor(const at::Tensor &) | 0 | def | neuron_library.cpp:10",
		"relu_backward | my_ops::relu_backward(Tensor g, Tensor x) -> Tensor | Tensor, Tensor | at::Tensor(const at::Tensor &, const at::Tensor &) | 0 | def | neuron_library.cpp:11",
		"by_flag | by_flag(Tensor x, int n) -> Tensor | Tensor, long long | at::Tensor(const at::Tensor &, long long) | 0 | def | neuron_library.cpp:12",
		NULL,
	};
	struct run r;
	analyze(&r, "neuron_library.cpp", false, "gnu", (const char *const[]){"by_flag", NULL});
	expect_ops(&r, want);
	run_free(&r);
	/* A name qualified from the global namespace names the same kernel. */
	analyze(&r, "neuron_library.cpp", false, "gnu", (const char *const[]){"::by_flag", NULL});
	expect_ops(&r, want);
	run_free(&r);
}
END_TEST

/* A --q7-kernel name the file has no function of: an error that lists
 * what the file defines. A name another file's NEURON_LIBRARY wants is a
 * kernel where the file has it, and no error where it has not. */
START_TEST(unknown_and_wanted_names)
{
	struct run r;
	analyze(&r, "neuron_library.cpp", false, "gnu",
	        (const char *const[]){"by_flag", "nowhere", "relu_forward", NULL});
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.ops.n, 3);
	ck_assert_uint_eq(r.diags.n, 1);
	const struct q7_diag *d = &r.diags.d[0];
	ck_assert_int_eq(d->severity, Q7_SEV_ERROR);
	ck_assert_str_eq(q7_path_basename(d->file), "neuron_library.cpp");
	ck_assert_str_eq(d->message,
	                 "--q7-kernel=nowhere names no function of this file; it defines: "
	                 "relu_forward, relu_backward, by_flag, not_a_kernel, relu_fwd_shape");
	run_free(&r);

	static const char *const want[] = {
		"relu_forward | my_ops::relu_forward(Tensor t_in) -> Tensor | Tensor | at::Tensor(const at::Tensor &) | 0 | def | neuron_library.cpp:10",
		"relu_backward | my_ops::relu_backward(Tensor g, Tensor x) -> Tensor | Tensor, Tensor | at::Tensor(const at::Tensor &, const at::Tensor &) | 0 | def | neuron_library.cpp:11",
		"not_a_kernel | not_a_kernel(Tensor x) -> Tensor | Tensor | at::Tensor(const at::Tensor &) | 0 | def | neuron_library.cpp:13",
		NULL,
	};
	analyze_with(&r, "neuron_library.cpp", false, "gnu", NULL,
	             (const char *const[]){"not_a_kernel", "elsewhere", NULL}, NULL);
	expect_ops(&r, want);
	ck_assert_uint_eq(r.diags.n, 0);
	run_free(&r);
}
END_TEST

/* The kind table (<q7/kinds.h>) against libclang's types: a kernel per C++
 * name of every kind, by value and by const&, and a long, which passes as
 * the integer kind of its width on the triple. */
static void kind_table_on(bool host)
{
	char dir[] = "/tmp/q7kinds.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *src = q7_path_join(dir, "kinds.cpp");
	struct q7_strbuf b = {0};
	struct q7_strvec want = {0}; /* the kind of each kernel's parameters */
	q7_sb_add(&b, "#include <torch/torch.h>\n#include <q7/kernel.h>\n");
	for (enum q7_kind k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++) {
		const char *cxx = q7_kind_info(k)->cxx;
		for (int i = 0; *cxx; i++) {
			size_t n = strcspn(cxx, "|");
			q7_sb_addf(&b, "Q7_KERNEL at::Tensor k%zu(%.*s a, const %.*s &b);\n", want.n, (int)n,
			           cxx, (int)n, cxx);
			q7_sv_add(&want, q7_kind_name(k));
			cxx += n + (cxx[n] == '|');
		}
	}
	q7_sb_addf(&b, "Q7_KERNEL at::Tensor k%zu(long a, const long &b);\n", want.n);
	q7_sv_add(&want, q7_kind_name(q7_kind_of_builtin("long", host ? 64 : 32)));
	FILE *f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	fputs(b.s, f);
	fclose(f);
	struct run r;
	analyze(&r, src, host, host ? "host" : "gnu", NULL);
	for (size_t i = 0; i < r.diags.n; i++)
		ck_assert_msg(r.diags.d[i].severity != Q7_SEV_ERROR, "%s", r.diags.d[i].message);
	ck_assert_uint_eq(r.ops.n, want.n);
	for (size_t i = 0; i < r.ops.n; i++) {
		const struct q7_op *op = &r.ops.ops[i];
		size_t k = (size_t)strtoul(op->name + 1, NULL, 10);
		ck_assert_uint_eq(op->nparams, 2);
		ck_assert_str_eq(q7_kind_name(op->params[0].kind), want.v[k]);
		ck_assert_str_eq(q7_kind_name(op->params[1].kind), want.v[k]);
	}
	run_free(&r);
	unlink(src);
	rmdir(dir);
	free(src);
	q7_sb_free(&b);
	q7_sv_free(&want);
}

START_TEST(kind_table)
{
	kind_table_on(false);
	kind_table_on(true);
}
END_TEST

static void put_file(const char *path, const char *text)
{
	const char *what;
	ck_assert_int_eq(q7_outfile_write(path, text, strlen(text), 0600, &what), 0);
}

/* A NEURON_LIBRARY block in a user header that comes after hundreds of
 * system headers is found: only the user's files are read, however many
 * the TU includes. */
START_TEST(neuron_library_after_system_headers)
{
	enum { NSYS = 300 };
	char dir[] = "/tmp/q7many.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *sys = q7_path_join(dir, "sys");
	ck_assert_int_eq(mkdir(sys, 0700), 0);
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "#include <torch/torch.h>\n");
	for (int i = 0; i < NSYS; i++) {
		char *h = q7_xasprintf("%s/s%d.h", sys, i);
		put_file(h, "#pragma once\n");
		free(h);
		q7_sb_addf(&b, "#include <s%d.h>\n", i);
	}
	q7_sb_add(&b, "#include \"lib.h\"\n"
	              "torch::Tensor by_block(const torch::Tensor &x) { return x; }\n");
	char *src = q7_path_join(dir, "many.cpp"), *lib = q7_path_join(dir, "lib.h");
	put_file(src, b.s);
	put_file(lib, "struct NeuronLibrary;\n"
	              "#define NEURON_LIBRARY(ns, m) void neuron_library_init_##ns(NeuronLibrary &m)\n"
	              "torch::Tensor by_block(const torch::Tensor &x);\n"
	              "NEURON_LIBRARY(many, m) { m.def(\"by_block\", &by_block, \"by_block\"); }\n");
	char *isys = q7_xasprintf("-isystem%s", sys);
	struct run r;
	analyze_with(&r, src, false, "gnu", NULL, NULL, (char *const[]){isys, NULL});
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.ops.n, 1);
	ck_assert_str_eq(r.ops.ops[0].name, "by_block");
	ck_assert_str_eq(r.ops.ops[0].ns, "many");
	run_free(&r);
	for (int i = 0; i < NSYS; i++) {
		char *h = q7_xasprintf("%s/s%d.h", sys, i);
		unlink(h);
		free(h);
	}
	unlink(src);
	unlink(lib);
	rmdir(sys);
	rmdir(dir);
	free(isys);
	free(src);
	free(lib);
	free(sys);
	q7_sb_free(&b);
}
END_TEST

/* One fixture per rule: the diagnostics expected, as "rule:line". */
static const struct {
	const char *fixture;
	const char *toolchain;
	const char *diags[6];
	size_t nops; /* kernels of the fixture that are fine */
} lint_cases[] = {
	{"lint/unsupported_param.cpp", "gnu", {"q7-unsupported-param:5", "q7-unsupported-param:6", "q7-unsupported-param:7", "q7-unsupported-param:8", "q7-unsupported-param:9"}, 0},
	{"lint/return.cpp", "gnu", {"q7-return:3", "q7-return:4", "q7-return:5"}, 0},
	{"lint/name_length.cpp", "gnu", {"q7-name-length:3"}, 1},
	{"lint/internal_linkage.cpp", "gnu", {"q7-internal-linkage:3", "q7-internal-linkage:5"}, 0},
	{"lint/template.cpp", "gnu", {"q7-template:4"}, 0},
	{"lint/member_function.cpp", "gnu", {"q7-member-function:4", "q7-member-function:5"}, 0},
	{"lint/c_linkage.cpp", "gnu", {"q7-c-linkage:3", "q7-c-linkage:5"}, 0},
	{"lint/inline.cpp", "gnu", {"q7-inline:3", "q7-inline:5"}, 0},
	{"lint/variadic.cpp", "gnu", {"q7-variadic:3"}, 0},
	{"lint/overload.cpp", "gnu", {"q7-overload:3", ":4"}, 0},
	{"lint/profile_kind.cpp", "xt", {"q7-profile-kind:3", "q7-profile-kind:4"}, 1},
	{"lint/stack_size.cpp", "gnu", {"q7-stack-size:3", "q7-stack-size:4", "q7-stack-size:5"}, 0},
	{"lint/duplicate_kernel.cpp", "gnu", {"q7-duplicate-kernel:4", ":3"}, 1},
	{"lint/profile_kind.cpp", "gnu", {NULL}, 1},
};

START_TEST(lint_rules)
{
	struct run r;
	analyze(&r, lint_cases[_i].fixture, false, lint_cases[_i].toolchain, NULL);
	ck_assert_int_eq(r.rc, 0);
	size_t n = 0;
	for (; n < 6 && lint_cases[_i].diags[n]; n++) {
		const char *want = lint_cases[_i].diags[n];
		ck_assert_uint_gt(r.diags.n, n);
		const struct q7_diag *d = &r.diags.d[n];
		char *got = q7_xasprintf("%s:%u", d->rule, d->line);
		ck_assert_msg(strcmp(got, want) == 0, "%s: diagnostic %zu is %s (%s), not %s",
		              lint_cases[_i].fixture, n, got, d->message, want);
		ck_assert_str_eq(q7_path_basename(d->file), q7_path_basename(lint_cases[_i].fixture));
		ck_assert_uint_gt(d->col, 0);
		free(got);
	}
	ck_assert_uint_eq(r.diags.n, n);
	ck_assert_uint_eq(r.ops.n, lint_cases[_i].nops);
	run_free(&r);
}
END_TEST

/* -DSTACK_SIZE= on the compile line is the stack of the kernels without
 * their own, since the wrapper is compiled at link time without it. */
START_TEST(stack_flag)
{
	struct run r;
	analyze_with(&r, "lint/stack_flag.cpp", false, "gnu", NULL, NULL, (char *[]){"-DSTACK_SIZE=307200", NULL});
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.ops.n, 2);
	ck_assert_uint_eq(r.ops.ops[0].stack_size, 307200);
	ck_assert_uint_eq(r.ops.ops[1].stack_size, 8192);
	run_free(&r);
	/* -D NAME=V as two words; -U undoes it */
	analyze_with(&r, "lint/stack_flag.cpp", false, "gnu", NULL, NULL,
	             (char *[]){"-D", "STACK_SIZE=4096", "-USTACK_SIZE", NULL});
	ck_assert_uint_eq(r.ops.ops[0].stack_size, 0);
	run_free(&r);
	analyze_with(&r, "lint/stack_flag.cpp", false, "gnu", NULL, NULL,
	             (char *[]){"-DSTACK_SIZE=20000", "-D", "STACK_SIZE=0x10000", NULL});
	ck_assert_uint_eq(r.ops.ops[0].stack_size, 0x10000);
	run_free(&r);
	/* over 4 MiB, or not a number: an error at the kernel without its own */
	static const char *const bad[] = {"-DSTACK_SIZE=5000000", "-DSTACK_SIZE=300*1024"};
	for (size_t i = 0; i < 2; i++) {
		analyze_with(&r, "lint/stack_flag.cpp", false, "gnu", NULL, NULL,
		             (char *[]){(char *)bad[i], NULL});
		ck_assert_uint_eq(r.diags.n, 1);
		ck_assert_str_eq(r.diags.d[0].rule, "q7-stack-size");
		ck_assert_uint_eq(r.diags.d[0].line, 3);
		ck_assert_ptr_nonnull(strstr(r.diags.d[0].message, bad[i] + 13));
		ck_assert_uint_eq(r.ops.n, 1);
		run_free(&r);
	}
}
END_TEST

/* With --q7-multicore, each accessor<>() and stream accessor call in a
 * kernel's body is a warning; tcm_accessor(), comments, strings and
 * helper functions are not looked at. */
START_TEST(multicore_accessors)
{
	static const unsigned lines[] = {7, 8, 9};
	struct run r;
	multicore = true;
	analyze(&r, "lint/multicore_accessor.cpp", false, "gnu", NULL);
	multicore = false;
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.ops.n, 2);
	ck_assert_uint_eq(r.diags.n, 3);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_str_eq(r.diags.d[i].rule, "q7-multicore-accessor");
		ck_assert_int_eq(r.diags.d[i].severity, Q7_SEV_WARNING);
		ck_assert_uint_eq(r.diags.d[i].line, lines[i]);
		ck_assert_ptr_nonnull(strstr(r.diags.d[i].message, "kernel 'racy'"));
	}
	ck_assert_uint_eq(r.diags.d[2].col, 15); /* at read_stream_accessor */
	run_free(&r);
	analyze(&r, "lint/multicore_accessor.cpp", false, "gnu", NULL);
	ck_assert_uint_eq(r.diags.n, 0); /* single core: fine */
	run_free(&r);
}
END_TEST

/* What the driver keeps of a compile line full of GCC-only flags
 * (tests/wrapper/check_options.c, test_analysis_args, checks which):
 * libclang takes it as given. */
START_TEST(compile_flags)
{
	char *extra[] = {"-Os", "-D", "Q7_TEST_FLAG=1", "-fexceptions", "-pthread", NULL};
	struct run r;
	analyze_with(&r, "kernels.cpp", false, "gnu", NULL, NULL, extra);
	expect_ops(&r, device_set);
	run_free(&r);
}
END_TEST

START_TEST(parse_errors)
{
	struct run r;
	analyze(&r, "syntax_error.cpp", false, "gnu", NULL);
	ck_assert_int_eq(r.rc, Q7_ANALYZE_PARSE_ERROR);
	ck_assert_uint_eq(r.ops.n, 0); /* never a schema from a broken TU */
	ck_assert_uint_ge(r.diags.n, 1);
	ck_assert_str_eq(r.diags.d[0].rule, "");
	ck_assert_uint_eq(r.diags.d[0].line, 4);
	run_free(&r);

	/* An unknown type would become int: the kernel is named invalid. */
	analyze(&r, "lint/invalid_declaration.cpp", false, "gnu", NULL);
	ck_assert_int_eq(r.rc, Q7_ANALYZE_PARSE_ERROR);
	ck_assert_uint_eq(r.ops.n, 0);
	ck_assert_uint_eq(r.diags.n, 3);
	ck_assert_str_eq(r.diags.d[0].rule, "");
	ck_assert_ptr_nonnull(strstr(r.diags.d[0].message, "NoSuchType"));
	ck_assert_str_eq(r.diags.d[1].rule, "q7-invalid-declaration");
	ck_assert_uint_eq(r.diags.d[1].line, 3);
	ck_assert_str_eq(r.diags.d[2].rule, "q7-invalid-declaration");
	run_free(&r);
}
END_TEST

START_TEST(missing_plugin)
{
	/* Its own test case, run alone (CK_RUN_CASE=missing): q7_prefix()
	 * and the plugin load are decided once per process. */
	setenv("Q7CC_PREFIX", "/nonexistent/q7cc-prefix", 1);
	struct run r;
	analyze(&r, "kernels.cpp", false, "gnu", NULL);
	ck_assert_int_eq(r.rc, Q7_ANALYZE_UNAVAILABLE);
	ck_assert_uint_eq(r.ops.n, 0);
	/* Why comes back to the caller, naming the plugin and the package. */
	const char *why = q7_err_text(&r.err);
	ck_assert_msg(strstr(why, "/nonexistent/q7cc-prefix/") == why &&
	                  strstr(why, "the plugin is missing"),
	              "%s", why);
	run_free(&r);
}
END_TEST

/* Not a pass/fail check: the numbers for the report. libclang is loaded
 * by the earlier tests already, so this is the parse and the walk alone;
 * q7analyze-dump -t in a fresh process shows the load as well. */
START_TEST(timing)
{
	for (int i = 0; i < 3; i++) {
		struct timespec t0, t1;
		struct run r;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		analyze(&r, "kernels.cpp", false, "gnu", NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ck_assert_int_eq(r.rc, 0);
		printf("q7_analyze(kernels.cpp, device) call %d: %.1f ms\n", i + 1,
		       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
		run_free(&r);
	}
}
END_TEST

static bool maps_contain(const char *what)
{
	size_t len;
	char *maps = q7_read_file("/proc/self/maps", &len);
	bool found = maps && strstr(maps, what);
	free(maps);
	return found;
}

/* Serving: the server is bound at once, but takes requests only once
 * libclang is loaded and warm (a client waits 2 s for that, no more). */
static bool answers(const char *sock)
{
	struct q7_analysis_opts o = {.source = "/dev/null", .toolchain = "gnu"};
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	int rc;
	bool ok = q7_server_analyze(sock, &o, &ops, &diags, &rc, Q7_SERVER_ACK_MS) == 0;
	q7_ops_free(&ops);
	q7_diags_free(&diags);
	return ok;
}

/* Run alone (CK_RUN_CASE=server): q7_analyze through the resident server
 * gives what the plugin gives in-process, and libclang never loads here. */
START_TEST(server_answers)
{
	char *plugin = q7_prefix_path("lib/q7cc/q7analysis-clang.so");
	char *server = q7_prefix_path("lib/q7cc/q7analysis-server");
	char *sock = q7_server_socket(plugin, server);
	ck_assert_ptr_nonnull(sock);
	q7_server_start(server, sock, plugin);
	for (int i = 0; i < 300 && !answers(sock); i++)
		usleep(100000);
	ck_assert_msg(answers(sock), "no server on %s", sock);

	struct run r;
	analyze(&r, "kernels.cpp", false, "gnu", NULL);
	expect_ops(&r, device_set);
	run_free(&r);
	analyze(&r, "lint/return.cpp", false, "gnu", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.diags.n, 3);
	ck_assert_str_eq(r.diags.d[2].rule, "q7-return");
	ck_assert_uint_eq(r.diags.d[2].line, 5);
	run_free(&r);
	analyze(&r, "syntax_error.cpp", false, "gnu", NULL);
	ck_assert_int_eq(r.rc, Q7_ANALYZE_PARSE_ERROR);
	ck_assert_uint_ge(r.diags.n, 1);
	run_free(&r);
	/* Relative paths resolve in the client's directory. */
	ck_assert_int_eq(chdir(FIXTURES), 0);
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	char *inc = q7_xasprintf("-I%s", RUNTIME_INCLUDE);
	char *args[] = {inc, "-std=c++14", NULL};
	struct q7_analysis_opts o = {.source = "lint/profile_kind.cpp", .clang_args = args,
	                             .triple = DEVICE_TRIPLE, .sys_includes = xtensa_sys.v,
	                             .predefines = xtensa_macros.v, .toolchain = "xt"};
	ck_assert_int_eq(q7_analyze(&o, &ops, &diags, NULL), 0);
	ck_assert_uint_eq(ops.n, 1);
	ck_assert_uint_eq(diags.n, 2);
	ck_assert_str_eq(diags.d[0].file, "lint/profile_kind.cpp");
	q7_ops_free(&ops);
	q7_diags_free(&diags);
	free(inc);

	ck_assert(!maps_contain("libclang"));
	/* Its socket removed, the server ends (within a quarter second). */
	unlink(sock);
	free(sock);
	free(server);
	free(plugin);
}
END_TEST

int main(void)
{
	split(XTENSA_SYS, &xtensa_sys);
	split(HOST_SYS, &host_sys);
	read_macros(XTENSA_MACROS, &xtensa_macros);
	read_macros(HOST_MACROS, &host_macros);
	if (!xtensa_macros.n || !host_macros.n) {
		fprintf(stderr, "no predefined macros in %s or %s\n", XTENSA_MACROS, HOST_MACROS);
		return 1;
	}
	Suite *s = suite_create("analysis-kernels");
	/* One process for all (CK_FORK=no in CTest): libclang loads once. */
	TCase *tc = tcase_create("clang");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, device_schemas);
	tcase_add_test(tc, host_schemas);
	tcase_add_test(tc, neuron_library_and_names);
	tcase_add_test(tc, unknown_and_wanted_names);
	tcase_add_test(tc, neuron_library_after_system_headers);
	tcase_add_test(tc, kind_table);
	tcase_add_loop_test(tc, lint_rules, 0, (int)(sizeof lint_cases / sizeof lint_cases[0]));
	tcase_add_test(tc, compile_flags);
	tcase_add_test(tc, stack_flag);
	tcase_add_test(tc, multicore_accessors);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, timing);
	suite_add_tcase(s, tc);
	TCase *srv = tcase_create("server");
	tcase_set_timeout(srv, 90);
	tcase_add_test(srv, server_answers);
	suite_add_tcase(s, srv);
	TCase *missing = tcase_create("missing");
	tcase_add_test(missing, missing_plugin);
	suite_add_tcase(s, missing);
	int failed = run_suite(s, true);
	q7_sv_free(&xtensa_sys);
	q7_sv_free(&host_sys);
	q7_sv_free(&xtensa_macros);
	q7_sv_free(&host_macros);
	return failed;
}
