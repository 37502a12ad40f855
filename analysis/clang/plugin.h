/* The libclang plugin's internals: parsing (front.c), finding kernels and
 * their lint (kernels.c), C++ type -> kind (types.c), and names from
 * NEURON_LIBRARY blocks (neuron.c). */
#ifndef Q7_CLANG_PLUGIN_H
#define Q7_CLANG_PLUGIN_H

#include <clang-c/Index.h>

#include "analysis.h"
#include "internal.h"

/* A place in the user's source: where a macro was used, not where it was
 * defined. Its file is a new string, the caller's (q7c_place_free). */
struct q7_kplace q7c_place(CXCursor c);
struct q7_kplace q7c_place_loc(CXSourceLocation loc);
void q7c_place_free(struct q7_kplace *p);

/* A new string with the CXString's text; disposes of the CXString. */
char *q7c_take(CXString s);
/* A struct, class or union, or a class template (partially specialised
 * or not). */
bool q7c_is_class(enum CXCursorKind k);
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
 * for: fn is a compute function (a kernel). The request owns d's strings;
 * d.shape_file is NULL when the block's file does not define the shape. */
struct q7c_request {
	struct q7_neuron_def d; /* as --q7-print-schema reports it (op.h) */
	struct q7_kplace at;    /* of the third argument */
};
struct q7c_requests {
	size_t n, cap;
	struct q7c_request *v;
};
/* The requests of the NEURON_LIBRARY blocks of the TU's own (non-system)
 * files, in source order. */
void q7c_neuron_requests(CXTranslationUnit tu, struct q7c_requests *out);
void q7c_requests_free(struct q7c_requests *r);

/* Finds the kernels of a parsed TU (reqs: its requests), lints them,
 * appends ops and diags. */
void q7c_find_kernels(CXTranslationUnit tu, const struct q7_analysis_opts *o,
                      const struct q7c_requests *reqs, struct q7_op_table *ops,
                      struct q7_diags *diags);

#endif
