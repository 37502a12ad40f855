/* model/schema: the schema text of an op, printed and parsed.
 *
 * Memory: the parser fills an op the caller then owns (q7_op_clear). */
#ifndef Q7_SCHEMA_H
#define Q7_SCHEMA_H

#include "op.h"
#include "support.h"

/* Appends the schema text: "ns::relu(Tensor x, int k) -> Tensor". */
void q7_schema_print(const struct q7_op *op, struct q7_strbuf *out);
/* Parses one schema; on failure returns -1 and sets *err (caller frees). */
int q7_schema_parse(const char *text, struct q7_op *op, char **err);

#endif
