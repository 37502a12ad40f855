/* codegen: the op table -> wrapper.cpp (see codegen.h).
 *
 * The text follows the vendor driver's wrapper (docs/vendor-flow.md,
 * "Codegen") with two deliberate differences: the forward declarations are
 * spelled from the kernels' real C++ types (so int64_t/double kernels
 * link), and the arguments are unpacked into locals one statement at a
 * time, because the order in which a call's arguments are evaluated is
 * unspecified in C++ and customop_next_* must run in parameter order.
 * get_func_schema is the open runtime's addition: the op's TorchScript
 * schema, which the runtime checks calls against (by type: the dispatch wrapper's
 * customop_next_* calls know the exact C++ kinds, e.g. int against long long).
 *
 * Every name and type pasted into the text is checked first against the
 * allow-list of model/cxx.h (the record reader checked it too): an op
 * from a crafted object must not smuggle a line break, a digraph or a
 * directive into the dispatch wrapper. */
#include "codegen.h"
#include "cxx.h"
#include "schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16 /* Q7_MAX_ARGS of <q7/frame.h> */

static int check_op(const struct q7_op_table *ops, size_t idx)
{
	const struct q7_op *op = &ops->ops[idx];
	char where[512];
	const char *file = op->file && *op->file ? op->file : "wrapper.cpp";
	if (op->line)
		snprintf(where, sizeof where, "%s:%u:%u", file, op->line, op->col);
	else
		snprintf(where, sizeof where, "%s", file);
	if (!q7_cxx_ident(op->name, strlen(op->name))) {
		char *q = q7_cxx_quote(op->name);
		q7_error("%s: kernel '%s': not a C++ identifier", where, q);
		free(q);
		return -1;
	}
	if (strlen(op->name) > Q7_OP_NAME_MAX) {
		q7_error("%s: kernel '%s': the name has %zu characters, at most %d", where, op->name,
		         strlen(op->name), Q7_OP_NAME_MAX);
		return -1;
	}
	const char *qual = op->qualname && *op->qualname ? op->qualname : op->name;
	const char *bare = strncmp(qual, "::", 2) == 0 ? qual + 2 : qual;
	if (!q7_cxx_qualname(bare) || strcmp(q7_cxx_unqualified(bare), op->name) != 0) {
		char *q = q7_cxx_quote(qual);
		q7_error("%s: kernel '%s': cannot declare '%s' from the wrapper", where, op->name, q);
		free(q);
		return -1;
	}
	for (size_t j = 0; j < idx; j++)
		if (strcmp(ops->ops[j].name, op->name) == 0) {
			q7_error("%s: kernel '%s' is in the table twice", where, op->name);
			return -1;
		}
	if (op->ret != Q7_KIND_TENSOR || !q7_cxx_result_type(op->ret_ctype)) {
		q7_error("%s: kernel '%s': must return one Tensor", where, op->name);
		return -1;
	}
	if (op->nparams > MAX_PARAMS) {
		q7_error("%s: kernel '%s': %zu parameters, at most %d", where, op->name, op->nparams,
		         MAX_PARAMS);
		return -1;
	}
	for (size_t i = 0; i < op->nparams; i++) {
		const struct q7_param *p = &op->params[i];
		if (!q7_kind_info(p->kind) || !q7_cxx_param_type(p->kind, p->ctype, 0)) {
			char *name = q7_cxx_quote(p->name), *type = q7_cxx_quote(p->ctype);
			q7_error("%s: kernel '%s': parameter %zu (%s) of type '%s' cannot be marshalled",
			         where, op->name, i + 1, name, type);
			free(name);
			free(type);
			return -1;
		}
	}
	if (op->stack_size > Q7_OP_STACK_MAX) {
		q7_error("%s: kernel '%s': stack size %u is over MAX_STACK_SIZE (%u)", where, op->name,
		         op->stack_size, Q7_OP_STACK_MAX);
		return -1;
	}
	return 0;
}

static void emit_declaration(const struct q7_op *op, struct q7_strbuf *out)
{
	const char *qual = op->qualname && *op->qualname ? op->qualname : op->name;
	if (qual[0] == ':')
		qual += 2;
	int depth = 0;
	const char *p = qual;
	for (const char *sep; (sep = strstr(p, "::")) != NULL; p = sep + 2) {
		q7_sb_addf(out, "namespace %.*s {\n", (int)(sep - p), p);
		depth++;
	}
	q7_sb_addf(out, "%s %s(", op->ret_ctype, op->name);
	for (size_t i = 0; i < op->nparams; i++)
		q7_sb_addf(out, "%s%s", i ? ", " : "", op->params[i].ctype);
	q7_sb_add(out, ");\n");
	while (depth-- > 0)
		q7_sb_add(out, "}\n");
}

