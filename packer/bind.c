/* packer/bind: binding at pack time what would need the symbol table
 * (without -l), as glibc's Xtensa elf_machine_rela binds it with lazy
 * binding off and no definition anywhere. Each relocation's result, what
 * is refused, and the planning through libelf in the image's byte order:
 * docs/packer.md, "Binding without -l". */
#include "q7/xtensa.h"
#include "bind.h"
#include "elfio.h"
#include "support.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct binder {
	const struct q7_image *im;
	const struct q7_strip_plan *p;
	struct q7_bind *b;
	uint64_t lo, hi; /* the PT_LOAD addresses: a defined symbol lies inside */
	struct q7_err *err; /* the refusal */
};

/* One dynamic relocation being bound. */
struct rel {
	size_t sec, k; /* its table (input section) and index in it */
	GElf_Rela r;
	unsigned type;
	size_t sym;
	bool kept; /* its table stays in the stripped image */
};

/* "<file>: <reason>" into bd->err; returns 1. */
static int refuse(const struct binder *bd, const char *fmt, ...) Q7_PRINTF(2, 3);
static int refuse(const struct binder *bd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	q7_err_vset(bd->err, bd->im->path, fmt, ap);
	va_end(ap);
	return 1;
}

/* "<type> (type N) at offset 0x...", the start of most messages. */
#define REL_FMT "%s (type %u) at offset 0x%llx"
#define REL_ARGS(rl) q7_xt_reloc_name((rl)->type), (rl)->type, (unsigned long long)(rl)->r.r_offset

/* Records n bytes of src, of libelf type t, to replace section sec's bytes
 * at off, encoded in the image's byte order. */
static int add_patch(struct binder *bd, size_t sec, size_t off, const void *src, size_t n,
                     Elf_Type t)
{
	struct q7_bind *b = bd->b;
	Q7_GROW(b->patch, b->cap, b->npatch + 1);
	struct q7_patch *pt = &b->patch[b->npatch];
	*pt = (struct q7_patch){.sec = sec, .off = off, .len = n};
	Elf_Data from = {.d_buf = (void *)src, .d_type = t, .d_size = n, .d_version = EV_CURRENT};
	Elf_Data to = {.d_buf = pt->bytes, .d_type = t, .d_size = n, .d_version = EV_CURRENT};
	if (!elf32_xlatetof(&to, &from, bd->im->eh.e_ident[EI_DATA])) {
		q7_elf_error(bd->err, bd->im->path, "encoding a relocation");
		return 1;
	}
	b->npatch++;
	return 0;
}

/* The word at r_offset becomes v. It must lie in a section the stripped
 * image keeps (the bytes of removed sections are not copied). */
static int patch_word(struct binder *bd, const struct rel *rl, uint64_t v)
{
	uint64_t va = rl->r.r_offset;
	for (size_t k = 0; k < bd->p->nkeep; k++) {
		size_t i = bd->p->keep[k];
		const GElf_Shdr *sh = &bd->im->sec[i].sh;
		if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS || sh->sh_size < 4 ||
		    va < sh->sh_addr || va - sh->sh_addr > sh->sh_size - 4)
			continue;
		Elf32_Word w = (Elf32_Word)v;
		return add_patch(bd, i, va - sh->sh_addr, &w, sizeof w, ELF_T_WORD);
	}
	return refuse(bd, REL_FMT ": its word lies in no section the stripped image keeps",
	              REL_ARGS(rl));
}

/* The entry itself becomes type, with no symbol and addend 0; r_offset
 * stays, still inside the image for any loader that checks it. */
static int patch_entry(struct binder *bd, const struct rel *rl, unsigned type)
{
	Elf32_Rela e = {.r_offset = (Elf32_Addr)rl->r.r_offset, .r_info = ELF32_R_INFO(0, type)};
	return add_patch(bd, rl->sec, rl->k * sizeof e, &e, sizeof e, ELF_T_RELA);
}

/* Word and entry: the entry only where its table stays. */
static int bind_to(struct binder *bd, const struct rel *rl, uint64_t v, unsigned type)
{
	return patch_word(bd, rl, v) || (rl->kept && patch_entry(bd, rl, type));
}

/* The number of entries of section i, a table of libelf type t (whose
 * size q7_image_open held to a multiple of a nonzero entry size). */
static int entries(const struct binder *bd, size_t i, Elf_Type t, size_t *n)
{
	const GElf_Shdr *sh = &bd->im->sec[i].sh;
	size_t want = gelf_fsize(bd->im->elf, t, 1, EV_CURRENT);
	if (sh->sh_entsize != want)
		return refuse(bd, "section %s: entry size %llu, expected %zu", bd->im->sec[i].name,
		              (unsigned long long)sh->sh_entsize, want);
	*n = sh->sh_size / want;
	return 0;
}

