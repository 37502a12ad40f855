/* The op record: what q7cc knows about one kernel. Produced by analysis
 * (from C++ via libclang), carried in objects by packer/record, merged at
 * link time, printed as a schema, and turned into wrapper.cpp by codegen.
 *
 * Memory: an op table owns everything it points to; q7_ops_free releases
 * it. Strings are NUL-terminated, never NULL unless stated. */
#ifndef Q7_OP_H
#define Q7_OP_H

#include <stdbool.h>
#include <stddef.h>

#include "q7/kinds.h"
#include "support.h"

/* Parameter and return kinds: enum q7_kind, one row each in the table of
 * <q7/kinds.h>, which the runtime shares. */
struct q7_kind_info {
	const char *torch;   /* TorchScript type: "int" */
	const char *name;    /* the exact kind, the vendor's spelling: "long long" */
	const char *also;    /* another word schema text may use for it, or "" */
	const char *cxx;     /* C++ types, '|'-separated: "at::Tensor|torch::Tensor" */
	const char *mangled; /* a builtin's Itanium letters, or "" */
	unsigned intbits;    /* an integer's width, else 0 */
	bool xt;             /* the vendor runtime marshals it */
	const char *call;    /* "customop_next_longlong" */
	const char *local;   /* the type call returns: "long long" */
};

/* The table's row for k; NULL for INVALID (or anything out of range). */
const struct q7_kind_info *q7_kind_info(enum q7_kind k);
/* The exact kind's name ("long long"); "?" for INVALID. */
const char *q7_kind_name(enum q7_kind k);
/* The TorchScript type ("int"); "?" for INVALID. */
const char *q7_kind_torch(enum q7_kind k);
/* The kind that the n bytes at w name in schema text: an exact name or
 * another word of the table ("long long", "number"), else a TorchScript
 * type (whose exact kind is then the first row of that type: "int" is the
 * C++ int). Whitespace inside w must be single spaces. INVALID if none. */
enum q7_kind q7_kind_of_word(const char *w, size_t n);
/* The kind of the class named qual ("at::Tensor", "c10::Scalar"), else
 * INVALID. */
enum q7_kind q7_kind_of_class(const char *qual);
/* The kind of the builtin C++ type spelled spell ("int", "long", "unsigned
 * int"), for a data model whose long has long_bits; else INVALID. */
enum q7_kind q7_kind_of_builtin(const char *spell, unsigned long_bits);
/* How a declaration spells a parameter of kind k ("const at::Tensor &",
 * "long long") and a result ("at::Tensor"): by the first of its C++ types.
 * A new string (the caller frees it); "" for INVALID. */
char *q7_kind_param_ctype(enum q7_kind k);
char *q7_kind_result_ctype(enum q7_kind k);
/* Appends the kinds' exact names, "Tensor, Scalar, ... <conj> bool"; with
 * xt_only, those the vendor runtime marshals. */
void q7_kinds_list(struct q7_strbuf *out, bool xt_only, const char *conj);

/* The vendor runtime's limits, which analysis enforces on every kernel
 * (so a record over them is a damaged one) and codegen again. */
#define Q7_OP_NAME_MAX 31          /* a kernel's name, in characters */
#define Q7_OP_STACK_MAX 0x400000u  /* MAX_STACK_SIZE, in bytes */
/* q7's runtime lists a library's ops ("name<TAB>schema" lines) into one
 * 1-D uint8 tensor (run/engine.c, LIST_BYTES): the whole list,
 * a byte short of 65,535, or no tool can read it. */
#define Q7_OP_LIST_MAX 65534u

struct q7_param {
	enum q7_kind kind;
	char *name;  /* as written; "" when unnamed */
	char *ctype; /* the C++ type on the target, canonical and fully
	              * qualified, as a forward declaration must spell it so
	              * that it mangles like the definition, e.g.
	              * "const at::Tensor &", "long long", "float" */
};

struct q7_op {
	char *name;      /* the unqualified function name; the op's name */
	char *qualname;  /* qualified C++ name, e.g. "ops::relu" */
	char *ns;        /* the op's namespace in PyTorch (torch.ops.<ns>.<name>):
	                  * the ns of the NEURON_LIBRARY(ns, m) that names it,
	                  * else "" (a link gives it the library's name) */
	char *ret_ctype; /* e.g. "at::Tensor" */
	enum q7_kind ret;
	char *ret_name;  /* "" unless a schema named it: "-> (Tensor out)" */
	size_t nparams;
	struct q7_param *params;
	unsigned stack_size; /* bytes; 0 = the runtime default (STACK_SIZE) */
	bool defined;        /* a definition was seen (else a declaration) */
	/* Where it is: the definition when seen, else the marked declaration. */
	char *file;
	unsigned line, col;
	/* A NEURON_LIBRARY request: an m.def(op, &shape, "fn") of this TU
	 * names fn, which the TU neither defines nor declares. Set are only
	 * name (as written, maybe qualified), file/line/col (of "fn") and,
	 * when the TU has the shape function, params[].name (its parameter
	 * names; kinds INVALID, ctypes ""). The link derives the op from the
	 * defining object's symbol (q7_ops_resolve). */
	bool by_name_only;
	/* The object (or "lib.a(member.o)") whose record held it, for
	 * messages; NULL when it comes from analysis. Not recorded. */
	char *from;
};

/* One m.def(op, shape, "fn") inside NEURON_LIBRARY(ns, m) { } of a TU's
 * own files, read from its tokens: what --q7-print-schema reports
 * (docs/driver.md). Not recorded in objects (model/opcodec.h). */
struct q7_neuron_def {
	char *ns;    /* NEURON_LIBRARY's first argument */
	char *op;    /* m.def's first argument, a string literal's text, else "" */
	char *fn;    /* the compute function: the third argument's text */
	char *shape; /* the second argument when a function's name ("&ns::f"
	              * gives "ns::f"), else "" (a lambda, an expression) */
	char *file;
	unsigned line, col; /* of the m.def (its "m") */
	/* Where the shape function is defined, when the block's file has its
	 * definition ("Tensor f(...) {"), else "" and 0. */
	char *shape_file;
	unsigned shape_line;
};

struct q7_op_table {
	size_t n, cap;
	struct q7_op *ops;
	/* The TU's NEURON_LIBRARY m.defs naming a compute function, in
	 * source order: only analysis fills them. */
	size_t ndefs, defs_cap;
	struct q7_neuron_def *defs;
};

/* Appends a zeroed op and returns it; the table owns it. */
struct q7_op *q7_ops_add(struct q7_op_table *t);
/* Appends a deep copy of op. */
void q7_ops_add_copy(struct q7_op_table *t, const struct q7_op *op);
void q7_op_clear(struct q7_op *op);
/* Appends a deep copy of def to t->defs. */
void q7_ops_add_def(struct q7_op_table *t, const struct q7_neuron_def *def);
void q7_ops_free(struct q7_op_table *t);

#endif
