/* packer/image: a linked image opened read-only and checked before use.
 *
 * Owns: every bounds and sanity check on an input image, so that strip and
 * pack only ever see headers whose offsets and sizes fit the file, sections
 * that do not overlap, and names that are NUL-terminated. Damaged input is
 * refused here with one message naming the file and the reason. */
#ifndef Q7_IMAGE_H
#define Q7_IMAGE_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

struct q7_err;

/* Alignments above this are damage, not layout: a section aligned to 4 GiB
 * would make the stripped image 4 GiB of zeros. */
#define Q7_IMAGE_MAX_ALIGN (16ul << 20)

struct q7_isec {
	GElf_Shdr sh;
	const char *name; /* into the image's section name table */
	int load;         /* index of the PT_LOAD segment holding it, or -1 */
};

struct q7_image {
	const char *path; /* for messages; not owned */
	int fd;           /* -1 for an image in memory */
	Elf *elf;
	const unsigned char *base; /* the whole file */
	size_t size;
	GElf_Ehdr eh;
	int cls; /* ELFCLASS32 or ELFCLASS64 */
	size_t shnum, shstrndx, phnum;
	struct q7_isec *sec; /* shnum entries */
	GElf_Phdr *ph;       /* phnum entries */
	char why[160];       /* a check's reason, when it names a section */
};

/* Opens and checks path. 0, or -1 with "<path>: <reason>" in err; im is
 * then already closed. */
int q7_image_open(struct q7_image *im, const char *path, struct q7_err *err);
/* The same on bytes in memory (fuzzing); buf must outlive im. */
int q7_image_open_memory(struct q7_image *im, const void *buf, size_t n, const char *what,
                         struct q7_err *err);
void q7_image_close(struct q7_image *im);

/* Whether allocated section sh lies in segment p: its addresses, and
 * with file its file bytes too (NOBITS has none). */
bool q7_image_in_segment(const GElf_Shdr *sh, const GElf_Phdr *p, bool file);
/* The raw file bytes of section i (NULL for NOBITS or empty). */
const unsigned char *q7_image_bytes(const struct q7_image *im, size_t i);

#endif
