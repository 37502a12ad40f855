/* <q7/kinds.h>: the one table of the parameter kinds a kernel may take.
 *
 * q7cc's tools (analysis, the demangler, codegen, the schema text) and the
 * open runtime all expand this table, so a new kind is one row here. Plain
 * C with no includes: the runtime shares it without any tool header. A
 * user defines X(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL,
 * LOCAL, ARGS) and expands Q7_KINDS(X); the columns are:
 *
 *   NAME     the enumerator Q7_KIND_<NAME>. Its value is the row's number
 *            (INVALID is 0): object records and the analysis server store
 *            it, so rows are only ever appended.
 *   TS       the TorchScript type: what every printed schema shows.
 *   VENDOR   the vendor's schema spelling: the exact kind's name.
 *   ALSO     another word that names it when schema text is read ("").
 *   CXX      the C++ types analysis takes for it (canonical spellings,
 *            '|'-separated): classes, by value or const&, or one builtin
 *            type, by value or const&.
 *   MANGLED  the builtin's Itanium ABI letters ("" for a class kind).
 *   INTBITS  an integer kind's width; a C++ long of that width (32 on
 *            ILP32, 64 on LP64) passes as this kind. 0: not an integer.
 *   XT       1 when the vendor runtime (the xt profile) marshals it too.
 *   CALL     the marshalling call of <neuron/wrapper_api.h>, a token.
 *   LOCAL    the C++ type CALL returns, the wrapper's local, as tokens.
 *   ARGS     the frame argument kinds (Q7_ARG_* of <q7/frame.h>) a loader
 *            may pass for it, as Q7_KIND_ARG bits. */
#ifndef Q7_KINDS_H
#define Q7_KINDS_H

#define Q7_KIND_ARG(a) (1u << Q7_ARG_##a)

/* clang-format off */
#define Q7_KINDS(X) \
	X(TENSOR,   "Tensor", "Tensor",    "",        "at::Tensor|torch::Tensor",             "",  0,  1, customop_next_tensor,   at::Tensor, Q7_KIND_ARG(TENSOR)) \
	X(SCALAR,   "Scalar", "Scalar",    "number",  "at::Scalar|c10::Scalar|torch::Scalar", "",  0,  1, customop_next_scalar,   at::Scalar, Q7_KIND_ARG(INT) | Q7_KIND_ARG(FLOAT) | Q7_KIND_ARG(BOOL)) \
	X(INT,      "int",    "int",       "",        "int",                                  "i", 32, 1, customop_next_int,      int,        Q7_KIND_ARG(INT)) \
	X(LONGLONG, "int",    "long long", "int64_t", "long long",                            "x", 64, 1, customop_next_longlong, long long,  Q7_KIND_ARG(INT)) \
	X(FLOAT,    "float",  "float",     "",        "float",                                "f", 0,  1, customop_next_float,    float,      Q7_KIND_ARG(FLOAT) | Q7_KIND_ARG(INT)) \
	X(DOUBLE,   "float",  "double",    "",        "double",                               "d", 0,  0, customop_next_double,   double,     Q7_KIND_ARG(FLOAT) | Q7_KIND_ARG(INT)) \
	X(BOOL,     "bool",   "bool",      "",        "bool",                                 "b", 0,  0, customop_next_bool,     bool,       Q7_KIND_ARG(BOOL) | Q7_KIND_ARG(INT))
/* clang-format on */

/* Q7_KIND_INVALID is what a kernel cannot take; Q7_KIND_END is one past
 * the last row. */
#define Q7_KIND_ENUM_(NAME, ...) Q7_KIND_##NAME,
enum q7_kind { Q7_KIND_INVALID = 0, Q7_KINDS(Q7_KIND_ENUM_) Q7_KIND_END };
#undef Q7_KIND_ENUM_

#endif
