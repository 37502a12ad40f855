/* analysis/mangle: Itanium C++ ABI function names -> what a kernel needs:
 * the symbol of a kernel defined in an object without q7cc records (a
 * NEURON_LIBRARY compute function) read into its parameter kinds and the
 * C++ spellings a forward declaration needs to mangle the same way.
 * Return types are not in a plain function's symbol; parameter names are
 * never there. */
#ifndef Q7_MANGLE_H
#define Q7_MANGLE_H

#include <stdbool.h>
#include <stddef.h>

#include "op.h"

/* What the symbol names, when not a plain free function. */
enum q7_mfunc_what {
	Q7_MF_FREE = 0,  /* a free function at namespace scope */
	Q7_MF_MEMBER,    /* a member function (cv/ref-qualified, ctor, dtor, conversion) */
	Q7_MF_TEMPLATE,  /* a function template specialisation */
	Q7_MF_INTERNAL,  /* internal linkage: _ZL, or in an unnamed namespace */
	Q7_MF_LOCAL,     /* an entity local to a function (Z..E) */
	Q7_MF_OPERATOR,  /* an operator function */
};

struct q7_mparam {
	enum q7_kind kind; /* INVALID when a kernel cannot take it */
	char *ctype;       /* the forward-declaration spelling ("const at::Tensor &",
	                    * "long long"), or the type's spelling when INVALID */
	const char *why;   /* INVALID: what it is ("a pointer", ...) */
};

struct q7_mfunc {
	char *qualname; /* "ops::relu" */
	char *name;     /* "relu" */
	enum q7_mfunc_what what;
	bool variadic;
	size_t nparams;
	struct q7_mparam *params;
};

/* Demangles sym ("_Z12relu_forwardRKN2at6TensorE"). lp64: the object's
 * data model (long is 64-bit: "long" passes as long long, else as int).
 * 0 and *f filled (free it with q7_mfunc_free), or -1 with *why saying
 * what could not be read (not a C++ function name, a clone suffix, a
 * construct q7cc does not read). */
int q7_demangle(const char *sym, bool lp64, struct q7_mfunc *f, const char **why);
void q7_mfunc_free(struct q7_mfunc *f);

/* The kind of a class named qual ("at::Tensor" -> TENSOR, "c10::Scalar"
 * -> SCALAR, else INVALID), and for INVALID what it is ("a container"). */
enum q7_kind q7_class_kind(const char *qual, const char **why);

#endif
