/* codegen: op table -> wrapper.cpp, the dispatch wrapper the runtime calls.
 *
 * Owns: the text of wrapper.cpp (docs/vendor-flow.md, "Codegen"; codegen.c
 * says where q7cc's differs). Deterministic: the same table gives the same
 * bytes. */
#ifndef Q7_CODEGEN_H
#define Q7_CODEGEN_H

#include "op.h"
#include "support.h"

/* Appends wrapper.cpp for ops, in table order, to out. Returns 0, or -1
 * after printing why (e.g. an op that cannot be marshalled). */
int q7_codegen_dispatch(const struct q7_op_table *ops, struct q7_strbuf *out);

/* Appends the symbols of the open runtime that the dispatch wrapper of ops calls
 * (mangled as on the device: ILP32), so that a link can pull them in
 * before wrapper.o exists (the split 8-core link, wrapper/ldsplit.h). A
 * link that uses the list checks it against wrapper.o's own undefined
 * symbols. */
void q7_codegen_runtime_refs(const struct q7_op_table *ops, struct q7_strvec *syms);

#endif
