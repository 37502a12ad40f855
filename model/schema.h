/* model/schema: the schema text of an op, printed and parsed.
 *
 * Memory: the parser fills an op the caller then owns (q7_op_clear). */
#ifndef Q7_SCHEMA_H
#define Q7_SCHEMA_H

#include "op.h"
#include "support.h"

/* Appends the op's TorchScript schema, "ns::relu(Tensor x, int k) ->
 * Tensor", under the namespace ns (NULL or "": none). The C++ qualified
 * name is not part of it (codegen takes op->qualname). */
void q7_schema_print(const struct q7_op *op, const char *ns, struct q7_strbuf *out);
/* Parses one schema in TorchScript or the vendor's grammar (schema.c); on
 * failure returns -1 and sets *err (caller frees) and, when err_col is
 * not NULL, *err_col to the 1-based column of the error. */
int q7_schema_parse(const char *text, struct q7_op *op, char **err, unsigned *err_col);

#endif
