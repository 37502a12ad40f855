/* elf_syms.h: an ELF file's functions by address, names demangled (the
 * C++ runtime's __cxa_demangle, loaded on first use: a profile shows calls_helper, not
 * _Z12calls_helperRKN2at6TensorEx) and cut at their parameter list, so
 * that a kernel reads as it is written. */
#include "elf_syms.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

/* libstdc++'s demangler (C linkage in the Itanium C++ ABI), loaded when
 * a name needs it: linking libstdc++ cost every q7cc process about
 * 0.5 ms at start (measured with perf stat on an empty C program), for
 * the profiles alone. NULL without libstdc++: names stay mangled. */
typedef char *demangle_fn(const char *mangled, char *buf, size_t *len, int *status);

static demangle_fn *demangler(void)
{
	static demangle_fn *fn;
	static bool tried;
	if (!tried) {
		tried = true;
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (h)
			*(void **)&fn = dlsym(h, "__cxa_demangle");
	}
	return fn;
}

/* "f(int) const" -> "f"; "ns::g<int>(x)" -> "ns::g<int>"; GCC's clone
 * suffixes (".isra.0", "$constprop$0") dropped before demangling. */
static char *readable_name(const char *raw)
{
	char *base = q7_xstrdup(raw);
	char *clone = strpbrk(base + 1, ".$");
	if (clone && base[0] == '_' && base[1] == 'Z')
		*clone = 0;
	int status = -1;
	demangle_fn *demangle = base[0] == '_' && base[1] == 'Z' ? demangler() : NULL;
	char *d = demangle ? demangle(base, NULL, NULL, &status) : NULL;
	if (!d || status != 0) {
		free(d);
		return base;
	}
	free(base);
	/* The outermost parameter list: the last ')' and its '('. */
	size_t n = strlen(d);
	if (n > 6 && strcmp(d + n - 6, " const") == 0)
		d[n -= 6] = 0;
	if (n && d[n - 1] == ')') {
		int depth = 0;
		for (size_t i = n; i-- > 0;) {
			if (d[i] == ')')
				depth++;
			else if (d[i] == '(' && --depth == 0) {
				if (i > 0)
					d[i] = 0;
				break;
			}
		}
	}
	return d;
}

static int by_addr(const void *a, const void *b)
{
	const struct q7_sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size; /* sized before unsized */
}

int q7_syms_load(const char *path, uint32_t delta, struct q7_syms *out, struct q7_err *err)
{
	memset(out, 0, sizeof *out);
	elf_version(EV_CURRENT);
	const char *why = NULL;
	int fd = q7_open_regular(path, &why);
	if (fd < 0) {
		q7_err_set(err, path, "cannot read its symbols: %s", why);
		return -1;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	Elf_Scn *symtab = NULL;
	GElf_Shdr sh;
	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symtab = scn;
	int rc = -1;
	if (!symtab) {
		q7_err_set(err, path, "%s",
		           elf ? "no symbol table (a stripped image: profile the image q7cc linked, "
		                 "not its .stripped or .packed copy)"
		               : elf_errmsg(-1));
		rc = elf ? Q7_SYMS_NONE : -1;
		goto out;
	}
	gelf_getshdr(symtab, &sh);
	/* The table as the file holds it, before anything is sized by it: an
	 * sh_size of 0xfffffff0 (or an sh_entsize of 1) in a 436-byte image
	 * asked for gigabytes and ended in "out of memory", naming no file. */
	size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *d = elf_getdata(symtab, NULL);
	if (!ent || sh.sh_entsize != ent || sh.sh_size % ent != 0 || !d || d->d_size != sh.sh_size) {
		q7_err_set(err, path, "damaged symbol table (.symtab of %llu bytes in entries of "
		           "%llu, at offset %llu: %s)", (unsigned long long)sh.sh_size,
		           (unsigned long long)sh.sh_entsize, (unsigned long long)sh.sh_offset,
		           !d ? elf_errmsg(-1) : "not whole symbols");
		goto out;
	}
	size_t count = sh.sh_size / ent;
	struct q7_strbuf names = {0};
	size_t *offs = q7_xcalloc(count ? count : 1, sizeof *offs);
	out->v = q7_xcalloc(count ? count : 1, sizeof *out->v);
	for (size_t i = 0; d && i < count; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		int type = GELF_ST_TYPE(s.st_info);
		if (type != STT_FUNC && type != STT_NOTYPE)
			continue;
		const char *raw = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!raw || !*raw || raw[0] == '.' || (raw[0] == '$' ) || strncmp(raw, "_text_", 6) == 0)
			continue;
		if (type == STT_NOTYPE) { /* labels in code only */
			GElf_Shdr ts;
			Elf_Scn *t = elf_getscn(elf, s.st_shndx);
			if (!t || !gelf_getshdr(t, &ts) || !(ts.sh_flags & SHF_EXECINSTR))
				continue;
		}
		char *name = readable_name(raw);
		offs[out->n] = names.len;
		q7_sb_add(&names, name);
		q7_sb_addc(&names, 0);
		free(name);
		out->v[out->n].addr = (uint32_t)s.st_value + delta;
		out->v[out->n].size = (uint32_t)s.st_size;
		out->n++;
	}
	out->names = q7_sb_take(&names);
	for (size_t i = 0; i < out->n; i++)
		out->v[i].name = out->names + offs[i];
	free(offs);
	qsort(out->v, out->n, sizeof *out->v, by_addr);
	rc = 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

const struct q7_sym *q7_syms_find(const struct q7_syms *s, uint32_t addr)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) { /* the first symbol above addr */
		size_t mid = (lo + hi) / 2;
		if (s->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Walk down over zero-sized labels to a sized symbol that holds addr;
	 * the nearest label when none does. */
	const struct q7_sym *label = NULL;
	for (size_t i = lo; i-- > 0;) {
		const struct q7_sym *y = &s->v[i];
		if (y->size && addr - y->addr < y->size)
			return y;
		if (!y->size && !label)
			label = y;
		if (addr - y->addr > 0x10000u)
			break;
	}
	return label;
}

void q7_syms_free(struct q7_syms *s)
{
	free(s->v);
	free(s->names);
	memset(s, 0, sizeof *s);
}