static void emit_wrapper(const struct q7_op *op, struct q7_strbuf *out)
{
	const char *qual = op->qualname && *op->qualname ? op->qualname : op->name;
	if (qual[0] == ':')
		qual += 2;
	q7_sb_addf(out, "void %s_wrapper()\n{\n\tcustomop_setup(true);\n", op->name);
	/* check_op() refused a kind without a call: each has its info here. */
	for (size_t i = 0; i < op->nparams; i++) {
		const struct q7_kind_info *k = q7_kind_info(op->params[i].kind);
		q7_sb_addf(out, "\t%s a%zu = %s();\n", k->local, i, k->call);
	}
	q7_sb_addf(out, "\tat::Tensor q7_output = ::%s(", qual);
	for (size_t i = 0; i < op->nparams; i++)
		q7_sb_addf(out, "%sa%zu", i ? ", " : "", i);
	q7_sb_add(out, ");\n"
	               "\tcustomop_return_tensor(q7_output);\n"
	               "\tcustomop_cleanup();\n"
	               "\tif (switched_stack)\n"
	               "\t\tswitchBack();\n"
	               "}\n\n");
	q7_sb_addf(out, "int %s_stack_switch()\n{\n\treturn switch_stack_or_call_wrapper(%s_wrapper, ",
	           op->name, op->name);
	if (op->stack_size)
		q7_sb_addf(out, "%u", op->stack_size);
	else
		q7_sb_add(out, "STACK_SIZE");
	q7_sb_add(out, ");\n}\n\n");
}

static void emit_tables(const struct q7_op_table *ops, struct q7_strbuf *out)
{
	q7_sb_addf(out, "int get_func_cnt()\n{\n\treturn %zu;\n}\n\n", ops->n);

	q7_sb_add(out, "char const *get_func_name(int i)\n{\n\tswitch (i) {\n");
	for (size_t i = 0; i < ops->n; i++)
		q7_sb_addf(out, "\tcase %zu: return \"%s\";\n", i, ops->ops[i].name);
	q7_sb_add(out, "\tdefault: return \"error\";\n\t}\n}\n\n");

	q7_sb_add(out, "wrapper_fn get_func_ptr(int i)\n{\n\tswitch (i) {\n");
	for (size_t i = 0; i < ops->n; i++)
		q7_sb_addf(out, "\tcase %zu: return %s_stack_switch;\n", i, ops->ops[i].name);
	q7_sb_add(out, "\tdefault: return 0;\n\t}\n}\n\n");

	q7_sb_add(out, "char const *get_func_schema(int i)\n{\n\tswitch (i) {\n");
	/* "relu(Tensor x) -> Tensor": identifiers and punctuation, no escapes. */
	for (size_t i = 0; i < ops->n; i++) {
		q7_sb_addf(out, "\tcase %zu: return \"", i);
		q7_schema_print(&ops->ops[i], NULL, out);
		q7_sb_add(out, "\";\n");
	}
	q7_sb_add(out, "\tdefault: return \"error\";\n\t}\n}\n");
}

/* The op list the runtime gives q7-run --list and PyTorch must fit its
 * room: 64 KiB namespaces or parameter names linked into an image whose
 * op list no tool could read. 0, or -1 after a message. */
static int check_list_size(const struct q7_op_table *ops)
{
	size_t total = 0;
	struct q7_strbuf schema = {0};
	for (size_t i = 0; i < ops->n; i++) {
		schema.len = 0;
		q7_schema_print(&ops->ops[i], NULL, &schema);
		total += strlen(ops->ops[i].name) + 1 + schema.len + 1;
	}
	q7_sb_free(&schema);
	if (total <= Q7_OP_LIST_MAX)
		return 0;
	q7_error("the op list of the %zu kernel%s (names and schemas) is %zu bytes, over the %u a "
	         "library can list: shorten their namespaces and parameter names",
	         ops->n, ops->n == 1 ? "" : "s", total, Q7_OP_LIST_MAX);
	return -1;
}

int q7_codegen_dispatch(const struct q7_op_table *ops, struct q7_strbuf *out)
{
	for (size_t i = 0; i < ops->n; i++)
		if (check_op(ops, i) != 0)
			return -1;
	if (check_list_size(ops) != 0)
		return -1;
	q7_sb_addf(out,
	           "// wrapper.cpp: the dispatch wrapper of %zu kernel%s, generated by q7cc.\n"
	           "// Do not edit: it is written again at every link.\n"
	           "#include <neuron/wrapper_api.h>\n\n",
	           ops->n, ops->n == 1 ? "" : "s");
	for (size_t i = 0; i < ops->n; i++)
		emit_declaration(&ops->ops[i], out);
	q7_sb_add(out, "\n");
	for (size_t i = 0; i < ops->n; i++)
		emit_wrapper(&ops->ops[i], out);
	emit_tables(ops, out);
	return 0;
}

/* ---- the runtime symbols the dispatch wrapper calls --------------------------- */

void q7_codegen_runtime_refs(const struct q7_op_table *ops, struct q7_strvec *syms)
{
	/* <neuron/wrapper_api.h> and <neuron/stack_switch.hpp>, mangled for
	 * ILP32 (uint32_t is unsigned int: "j"). */
	static const char *const always[] = {
		"_Z14customop_setupb", "_Z22customop_return_tensorRKN2at6TensorE",
		"_Z16customop_cleanupv", "switched_stack", "_Z10switchBackv",
		"_Z28switch_stack_or_call_wrapperPFvvEj",
	};
	if (ops->n == 0)
		return;
	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
		q7_sv_add(syms, always[i]);
	bool seen[Q7_KIND_END] = {false};
	for (size_t i = 0; i < ops->n; i++)
		for (size_t k = 0; k < ops->ops[i].nparams; k++) {
			enum q7_kind kind = ops->ops[i].params[k].kind;
			const struct q7_kind_info *info = q7_kind_info(kind); /* its marshalling call */
			if (info && !seen[kind]) {
				seen[kind] = true;
				q7_sv_addf(syms, "_Z%zu%sv", strlen(info->call), info->call);
			}
		}
}