static Elf_Data *contents(const struct binder *bd, size_t i)
{
	Elf_Scn *scn = elf_getscn(bd->im->elf, i);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d)
		q7_elf_error(bd->err, bd->im->path, "reading the dynamic relocations");
	return d;
}

/* The symbol rl names, from its table's linked .dynsym, and its name. */
static int get_sym(const struct binder *bd, const struct rel *rl, GElf_Sym *s, const char **name)
{
	const struct q7_image *im = bd->im;
	size_t link = im->sec[rl->sec].sh.sh_link, n = 0;
	const struct q7_isec *ss = &im->sec[link];
	if (ss->sh.sh_type != SHT_DYNSYM)
		return refuse(bd, "%s names symbols, but its link (section %zu) is not a dynamic "
		              "symbol table", im->sec[rl->sec].name, link);
	if (entries(bd, link, ELF_T_SYM, &n))
		return 1;
	if (rl->sym >= n)
		return refuse(bd, REL_FMT " names symbol %zu, but %s has %zu", REL_ARGS(rl), rl->sym,
		              ss->name, n);
	Elf_Data *d = contents(bd, link);
	if (!d)
		return 1;
	if (!gelf_getsym(d, (int)rl->sym, s)) {
		q7_elf_error(bd->err, im->path, "reading the dynamic symbols");
		return 1;
	}
	const GElf_Shdr *st = &im->sec[ss->sh.sh_link].sh;
	const char *strs = (const char *)q7_image_bytes(im, ss->sh.sh_link);
	if (st->sh_type != SHT_STRTAB || !strs || s->st_name >= st->sh_size ||
	    !memchr(strs + s->st_name, '\0', st->sh_size - s->st_name))
		return refuse(bd, "symbol %zu's name (offset 0x%x) does not end inside the string "
		              "table of %s", rl->sym, (unsigned)s->st_name, ss->name);
	*name = strs + s->st_name;
	return 0;
}

/* GLOB_DAT and JMP_SLOT: word = S + addend, as a dynamic linker would. */
static int bind_symbolic(struct binder *bd, const struct rel *rl)
{
	GElf_Sym s;
	const char *name = "";
	if (rl->sym == 0)
		return refuse(bd, REL_FMT " names no symbol", REL_ARGS(rl));
	if (get_sym(bd, rl, &s, &name))
		return 1;
	uint64_t addend = (uint64_t)rl->r.r_addend;
	switch (q7_xt_sym_rule(s.st_shndx, GELF_ST_BIND(s.st_info), GELF_ST_TYPE(s.st_info))) {
	case Q7_XT_SYM_ZERO:
		bd->b->weak++;
		return bind_to(bd, rl, 0 + addend, R_XTENSA_NONE);
	case Q7_XT_SYM_UNDEFINED:
		return refuse(bd, "undefined symbol '%.128s' in " REL_FMT "; a device image is "
		              "self-contained and, packed without -l, has no symbol table to look "
		              "it up in: define it, or declare it weak to make it optional",
		              name, REL_ARGS(rl));
	case Q7_XT_SYM_TLS:
	case Q7_XT_SYM_IFUNC:
		return refuse(bd, "symbol '%.128s' in " REL_FMT " is %s, which cannot be bound at "
		              "pack time", name, REL_ARGS(rl),
		              GELF_ST_TYPE(s.st_info) == STT_TLS ? "thread-local"
		                                                 : "an indirect function (ifunc)");
	case Q7_XT_SYM_ABSOLUTE:
		bd->b->absolute++;
		return bind_to(bd, rl, s.st_value + addend, R_XTENSA_NONE);
	case Q7_XT_SYM_RESERVED:
		return refuse(bd, "symbol '%.128s' in " REL_FMT " has the special section index "
		              "0x%x", name, REL_ARGS(rl), (unsigned)s.st_shndx);
	case Q7_XT_SYM_IMAGE:
		break;
	}
	/* A RELATIVE word moves with the image: it must point into it. */
	if (s.st_value < bd->lo || s.st_value > bd->hi)
		return refuse(bd, "symbol '%.128s' (0x%llx) in " REL_FMT " lies outside the image "
		              "(0x%llx..0x%llx)", name, (unsigned long long)s.st_value, REL_ARGS(rl),
		              (unsigned long long)bd->lo, (unsigned long long)bd->hi);
	if (!rl->kept)
		return refuse(bd, REL_FMT " binds '%.128s', which the image defines; it would have "
		              "to become R_XTENSA_RELATIVE, but %s is removed without -l: link with "
		              "-Wl,-Bsymbolic, or pack with -l", REL_ARGS(rl), name,
		              bd->im->sec[rl->sec].name);
	bd->b->defined++;
	return bind_to(bd, rl, s.st_value + addend, R_XTENSA_RELATIVE);
}

