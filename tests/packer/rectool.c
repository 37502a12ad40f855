/* tests/packer/rectool: drives packer/record from shell tests.
 *   rectool attach OBJ N   attach N sample ops (op0..opN-1) to OBJ
 *   rectool read FILE...   print the ops found, one per line
 *   rectool pkg ARGS...    q7-pkg-loadlib itself (the packer without q7cc)
 * Exit 0, or 1 when the packer reported an error. */
#include "op.h"
#include "pack.h"
#include "record.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sample(struct q7_op_table *t, int n)
{
	for (int i = 0; i < n; i++) {
		struct q7_op *op = q7_ops_add(t);
		op->name = q7_xasprintf("op%d", i);
		op->qualname = q7_xasprintf("ns::op%d", i);
		op->ns = q7_xstrdup(i % 2 ? "my_ops" : "");
		op->ret_ctype = q7_xstrdup("at::Tensor");
		op->ret = Q7_KIND_TENSOR;
		op->ret_name = q7_xstrdup(i % 2 ? "out" : "");
		op->nparams = 2;
		op->params = q7_xcalloc(2, sizeof *op->params);
		op->params[0] = (struct q7_param){Q7_KIND_TENSOR, q7_xstrdup("x"), q7_xstrdup("const at::Tensor &")};
		op->params[1] = (struct q7_param){Q7_KIND_LONGLONG, q7_xstrdup("k"), q7_xstrdup("long long")};
		op->stack_size = 4096u * (unsigned)i;
		/* Declarations: a kernel a record says is defined must be a
		 * symbol of its object, and these objects define none. */
		op->defined = false;
		op->file = q7_xstrdup("k.cpp");
		op->line = 10u + (unsigned)i;
		op->col = 5;
	}
}

int main(int argc, char **argv)
{
	q7_set_progname("q7cc");
	if (argc >= 2 && strcmp(argv[1], "pkg") == 0) {
		q7_set_progname("q7-pkg-loadlib");
		return q7_pkg_loadlib_main(argc - 1, argv + 1);
	}
	if (argc >= 4 && strcmp(argv[1], "attach") == 0) {
		struct q7_op_table t = {0};
		sample(&t, atoi(argv[3]));
		struct q7_err err = Q7_ERR_GROWING;
		int rc = q7_record_attach(argv[2], &t, &err);
		q7_err_print(&err);
		q7_ops_free(&t);
		return rc == 0 ? 0 : 1;
	}
	if (argc >= 3 && strcmp(argv[1], "read") == 0) {
		struct q7_op_table t = {0};
		int rc = 0;
		for (int i = 2; i < argc; i++) {
			struct q7_err err = Q7_ERR_GROWING;
			rc |= q7_record_read(argv[i], &t, &err);
			q7_err_print(&err);
		}
		for (size_t i = 0; i < t.n; i++) {
			const struct q7_op *op = &t.ops[i];
			printf("%s %s %s:%u:%u stack=%u", op->name, op->qualname, op->file, op->line, op->col,
			       op->stack_size);
			for (size_t j = 0; j < op->nparams; j++)
				printf(" %s:%s", q7_kind_name(op->params[j].kind), op->params[j].name);
			printf("\n");
		}
		q7_ops_free(&t);
		return rc == 0 ? 0 : 1;
	}
	fprintf(stderr, "usage: rectool attach OBJ N | read FILE...\n");
	return 2;
}
