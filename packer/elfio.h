/* packer/elfio: the few libelf habits every packer file shares.
 *
 * Owns: libelf initialisation, error messages in the one format
 * "<file>: <what>: <elf_errmsg>" (into the caller's carrier; the packer
 * prints nothing, its tools do), and the walk over the objects of a file
 * (itself, or an archive's members). */
#ifndef Q7_ELFIO_H
#define Q7_ELFIO_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>

struct q7_err;

/* elf_version() once; false (a message in err) if libelf is unusable. */
bool q7_elf_init(struct q7_err *err);
/* Sets err to "<file>: <what>: <libelf's last error>", or the system's
 * reason when the last q7_elf_write failed for one (a full disk, a file
 * size limit). */
void q7_elf_error(struct q7_err *err, const char *file, const char *what);
/* elf_update(out, ELF_C_WRITE), keeping the system's reason (errno) of a
 * failed write for q7_elf_error. 0 or -1. */
int q7_elf_write(Elf *out);
/* Sets e_shstrndx of a new file, through section 0 when it does not fit
 * (call after its sections exist). 0 or -1 (libelf error). */
int q7_elf_set_shstrndx(Elf *out, size_t ndx);
/* A new section of out holding size bytes of buf (libelf type dtype),
 * its name at offset name in the section name table; NULL (libelf error)
 * on failure. */
Elf_Scn *q7_elf_add_section(Elf *out, GElf_Word name, GElf_Word type, GElf_Xword flags,
                            GElf_Xword align, Elf_Type dtype, void *buf, size_t size);
/* True when the first bytes of buf say ELF ("\177ELF"). */
bool q7_is_elf_magic(const void *buf, size_t n);
/* True when they say thin ar ("!<thin>\n", ar rcT; packer/thin.c). */
bool q7_is_thin_ar_magic(const void *buf, size_t n);

/* Calls fn for path when it is an ELF file, or for each ELF member of an
 * ar archive, thin ones included (what is then "lib.a(member.o)"); other
 * files (linker scripts, ...) are skipped. Stops at fn's first non-zero
 * return. 0, or -1 (fn's failure, its message in err, or a message in err
 * for an unreadable or damaged file). */
typedef int (*q7_elf_object_fn)(Elf *elf, const char *what, void *ctx, struct q7_err *err);
int q7_elf_each_object(const char *path, q7_elf_object_fn fn, void *ctx, struct q7_err *err);
/* The same for the thin archive open on fd: each member read from the
 * file its header names (relative to path's folder); a member that cannot
 * be opened is an error naming it, as the linker's would be. */
int q7_elf_each_thin_member(int fd, const char *path, q7_elf_object_fn fn, void *ctx,
                            struct q7_err *err);

#endif
