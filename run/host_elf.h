/* run/host_elf: a host kernel library checked before dlopen.
 *
 * The dynamic loader trusts what it maps: a damaged program header, a
 * dynamic entry pointing outside the file, a hash table with no buckets
 * or a relocation aimed outside the image makes it fault (or fail one of
 * its assertions) inside dlopen, which no caller can turn into a message.
 * This check reads what the loader reads, in the order it reads it, and
 * refuses anything it could not load safely, naming the file. What it
 * cannot judge is the code itself (constructors, IFUNC resolvers): the
 * isolated host mode loads in a child process for that (host_iso.c). */
#ifndef Q7_RUN_HOST_ELF_H
#define Q7_RUN_HOST_ELF_H

#include <stddef.h>

/* Checks path as a shared library the loader of this host can load: the
 * ELF header (class, byte order, machine, type), the program headers
 * (segments inside the file, in order, aligned), and what the dynamic
 * section names (string and symbol tables, hash tables, relocations and
 * their targets, version records, initialisers). 0, or -1 with "<path>:
 * damaged host library: <what>" (or "cannot read") in err. */
int q7_host_elf_check(const char *path, char *err, size_t n);

#endif
