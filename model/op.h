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

/* Parameter and return kinds. The vendor runtime ABI has TENSOR, SCALAR,
 * INT, FLOAT and LONGLONG; the open runtime adds DOUBLE and BOOL. */
enum q7_kind {
	Q7_KIND_INVALID = 0, /* unsupported: see q7_param.ctype for what it was */
	Q7_KIND_TENSOR,      /* at::Tensor, by value or const& */
	Q7_KIND_SCALAR,      /* at::Scalar, by value or const& */
	Q7_KIND_INT,         /* int (32-bit) */
	Q7_KIND_LONGLONG,    /* long long / int64_t (64-bit) */
	Q7_KIND_FLOAT,       /* float */
	Q7_KIND_DOUBLE,      /* double */
	Q7_KIND_BOOL,        /* bool */
};

/* Schema spelling of a kind: "Tensor", "Scalar", "int", "long long",
 * "float", "double", "bool"; "?" for INVALID. */
const char *q7_kind_name(enum q7_kind k);

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
};

struct q7_op_table {
	size_t n, cap;
	struct q7_op *ops;
};

/* Appends a zeroed op and returns it; the table owns it. */
struct q7_op *q7_ops_add(struct q7_op_table *t);
/* Appends a deep copy of op. */
void q7_ops_add_copy(struct q7_op_table *t, const struct q7_op *op);
void q7_op_clear(struct q7_op *op);
void q7_ops_free(struct q7_op_table *t);

#endif
