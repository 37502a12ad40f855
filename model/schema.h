/* model/schema: the schema text of an op, printed and parsed.
 *
 * Memory: the parser fills an op the caller then owns (q7_op_clear). */
#ifndef Q7_SCHEMA_H
#define Q7_SCHEMA_H

#include "op.h"
#include "support.h"

/* Appends the op's TorchScript schema, "my_ops::relu(Tensor x, int k) ->
 * Tensor", under its own namespace (op->ns), else under ns (NULL or "":
 * none; e.g. the library's name). The C++ qualified name is not part of
 * it (codegen takes op->qualname). */
void q7_schema_print(const struct q7_op *op, const char *ns, struct q7_strbuf *out);
/* The namespace a library's ops take from its file name ("dir/libmy_ops.so"
 * -> "my_ops", as custom_op.load(name) names lib<name>.so), or NULL when
 * that is no identifier. The caller frees it. */
char *q7_library_namespace(const char *path);
/* Parses one schema in TorchScript or the vendor's grammar (schema.c); on
 * failure returns -1 and sets err (it quotes the text: pass a growing
 * carrier) and, when err_col is not NULL, *err_col to the 1-based column
 * of the error. */
int q7_schema_parse(const char *text, struct q7_op *op, struct q7_err *err, unsigned *err_col);

#endif
