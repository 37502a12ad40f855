/* model/cxx: the C++ text an op record may hold, as an allow-list, and
 * the symbol that text names.
 *
 * Records travel in objects that anyone can craft, and codegen pastes
 * their names and types into wrapper.cpp; so what a record may say is
 * exactly what analysis (and the link-time demangler) write, nothing more
 * (docs/packer.md, "What a record may say").
 *
 * Memory: returned strings are the caller's. */
#ifndef Q7_CXX_H
#define Q7_CXX_H

#include <stdbool.h>
#include <stddef.h>

#include "op.h"

/* True when the n bytes at s are an identifier. */
bool q7_cxx_ident(const char *s, size_t n);
/* True when s is a qualname (an identifier, or several joined by "::"). */
bool q7_cxx_qualname(const char *s);
/* The last component of a qualname ("ops::relu" -> "relu"), in q. */
const char *q7_cxx_unqualified(const char *q);
/* True when ctype spells a parameter of kind k. long_bits: the width of
 * long in the object (32, 64), or 0 when unknown (either). */
bool q7_cxx_param_type(enum q7_kind k, const char *ctype, unsigned long_bits);
/* True when ctype spells a kernel's result. */
bool q7_cxx_result_type(const char *ctype);

/* The Itanium C++ ABI symbol of the function op->qualname (else op->name)
 * taking op's parameter types: "_ZN3ops4reluERKN2at6TensorEx". NULL when
 * the name or a type is outside the allow-list. */
char *q7_cxx_symbol(const struct q7_op *op);

/* Text from a record as a message may show it: printable ASCII as is,
 * '\\' and every other byte as \\xNN, at most 80 characters (then "..."). */
char *q7_cxx_quote(const char *s);

#endif
