/* prelink's internal interface between its files. */
#ifndef Q7_PRELINK_INT_H
#define Q7_PRELINK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "prelink.h"
#include "support.h"

/* The image inside a packed object: its offset and size in file. 0, or 1
 * with err set. */
int q7_pl_extract(const unsigned char *file, size_t size, const char *name,
                  const char *symbol, size_t *img_off, size_t *img_size, struct q7_err *err);

/* A linked image being prelinked (prelink.c). */
struct q7_pl_img;

/* The image's file bytes at link address va, n bytes long (a size
 * computed from counts in the image, so possibly past 32 bits), all
 * inside one PT_LOAD, or NULL. */
const unsigned char *q7_pl_at_vaddr(const struct q7_pl_img *im, uint32_t va, uint64_t n);

/* dynsym.c: the image's dynamic symbol table. */

/* Where the dynamic section puts it; tags has bit t set for each tag
 * t < 32 the section holds. */
struct q7_pl_dynsym_loc {
	uint32_t tags, symtab, syment, strtab, strsz, hash;
};

struct q7_pl_symtab {
	const unsigned char *syms; /* nsyms entries (DT_HASH's nchain) */
	const unsigned char *str;  /* strsz bytes of names */
	uint32_t nsyms, strsz;
};

struct q7_pl_sym {
	const char *name; /* ends inside the string table */
	uint32_t value, shndx;
	unsigned bind, type;
};

/* Finds the table from loc and checks that it, its names and DT_HASH lie
 * inside im's file bytes. 0, or 1 with "<name>: <reason>" in err. */
int q7_pl_symtab_read(const struct q7_pl_img *im, const char *name,
                      const struct q7_pl_dynsym_loc *loc, struct q7_pl_symtab *st,
                      struct q7_err *err);
/* Symbol i of st. 0, or 1 with err set. */
int q7_pl_sym_get(const struct q7_pl_symtab *st, const char *name, uint32_t i,
                  struct q7_pl_sym *s, struct q7_err *err);

#endif