static int bind_one(struct binder *bd, const struct rel *rl)
{
	switch (rl->type) {
	case R_XTENSA_NONE:
	case R_XTENSA_RELATIVE:
		return 0;
	case R_XTENSA_RTLD:
		if (!rl->kept)
			return 0;
		bd->b->rtld++;
		return patch_entry(bd, rl, R_XTENSA_NONE);
	case R_XTENSA_GLOB_DAT:
	case R_XTENSA_JMP_SLOT:
		return bind_symbolic(bd, rl);
	default:
		if (rl->sym == 0) /* needs no symbol table: the loader's business */
			return 0;
		return refuse(bd, REL_FMT " names symbol %zu; without -l only R_XTENSA_GLOB_DAT and "
		              "R_XTENSA_JMP_SLOT can be bound at pack time: link with -Wl,-Bsymbolic, "
		              "or pack with -l", REL_ARGS(rl), rl->sym);
	}
}

static int bind_table(struct binder *bd, size_t sec)
{
	size_t n = 0;
	if (entries(bd, sec, ELF_T_RELA, &n))
		return 1;
	Elf_Data *d = contents(bd, sec);
	if (!d)
		return 1;
	for (size_t k = 0; k < n; k++) {
		struct rel rl = {.sec = sec, .k = k, .kept = bd->p->newidx[sec] != 0};
		if (!gelf_getrela(d, (int)k, &rl.r)) {
			q7_elf_error(bd->err, bd->im->path, "reading the dynamic relocations");
			return 1;
		}
		rl.type = (unsigned)GELF_R_TYPE(rl.r.r_info);
		rl.sym = (size_t)GELF_R_SYM(rl.r.r_info);
		if (bind_one(bd, &rl))
			return 1;
	}
	return 0;
}

int q7_bind_plan(const struct q7_image *im, const struct q7_strip_plan *p, struct q7_bind *b,
                 struct q7_err *err)
{
	memset(b, 0, sizeof *b);
	/* Relocation numbers mean something only for their machine. */
	if (im->cls != ELFCLASS32 || im->eh.e_machine != EM_XTENSA)
		return 0;
	b->active = true;
	struct binder bd = {.im = im, .p = p, .b = b, .lo = UINT64_MAX, .err = err};
	for (size_t j = 0; j < im->phnum; j++) {
		const GElf_Phdr *ph = &im->ph[j];
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_vaddr < bd.lo)
			bd.lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > bd.hi)
			bd.hi = ph->p_vaddr + ph->p_memsz;
	}
	/* The dynamic relocations are the allocated RELA tables (GNU ld writes
	 * no REL for Xtensa). */
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		if (sh->sh_type == SHT_RELA && (sh->sh_flags & SHF_ALLOC) && sh->sh_size &&
		    bind_table(&bd, i)) {
			q7_bind_free(b);
			return -1;
		}
	}
	return 0;
}

void q7_bind_free(struct q7_bind *b)
{
	free(b->patch);
	memset(b, 0, sizeof *b);
}

char *q7_bind_summary(const struct q7_bind *b)
{
	if (!b->active)
		return NULL;
	size_t n = b->weak + b->defined + b->absolute + b->rtld;
	if (n == 0)
		return q7_xstrdup("no relocation names a symbol: nothing to bind");
	return q7_xasprintf("bound %zu relocations for loading without the symbol table: %zu "
	                    "undefined weak to 0, %zu defined to R_XTENSA_RELATIVE, %zu absolute "
	                    "to their value, %zu R_XTENSA_RTLD to R_XTENSA_NONE",
	                    n, b->weak, b->defined, b->absolute, b->rtld);
}

unsigned char *q7_bind_patched(const struct q7_bind *b, const struct q7_image *im, size_t i)
{
	unsigned char *copy = NULL;
	for (size_t k = 0; b && k < b->npatch; k++) {
		const struct q7_patch *pt = &b->patch[k];
		if (pt->sec != i)
			continue;
		if (!copy) {
			copy = q7_xmalloc(im->sec[i].sh.sh_size);
			memcpy(copy, q7_image_bytes(im, i), im->sec[i].sh.sh_size);
		}
		memcpy(copy + pt->off, pt->bytes, pt->len);
	}
	return copy;
}
