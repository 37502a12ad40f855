/* Finding the device image inside a packed object (.packed.so): an ELF32
 * relocatable whose .rodata holds the image under a GLOBAL symbol. Every
 * offset and size is checked against the file before it is used. */
#include "prelink_int.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static bool sym_wanted(Elf *elf, const GElf_Shdr *sh, const GElf_Sym *sym, const char *want)
{
	if (GELF_ST_BIND(sym->st_info) != STB_GLOBAL || sym->st_name == 0)
		return false;
	const char *name = elf_strptr(elf, sh->sh_link, sym->st_name);
	return name && strcmp(name, want) == 0;
}

/* The globals of the object, for the message when the wanted one is not
 * there. */
static void list_globals(Elf *elf, const GElf_Shdr *sh, Elf_Data *d, struct q7_strbuf *b)
{
	int listed = 0;
	GElf_Sym sym;
	for (int i = 1; listed < 8 && gelf_getsym(d, i, &sym); i++) {
		if (GELF_ST_BIND(sym.st_info) != STB_GLOBAL || sym.st_shndx == SHN_UNDEF)
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		q7_sb_addf(b, "%s%s", listed ? ", " : "", name);
		listed++;
	}
}

/* Where the image of symbol (sym, in a file of size bytes with shnum
 * sections) is: its section's data, from the symbol's value for its size
 * (size 0: the rest of the section). Returns 0, or 1 with err set. */
static int image_at_symbol(Elf *elf, const GElf_Sym *sym, size_t shnum, size_t size,
                           const char *name, const char *symbol, size_t *img_off,
                           size_t *img_size, struct q7_err *err)
{
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    sym->st_shndx >= shnum) {
		q7_err_set(err, name, "symbol '%s' is not defined in a section",
		           symbol);
		return 1;
	}
	GElf_Shdr ds;
	Elf_Scn *dscn = elf_getscn(elf, sym->st_shndx);
	if (!dscn || !gelf_getshdr(dscn, &ds)) {
		q7_err_set(err, name, "bad section of '%s': %s", symbol,
		           elf_errmsg(-1));
		return 1;
	}
	if (ds.sh_type != SHT_PROGBITS) {
		q7_err_set(err, name, "symbol '%s' is not in a data section",
		           symbol);
		return 1;
	}
	if (ds.sh_offset > size || ds.sh_size > size - ds.sh_offset) {
		q7_err_set(err, name,
		           "section of '%s' (offset 0x%llx, size 0x%llx) is outside the "
		           "file (0x%zx bytes)", symbol, (unsigned long long)ds.sh_offset,
		           (unsigned long long)ds.sh_size, size);
		return 1;
	}
	/* A symbol of size 0 covers the rest of its section. */
	uint64_t len = sym->st_size;
	if (len == 0 && sym->st_value <= ds.sh_size)
		len = ds.sh_size - sym->st_value;
	if (sym->st_value > ds.sh_size || len > ds.sh_size - sym->st_value || len == 0) {
		q7_err_set(err, name,
		           "symbol '%s' (value 0x%llx, size 0x%llx) is outside its section "
		           "(0x%llx bytes)", symbol, (unsigned long long)sym->st_value,
		           (unsigned long long)sym->st_size, (unsigned long long)ds.sh_size);
		return 1;
	}
	*img_off = (size_t)(ds.sh_offset + sym->st_value);
	*img_size = (size_t)len;
	return 0;
}

int q7_pl_extract(const unsigned char *file, size_t size, const char *name,
                  const char *symbol, size_t *img_off, size_t *img_size, struct q7_err *err)
{
	int rc = 1;
	Elf *elf = NULL;
	struct q7_strbuf globals = {0};
	/* libelf may convert the buffer in place; give it a private copy. */
	char *copy = q7_xmalloc(size ? size : 1);
	memcpy(copy, file, size);
	elf = elf_memory(copy, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		q7_err_set(err, name, "not an ELF file: %s", elf_errmsg(-1));
		goto cleanup;
	}
	size_t shnum;
	if (elf_getshdrnum(elf, &shnum) != 0) {
		q7_err_set(err, name, "bad section headers: %s", elf_errmsg(-1));
		goto cleanup;
	}
	bool have_symtab = false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			q7_err_set(err, name, "bad section header: %s", elf_errmsg(-1));
			goto cleanup;
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		have_symtab = true;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset ||
		    sh.sh_link >= shnum) {
			q7_err_set(err, name, "symbol table outside the file");
			goto cleanup;
		}
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || sh.sh_entsize == 0) {
			q7_err_set(err, name, "unreadable symbol table: %s", elf_errmsg(-1));
			goto cleanup;
		}
		GElf_Sym sym;
		for (int i = 1; gelf_getsym(d, i, &sym); i++) {
			if (!sym_wanted(elf, &sh, &sym, symbol))
				continue;
			rc = image_at_symbol(elf, &sym, shnum, size, name, symbol, img_off, img_size,
			                     err);
			goto cleanup;
		}
		list_globals(elf, &sh, d, &globals);
	}
	if (!have_symtab)
		q7_err_set(err, name, "packed object has no symbol table");
	else
		q7_err_set(err, name, "no global symbol '%s' in the packed object%s%s%s",
		           symbol, globals.len ? " (it has: " : "", globals.len ? globals.s : "",
		           globals.len ? "; use -e NAME)" : "");
cleanup:
	q7_sb_free(&globals);
	if (elf)
		elf_end(elf);
	free(copy);
	return rc;
}
