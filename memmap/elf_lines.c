/* elf_lines.h through elfutils' libdw (its line table reader, which
 * knows every DWARF version GCC writes, rather than one of our own).
 * libdw is loaded at the first lookup, as elf_syms.c loads the C++
 * demangler: a line is asked for only when a kernel stops on the emulated
 * core, and linking libdw (with the compression libraries it pulls in)
 * would cost every q7cc start, which is once per compile. The file is
 * read through q7_open_regular (docs/robustness.md, "Special files"). */
#include "elf_lines.h"

#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

/* The libdw functions used, from libdw.so.1. */
struct dw {
	__typeof__(dwarf_begin) *begin;
	__typeof__(dwarf_end) *end;
	__typeof__(dwarf_addrdie) *addrdie;
	__typeof__(dwarf_getsrc_die) *getsrc_die;
	__typeof__(dwarf_linesrc) *linesrc;
	__typeof__(dwarf_lineno) *lineno;
};

/* NULL when libdw.so.1 or one of its functions is missing. */
static const struct dw *libdw(void)
{
	static struct dw dw;
	static bool tried, found;
	if (tried)
		return found ? &dw : NULL;
	tried = true;
	void *h = dlopen("libdw.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (!h)
		return NULL;
	*(void **)&dw.begin = dlsym(h, "dwarf_begin");
	*(void **)&dw.end = dlsym(h, "dwarf_end");
	*(void **)&dw.addrdie = dlsym(h, "dwarf_addrdie");
	*(void **)&dw.getsrc_die = dlsym(h, "dwarf_getsrc_die");
	*(void **)&dw.linesrc = dlsym(h, "dwarf_linesrc");
	*(void **)&dw.lineno = dlsym(h, "dwarf_lineno");
	found = dw.begin && dw.end && dw.addrdie && dw.getsrc_die && dw.linesrc && dw.lineno;
	return found ? &dw : NULL;
}

int q7_lines_find(const char *path, uint64_t addr, char *buf, size_t size)
{
	const struct dw *dw = libdw();
	const char *why;
	int rc = -1;
	if (!dw || size == 0)
		return -1;
	int fd = q7_open_regular(path, &why);
	if (fd < 0)
		return -1;
	Dwarf *dbg = dw->begin(fd, DWARF_C_READ);
	Dwarf_Die cu;
	Dwarf_Line *line = dbg && dw->addrdie(dbg, addr, &cu) ? dw->getsrc_die(&cu, addr) : NULL;
	const char *file = line ? dw->linesrc(line, NULL, NULL) : NULL;
	int lineno = 0;
	if (file && dw->lineno(line, &lineno) == 0 && lineno > 0) {
		snprintf(buf, size, "%s:%d", file, lineno);
		rc = 0;
	}
	if (dbg)
		dw->end(dbg);
	close(fd);
	return rc;
}
