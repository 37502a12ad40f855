/* model/fsym: the functions that the objects of a link define, as read
 * from their symbol tables (packer/symbols.c); analysis derives the ops
 * of kernels that no record describes from them (q7_ops_resolve).
 *
 * Memory: a list owns its strings; q7_fsyms_free releases them. */
#ifndef Q7_FSYM_H
#define Q7_FSYM_H

#include <stdbool.h>
#include <stddef.h>

/* A function that an object of the link defines. */
struct q7_fsym {
	char *name;  /* as in the symbol table: "_Z12relu_forwardRKN2at6TensorE" */
	char *where; /* "relu.o", "libk.a(relu.o)" */
	bool local;  /* STB_LOCAL: static, or in an unnamed namespace */
	bool weak;   /* STB_WEAK: inline, or a template instance */
	bool lp64;   /* the object is ELFCLASS64: long is 64-bit */
};
struct q7_fsyms {
	size_t n, cap;
	struct q7_fsym *v;
};
/* Appends a copy of name and where. */
void q7_fsyms_add(struct q7_fsyms *s, const char *name, const char *where, bool local, bool weak,
                  bool lp64);
void q7_fsyms_free(struct q7_fsyms *s);

#endif
