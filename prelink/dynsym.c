/* The dynamic symbol table of an image, for the relocations that name a
 * symbol; the number of symbols only DT_HASH tells (its nchain). What is
 * checked: docs/emulated.md, "q7-prelink". */
#include "prelink_int.h"

#include <elf.h>
#include <string.h>

/* The tags that locate the table: all of them are needed. */
static const struct {
	int32_t tag;
	const char *name;
} needed_tags[] = {
	{DT_SYMTAB, "DT_SYMTAB"}, {DT_SYMENT, "DT_SYMENT"}, {DT_STRTAB, "DT_STRTAB"},
	{DT_STRSZ, "DT_STRSZ"},   {DT_HASH, "DT_HASH"},
};

/* DT_HASH's nchain. The whole table (nbucket and nchain words after the
 * two counts) must be inside the file bytes, or the counts are not to be
 * trusted. */
static int hash_nsyms(const struct q7_pl_img *im, const char *name, uint32_t hash,
                      uint32_t *nsyms, struct q7_err *err)
{
	const unsigned char *h = q7_pl_at_vaddr(im, hash, 8);
	if (!h) {
		q7_err_set(err, name, "DT_HASH (address 0x%x) is outside the image's file bytes",
		           hash);
		return 1;
	}
	uint32_t nbucket = q7_le32(h), nchain = q7_le32(h + 4);
	if (nbucket == 0) {
		/* No linker writes an empty hash table; the packer leaves zeros. */
		q7_err_set(err, name,
		           "DT_HASH has no buckets: the dynamic symbol table was removed (.hash, "
		           ".dynsym, .dynstr, .rela.plt), as the vendor's packer does without -l, "
		           "and the relocations that name symbols were left unbound; pack with "
		           "q7-pkg-loadlib, which binds them, or with -l, or prelink the unpacked "
		           "image");
		return 1;
	}
	if (!q7_pl_at_vaddr(im, hash, 8 + 4 * ((uint64_t)nbucket + nchain))) {
		q7_err_set(err, name,
		           "DT_HASH (address 0x%x, %u buckets, %u symbols) is outside the image's "
		           "file bytes", hash, nbucket, nchain);
		return 1;
	}
	*nsyms = nchain;
	return 0;
}

int q7_pl_symtab_read(const struct q7_pl_img *im, const char *name,
                      const struct q7_pl_dynsym_loc *loc, struct q7_pl_symtab *st,
                      struct q7_err *err)
{
	for (size_t i = 0; i < sizeof needed_tags / sizeof needed_tags[0]; i++)
		if (!(loc->tags & 1u << needed_tags[i].tag)) {
			q7_err_set(err, name,
			           "relocations name symbols, but the dynamic section has no %s%s",
			           needed_tags[i].name,
			           needed_tags[i].tag == DT_HASH ? " (link with --hash-style=sysv)" : "");
			return 1;
		}
	if (loc->syment != sizeof(Elf32_Sym)) {
		q7_err_set(err, name, "DT_SYMENT is %u, not %zu", loc->syment, sizeof(Elf32_Sym));
		return 1;
	}
	if (hash_nsyms(im, name, loc->hash, &st->nsyms, err))
		return 1;
	st->syms = q7_pl_at_vaddr(im, loc->symtab, (uint64_t)st->nsyms * sizeof(Elf32_Sym));
	if (!st->syms) {
		q7_err_set(err, name,
		           "DT_SYMTAB (address 0x%x, %u symbols) is outside the image's file bytes",
		           loc->symtab, st->nsyms);
		return 1;
	}
	st->str = q7_pl_at_vaddr(im, loc->strtab, loc->strsz);
	st->strsz = loc->strsz;
	if (!st->str) {
		q7_err_set(err, name,
		           "DT_STRTAB (address 0x%x, size 0x%x) is outside the image's file bytes",
		           loc->strtab, loc->strsz);
		return 1;
	}
	return 0;
}

int q7_pl_sym_get(const struct q7_pl_symtab *st, const char *name, uint32_t i,
                  struct q7_pl_sym *s, struct q7_err *err)
{
	if (i >= st->nsyms) {
		q7_err_set(err, name,
		           "a relocation names symbol %u, but the dynamic symbol table has %u (DT_HASH)",
		           i, st->nsyms);
		return 1;
	}
	const unsigned char *e = st->syms + (size_t)i * sizeof(Elf32_Sym);
	uint32_t off = q7_le32(e);
	if (off >= st->strsz || !memchr(st->str + off, 0, st->strsz - off)) {
		q7_err_set(err, name,
		           "symbol %u's name (offset 0x%x) does not end inside the dynamic string "
		           "table (0x%x bytes)", i, off, st->strsz);
		return 1;
	}
	s->name = (const char *)st->str + off;
	s->value = q7_le32(e + 4);
	s->bind = ELF32_ST_BIND(e[12]);
	s->type = ELF32_ST_TYPE(e[12]);
	s->shndx = q7_le16(e + 14);
	return 0;
}
