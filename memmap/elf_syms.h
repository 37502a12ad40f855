/* The function symbols of an Xtensa ELF file (a linked image or the boot
 * program), for naming the frames of an instruction profile: each symbol
 * moved by a delta (where the prelinker placed the image minus where it
 * was linked), looked up by address.
 *
 * Memory: a q7_syms owns its names; q7_syms_free releases them. */
#ifndef Q7_ELF_SYMS_H
#define Q7_ELF_SYMS_H

#include <stddef.h>
#include <stdint.h>

struct q7_err;

struct q7_sym {
	uint32_t addr, size;
	const char *name; /* demangled, without its parameter list */
};

struct q7_syms {
	struct q7_sym *v; /* sorted by addr */
	size_t n;
	char *names;      /* all names, one after another */
};

/* Reads path's .symtab functions (FUNC, and NOTYPE symbols in executable
 * sections: hand-written assembly), each at addr + delta. 0; -1 with err
 * naming the file and the reason (unreadable, not a regular file, not ELF,
 * a damaged table); Q7_SYMS_NONE with err set for an ELF file without a
 * symbol table (a stripped image). */
#define Q7_SYMS_NONE (-2)
int q7_syms_load(const char *path, uint32_t delta, struct q7_syms *out, struct q7_err *err);
/* The symbol whose range holds addr (or the closest one below it when
 * sizes are 0), or NULL. */
const struct q7_sym *q7_syms_find(const struct q7_syms *s, uint32_t addr);
void q7_syms_free(struct q7_syms *s);

#endif
