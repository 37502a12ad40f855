/* gen_wrapper: writes wrapper.cpp for hand-written schemas, so the runtime
 * tests can build kernel libraries without the driver:
 *
 *   gen_wrapper OUT.cpp [--int64=long] [--stack=OP:BYTES] SCHEMA...
 *
 * --int64=long spells "long long" parameters as "long", as int64_t is on
 * an LP64 host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "schema.h"
#include "support.h"

int main(int argc, char **argv)
{
	q7_set_progname("gen_wrapper");
	if (argc < 2) {
		fprintf(stderr, "usage: gen_wrapper OUT.cpp [--int64=long] [--stack=OP:BYTES] SCHEMA...\n");
		return 2;
	}
	const char *int64 = NULL;
	struct q7_op_table ops = {0};
	struct q7_strvec stacks = {0};
	for (int i = 2; i < argc; i++) {
		if (strncmp(argv[i], "--int64=", 8) == 0) {
			int64 = argv[i] + 8;
			continue;
		}
		if (strncmp(argv[i], "--stack=", 8) == 0) {
			q7_sv_add(&stacks, argv[i] + 8);
			continue;
		}
		struct q7_op *op = q7_ops_add(&ops);
		struct q7_err err = Q7_ERR_GROWING;
		if (q7_schema_parse(argv[i], op, &err, NULL) != 0) {
			q7_error("%s: %s", argv[i], q7_err_text(&err));
			return 1;
		}
		for (size_t k = 0; int64 && k < op->nparams; k++) {
			if (op->params[k].kind == Q7_KIND_LONGLONG) {
				free(op->params[k].ctype);
				op->params[k].ctype = q7_xstrdup(int64);
			}
		}
	}
	for (size_t s = 0; s < stacks.n; s++) {
		const char *colon = strchr(stacks.v[s], ':');
		for (size_t i = 0; colon && i < ops.n; i++)
			if (strncmp(ops.ops[i].name, stacks.v[s], (size_t)(colon - stacks.v[s])) == 0 &&
			    strlen(ops.ops[i].name) == (size_t)(colon - stacks.v[s]))
				ops.ops[i].stack_size = (unsigned)strtoul(colon + 1, NULL, 0);
	}
	struct q7_strbuf out = {0};
	if (q7_codegen_dispatch(&ops, &out) != 0)
		return 1;
	FILE *f = fopen(argv[1], "w");
	if (!f || fwrite(out.s, 1, out.len, f) != out.len || fclose(f) != 0) {
		q7_error("%s: cannot write", argv[1]);
		return 1;
	}
	q7_sb_free(&out);
	q7_sv_free(&stacks);
	q7_ops_free(&ops);
	return 0;
}
