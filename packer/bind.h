/* packer/bind: the dynamic relocations that name a symbol, bound at pack
 * time when the packer drops the symbol lookup (no -l).
 *
 * Owns: deciding, for an Xtensa ELF32 image, what each relocation that
 * needs .dynsym becomes once .hash .dynstr .dynsym .rela.plt are gone
 * (docs/packer.md, "Binding without -l"), and the few words and RELA
 * entries that change. Planning reads and checks the image; strip's one
 * write pass applies the patches to the bytes as it copies them. */
#ifndef Q7_BIND_H
#define Q7_BIND_H

#include "image.h"
#include "strip.h"

#include <stdbool.h>
#include <stddef.h>

/* Bytes that replace part of one input section, already in the image's
 * byte order. */
struct q7_patch {
	size_t sec;              /* input section index */
	size_t off;              /* byte offset inside it */
	size_t len;              /* 4 (a word) or 12 (a RELA entry) */
	unsigned char bytes[12];
};

struct q7_bind {
	bool active;             /* an Xtensa ELF32 image: binding applied */
	struct q7_patch *patch;  /* applied in order: a later one wins */
	size_t npatch, cap;
	/* Relocations bound, by how: undefined weak (word 0 + addend), defined
	 * (became RELATIVE), absolute (word = value + addend), RTLD (NONE). */
	size_t weak, defined, absolute, rtld;
};

/* Plans the binding of every dynamic relocation that names a symbol, for
 * an image whose symbol lookup p drops. Other machines and classes get an
 * inactive, empty b. 0, or -1 with "<file>: <reason>" in err (b is then
 * freed). */
int q7_bind_plan(const struct q7_image *im, const struct q7_strip_plan *p, struct q7_bind *b,
                 struct q7_err *err);
void q7_bind_free(struct q7_bind *b);
/* What was bound, in one line for -v; NULL when b is inactive. Caller
 * frees. */
char *q7_bind_summary(const struct q7_bind *b);
/* A copy of section i's bytes with b's patches applied, or NULL when b
 * (which may be NULL) patches nothing in i. Caller frees. */
unsigned char *q7_bind_patched(const struct q7_bind *b, const struct q7_image *im, size_t i);

#endif
