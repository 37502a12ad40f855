/* packer/symbols: what symbols.h lists, read from objects and archive
 * members. */
#include "elfio.h"
#include "symbols.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

struct want {
	const struct q7_strvec *names;
	char **tags; /* "<length><name>" per name */
	struct q7_fsyms *out;
	const char *file; /* every function (names NULL): the STT_FILE before */
};

static bool wanted(const struct want *w, const char *sym)
{
	if (!w->names)
		return true;
	for (size_t i = 0; i < w->names->n; i++)
		if (strcmp(sym, w->names->v[i]) == 0 ||
		    (sym[0] == '_' && sym[1] == 'Z' && strstr(sym, w->tags[i])))
			return true;
	return false;
}

/* Calls fn for each named symbol of elf's symbol table (none without
 * one). 0, or -1 with a message in err. */
typedef void (*sym_fn)(Elf *elf, const char *what, const GElf_Sym *s, const char *name,
                       void *ctx);
static int each_symbol(Elf *elf, const char *what, sym_fn fn, void *ctx, struct q7_err *err)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			q7_elf_error(err, what, "reading the section headers");
			return -1;
		}
		if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d) {
			q7_elf_error(err, what, "reading the symbol table");
			return -1;
		}
		size_t n = d->d_size / sh.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s))
				break;
			const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && *name)
				fn(elf, what, &s, name, ctx);
		}
		return 0;
	}
	return 0;
}

static void add_wanted(Elf *elf, const char *what, const GElf_Sym *s, const char *name,
                       void *ctx)
{
	struct want *w = ctx;
	unsigned type = GELF_ST_TYPE(s->st_info), bind = GELF_ST_BIND(s->st_info);
	if (type == STT_FILE && !w->names)
		w->file = name;
	if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s->st_shndx == SHN_UNDEF ||
	    s->st_shndx == SHN_COMMON || !wanted(w, name))
		return;
	/* The source's name, as its compiler recorded it, beside the object's. */
	char *where = w->file ? q7_xasprintf("%s (%s)", w->file, what) : q7_xstrdup(what);
	q7_fsyms_add(w->out, name, where, bind == STB_LOCAL, bind == STB_WEAK,
	             gelf_getclass(elf) == ELFCLASS64);
	free(where);
}

static int read_symtab(Elf *elf, const char *what, void *ctx, struct q7_err *err)
{
	((struct want *)ctx)->file = NULL;
	return each_symbol(elf, what, add_wanted, ctx, err);
}

int q7_symbols_read(const char *path, const struct q7_strvec *names, struct q7_fsyms *out,
                    struct q7_err *err)
{
	if (names && names->n == 0)
		return 0;
	if (!q7_elf_init(err))
		return -1;
	size_t n = names ? names->n : 0;
	struct want w = {names, q7_xcalloc(n ? n : 1, sizeof *w.tags), out, NULL};
	for (size_t i = 0; i < n; i++)
		w.tags[i] = q7_xasprintf("%zu%s", strlen(names->v[i]), names->v[i]);
	int rc = q7_elf_each_object(path, read_symtab, &w, err);
	for (size_t i = 0; i < n; i++)
		free(w.tags[i]);
	free(w.tags);
	return rc;
}

/* Global names by definedness: strong undefined, and defined (global and
 * weak); either list may be NULL. */
struct names {
	struct q7_strvec *undefined, *defined;
};

static void add_name(Elf *elf, const char *what, const GElf_Sym *s, const char *name,
                     void *ctx)
{
	(void)elf;
	(void)what;
	const struct names *n = ctx;
	unsigned bind = GELF_ST_BIND(s->st_info);
	if (s->st_shndx == SHN_UNDEF && bind == STB_GLOBAL && n->undefined)
		q7_sv_add(n->undefined, name);
	else if (s->st_shndx != SHN_UNDEF && bind != STB_LOCAL && n->defined)
		q7_sv_add(n->defined, name);
}

static int read_names(Elf *elf, const char *what, void *ctx, struct q7_err *err)
{
	return each_symbol(elf, what, add_name, ctx, err);
}

int q7_symbols_globals(const char *path, struct q7_strvec *undefined, struct q7_strvec *defined,
                       struct q7_err *err)
{
	if (!q7_elf_init(err))
		return -1;
	struct names n = {undefined, defined};
	return q7_elf_each_object(path, read_names, &n, err);
}

int q7_symbols_defined_in(Elf *elf, const char *what, struct q7_strvec *defined,
                          struct q7_err *err)
{
	struct names n = {NULL, defined};
	return read_names(elf, what, &n, err);
}

/* One object's data: allocated sections that are neither code nor the
 * unwinder's or the loader's (.eh_frame, .gcc_except_table, notes, init
 * arrays). An archive member adds nothing: a link may leave it out. */
static int data_bytes(Elf *elf, const char *what, void *ctx, struct q7_err *err)
{
	uint64_t *bytes = ctx;
	size_t shstrndx;
	if (elf_getarhdr(elf))
		return 0;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		q7_elf_error(err, what, "reading the section headers");
		return -1;
	}
	static const char *const skipped[] = {".eh_frame", ".gcc_except_table", ".note",
	                                      ".init_array", ".fini_array"};
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (!n) {
			q7_elf_error(err, what, "reading the section headers");
			return -1;
		}
		bool data = (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) &&
		            sh.sh_type != SHT_NOTE;
		for (size_t i = 0; data && i < sizeof skipped / sizeof skipped[0]; i++)
			data = strncmp(n, skipped[i], strlen(skipped[i])) != 0;
		if (data)
			*bytes += sh.sh_size;
	}
	return 0;
}

int q7_symbols_data_bytes(const char *path, uint64_t *bytes, struct q7_err *err)
{
	return q7_elf_each_object(path, data_bytes, bytes, err);
}
