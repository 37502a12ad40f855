/* The libclang plugin's internals: parsing (front.c), finding kernels and
 * their lint (kernels.c), C++ type -> kind (types.c), and names from
 * NEURON_LIBRARY blocks (neuron.c). */
#ifndef Q7_CLANG_PLUGIN_H
#define Q7_CLANG_PLUGIN_H

#include <clang-c/Index.h>

#include "analysis.h"
#include "internal.h"

/* A place in the user's source: where a macro was used, not where it was
 * defined. file is owned by the caller (free it). */
struct place {
	char *file;
	unsigned line, col;
};
struct place q7c_place(CXCursor c);
struct place q7c_place_loc(CXSourceLocation loc);
void q7c_place_free(struct place *p);

/* A new string with the CXString's text; disposes of the CXString. */
char *q7c_take(CXString s);
/* "ns::Class::fn": namespaces (inline ones too, as the symbol has them)
 * and classes up to the TU. */
char *q7c_qualname(CXCursor c);

struct q7c_kind {
	enum q7_kind kind; /* INVALID when it cannot be passed */
	char *ctype;       /* forward-declaration spelling, or the type as
	                    * written when INVALID */
	const char *why;   /* INVALID: what it is ("a pointer", ...) */
};
/* Classifies a parameter type (ret=false) or a return type (ret=true). */
void q7c_classify(CXType t, bool ret, struct q7c_kind *k);

/* What one m.def(op, &shape, "fn") inside NEURON_LIBRARY(ns, m) { } asks
 * for: fn is a compute function (a kernel). */
struct q7c_request {
	char *ns;        /* NEURON_LIBRARY's first argument: the namespace */
	char *fn;        /* the third argument's text */
	char *shape;     /* the second argument's function name, or "" */
	char *op;        /* the first argument's text when a string literal, else "" */
	struct place at; /* of the third argument */
	struct place def_at; /* of the m.def (its "m") */
	struct place shape_at; /* the shape function's definition in the
	                        * block's file; file NULL when not found */
};
struct q7c_requests {
	size_t n, cap;
	struct q7c_request *v;
};
/* The requests of the NEURON_LIBRARY blocks of the TU's own (non-system)
 * files, in source order. */
void q7c_neuron_requests(CXTranslationUnit tu, struct q7c_requests *out);
void q7c_requests_free(struct q7c_requests *r);
/* Appends the TU's requests to ops->defs (op.h: q7_neuron_def), for a TU
 * with errors too. */
void q7c_neuron_defs(CXTranslationUnit tu, struct q7_op_table *ops);

/* Finds the kernels of a parsed TU, lints them, appends ops and diags. */
void q7c_find_kernels(CXTranslationUnit tu, const struct q7_analysis_opts *o,
                      struct q7_op_table *ops, struct q7_diags *diags);

#endif
