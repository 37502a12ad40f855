/* The source line of an address in an ELF file linked with -g, from its
 * DWARF line table (.debug_line), for naming where a kernel stopped on
 * the emulated core (run/emu_session.c). */
#ifndef Q7_ELF_LINES_H
#define Q7_ELF_LINES_H

#include <stddef.h>
#include <stdint.h>

/* "file:line" of the instruction at addr (path's own, link-time address)
 * in buf: 0. -1 when there is none: path unreadable or not a regular
 * file, no line table (linked without -g) or no line for addr, or no
 * libdw installed (Debian's libdw1). */
int q7_lines_find(const char *path, uint64_t addr, char *buf, size_t size);

#endif
