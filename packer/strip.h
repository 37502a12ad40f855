/* packer/strip: which sections of an image survive, where they go, and
 * writing the stripped image.
 *
 * Owns: strip's section rules, then the vendor's list, and a file layout
 * that follows what BFD's objcopy gives for the same removals
 * (docs/packer.md, "What the stripped image is"). */
#ifndef Q7_STRIP_H
#define Q7_STRIP_H

#include "image.h"

#include <stdbool.h>
#include <stddef.h>

struct q7_strip_plan {
	size_t nkeep;   /* kept input sections, in output order (no shstrtab) */
	size_t *keep;   /* their input indices */
	size_t *newidx; /* per input index: output index, 0 = dropped */
	GElf_Off *off;  /* per input index: output file offset */
	GElf_Word *name; /* per input index: output name offset */
	GElf_Phdr *ph;  /* the output program headers (image's phnum) */
	char *shstr;    /* the new section name table */
	GElf_Word shstr_name; /* .shstrtab's own name: its offset in shstr */
	size_t shstr_len;
	GElf_Off shstr_off, shoff;
	size_t shnum; /* output sections including 0 and .shstrtab */
	size_t total; /* output file size */
};

/* pagesize 0 lays segments out as objcopy does; else each PT_LOAD starts
 * at a file offset congruent to its address modulo pagesize. symlookup
 * keeps .hash .dynstr .dynsym .rela.plt. */
void q7_strip_plan(const struct q7_image *im, unsigned long pagesize, bool symlookup,
                   struct q7_strip_plan *p);
void q7_strip_plan_free(struct q7_strip_plan *p);
/* Names of the dropped sections, for -v. Caller frees. */
char *q7_strip_dropped(const struct q7_image *im, const struct q7_strip_plan *p);
struct q7_bind;
/* Writes the stripped image to fd (positioned at 0, empty), with the
 * words and relocations b binds (packer/bind.h; NULL for none) patched in
 * as the sections are copied. 0, or -1 with "<outname>: ..." in err. */
int q7_strip_write(const struct q7_image *im, const struct q7_strip_plan *p,
                   const struct q7_bind *b, int fd, const char *outname, struct q7_err *err);

#endif
