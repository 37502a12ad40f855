/* PLACEHOLDER until codegen lands. */
#include "codegen.h"

int q7_codegen_wrapper(const struct q7_op_table *ops, struct q7_strbuf *out)
{
	(void)ops; (void)out;
	q7_error("q7_codegen_wrapper: not implemented yet");
	return -1;
}
