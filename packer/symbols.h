/* packer/symbols: the function symbols that the objects of a link define,
 * the symbols an object leaves undefined, and the bytes of data it holds.
 *
 * Owns reading them (libelf) from objects and archive members, for the
 * kernels that a NEURON_LIBRARY shape file names but whose objects carry
 * no records: analysis derives those ops from the symbols (q7_ops_resolve),
 * so the schema still travels inside the objects, never beside them. */
#ifndef Q7_SYMBOLS_H
#define Q7_SYMBOLS_H

#include <libelf.h>
#include <stdint.h>

#include "fsym.h"
#include "support.h"

/* Appends to out the functions that path (an ELF object, or each ELF
 * member of an ar archive) defines and whose symbol may name one of names
 * (unqualified C++ names): the mangled form holds "<length><name>", or
 * the symbol is the bare name (C linkage). names NULL: every function (a
 * link without kernels looks among them for ones that look like kernels,
 * q7_kernel_lookalikes). Other files add nothing. 0, or -1 with why in
 * err. */
int q7_symbols_read(const char *path, const struct q7_strvec *names, struct q7_fsyms *out,
                    struct q7_err *err);

/* The global names of path in one read: the strong (global, not weak)
 * undefined ones, what a link of that object alone cannot resolve, into
 * undefined, the global and weak defined ones into defined (either may
 * be NULL). 0, or -1 with why in err. */
int q7_symbols_globals(const char *path, struct q7_strvec *undefined, struct q7_strvec *defined,
                       struct q7_err *err);

/* Adds to *bytes the data of path when it is an object (not an archive,
 * whose members a link may leave out): its allocated sections that are
 * not code (.data, .rodata, .bss, ...), which are about as large on every
 * target. 0, or -1 with err set. */
int q7_symbols_data_bytes(const char *path, uint64_t *bytes, struct q7_err *err);

/* The same for one ELF object (a file or an archive member) already
 * open: its global and weak defined names into defined. 0, or -1 with
 * why in err. */
int q7_symbols_defined_in(Elf *elf, const char *what, struct q7_strvec *defined,
                          struct q7_err *err);

#endif
