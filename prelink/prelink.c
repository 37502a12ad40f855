/* The prelinker proper: checks an Xtensa device image, lays its PT_LOAD
 * segments out from a base address, applies its dynamic relocations and
 * builds the loadable image (header + load bytes).
 *
 * The image is read with explicit little-endian decoders and every offset,
 * size and address is checked before use, so a damaged image gets a
 * message, never a crash.
 *
 * For the relocations it is a small, strict dynamic linker of one
 * self-contained image, binding everything at once as glibc's Xtensa
 * dynamic linker does with lazy binding off; what each type does and why,
 * docs/emulated.md, "Relocations". */
#include "prelink_int.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"
#include "q7/xtensa.h"
#include "support.h"

#ifndef EM_XTENSA
#define EM_XTENSA 94
#endif

#define MAX_IMAGE_SPAN Q7_LSP_IMAGE_SPAN_MAX

struct seg {
	uint32_t offset, vaddr, filesz, memsz;
};

struct q7_pl_img {
	const char *name;
	const unsigned char *p; /* the image's bytes */
	size_t size;
	uint32_t type, entry;
	struct seg load[16];
	unsigned nload;
	bool have_dynamic;
	uint32_t dyn_offset, dyn_size;
	uint32_t lo, file_hi, hi; /* link addresses: first byte, end of file bytes, end */
};

/* The ELF header: an Xtensa ELF32 little-endian linked image, and where
 * its program headers lie (inside the file). */
static int read_ehdr(struct q7_pl_img *im, uint32_t *phoff, uint32_t *phnum, struct q7_err *err)
{
	const unsigned char *p = im->p;
	if (im->size < sizeof(Elf32_Ehdr) || memcmp(p, ELFMAG, SELFMAG) != 0) {
		q7_err_set(err, im->name, "the image is not an ELF file");
		return 1;
	}
	if (p[EI_CLASS] != ELFCLASS32) {
		q7_err_set(err, im->name, "the image is not ELF32 (class %u)", p[EI_CLASS]);
		return 1;
	}
	if (p[EI_DATA] != ELFDATA2LSB) {
		q7_err_set(err, im->name, "the image is not little-endian (data %u)", p[EI_DATA]);
		return 1;
	}
	uint32_t machine = q7_le16(p + 18);
	if (machine != EM_XTENSA) {
		q7_err_set(err, im->name, "the image is not for Xtensa (machine %u)", machine);
		return 1;
	}
	im->type = q7_le16(p + 16);
	if (im->type != ET_DYN && im->type != ET_EXEC) {
		q7_err_set(err, im->name, "the image is not a linked image (ELF type %u)", im->type);
		return 1;
	}
	im->entry = q7_le32(p + 24);
	uint32_t phentsize = q7_le16(p + 42);
	*phoff = q7_le32(p + 28);
	*phnum = q7_le16(p + 44);
	if (*phnum == 0 || *phnum == PN_XNUM) {
		q7_err_set(err, im->name, "the image has no program headers");
		return 1;
	}
	if (phentsize != sizeof(Elf32_Phdr)) {
		q7_err_set(err, im->name, "program header entries of %u bytes (not %zu)",
		           phentsize, sizeof(Elf32_Phdr));
		return 1;
	}
	if (*phoff > im->size || (uint64_t)*phnum * phentsize > im->size - *phoff) {
		q7_err_set(err, im->name,
		           "program headers (offset 0x%x, %u entries) are outside the image (0x%zx "
		           "bytes)", *phoff, *phnum, im->size);
		return 1;
	}
	return 0;
}

/* Program header i (at ph): the dynamic section, or a loadable segment
 * inside the file, after the one before it. */
static int read_phdr(struct q7_pl_img *im, uint32_t i, const unsigned char *ph,
                     struct q7_err *err)
{
	uint32_t type = q7_le32(ph), off = q7_le32(ph + 4), va = q7_le32(ph + 8);
	uint32_t filesz = q7_le32(ph + 16), memsz = q7_le32(ph + 20);
	if (type != PT_LOAD && type != PT_DYNAMIC)
		return 0;
	if (off > im->size || filesz > im->size - off) {
		q7_err_set(err, im->name,
		           "segment %u (offset 0x%x, size 0x%x) is outside the image (0x%zx bytes)",
		           i, off, filesz, im->size);
		return 1;
	}
	if (type == PT_DYNAMIC) {
		im->have_dynamic = true;
		im->dyn_offset = off;
		im->dyn_size = filesz;
		return 0;
	}
	char why[160];
	if (q7_lsp_segment_check(i, va, filesz, memsz, why, sizeof why) != 0) {
		q7_err_set(err, im->name, "%s", why);
		return 1;
	}
	if (memsz == 0)
		return 0;
	if (im->nload == sizeof im->load / sizeof im->load[0]) {
		q7_err_set(err, im->name, "too many loadable segments");
		return 1;
	}
	if (im->nload) {
		const struct seg *prev = &im->load[im->nload - 1];
		if (va < prev->vaddr + prev->memsz) {
			q7_err_set(err, im->name,
			           "segment %u (address 0x%x) overlaps or precedes the one before it",
			           i, va);
			return 1;
		}
	}
	im->load[im->nload++] = (struct seg){off, va, filesz, memsz};
	return 0;
}

static int parse_image(struct q7_pl_img *im, struct q7_err *err)
{
	uint32_t phoff, phnum;
	if (read_ehdr(im, &phoff, &phnum, err))
		return 1;
	for (uint32_t i = 0; i < phnum; i++)
		if (read_phdr(im, i, im->p + phoff + i * sizeof(Elf32_Phdr), err))
			return 1;
	if (im->nload == 0) {
		q7_err_set(err, im->name, "the image has no loadable segment");
		return 1;
	}
	im->lo = im->load[0].vaddr;
	im->file_hi = im->lo;
	for (unsigned i = 0; i < im->nload; i++) {
		const struct seg *s = &im->load[i];
		if (s->filesz && s->vaddr + s->filesz > im->file_hi)
			im->file_hi = s->vaddr + s->filesz;
		im->hi = s->vaddr + s->memsz;
	}
	if (im->hi - im->lo > MAX_IMAGE_SPAN) {
		q7_err_set(err, im->name, "the image spans 0x%x bytes, more than 0x%x",
		           im->hi - im->lo, MAX_IMAGE_SPAN);
		return 1;
	}
	/* A shared library linked without kernels (the compiler's own link)
	 * has no runtime, so no entry: the core would jump to address 0. */
	if (im->entry == 0) {
		char *doc = q7_doc_path("driver.md");
		q7_err_set(err, im->name, "no entry point: not a custom-op image (a shared "
		           "library linked without kernels: mark each kernel with Q7_KERNEL from "
		           "<q7/kernel.h> and build it again; %s, \"Shared libraries without kernels\")",
		           doc);
		free(doc);
		return 1;
	}
	if (im->entry < im->lo || im->entry >= im->file_hi) {
		q7_err_set(err, im->name, "entry point 0x%x is outside the loadable bytes", im->entry);
		return 1;
	}
	return 0;
}

const unsigned char *q7_pl_at_vaddr(const struct q7_pl_img *im, uint32_t va, uint64_t n)
{
	for (unsigned i = 0; i < im->nload; i++) {
		const struct seg *s = &im->load[i];
		if (va >= s->vaddr && va - s->vaddr <= s->filesz && n <= s->filesz - (va - s->vaddr))
			return im->p + s->offset + (va - s->vaddr);
	}
	return NULL;
}

struct dyn {
	uint32_t rela, relasz, relaent, jmprel, pltrelsz, pltrel;
	struct q7_pl_dynsym_loc sym;
	bool have_rel, have_needed;
};

static int read_dynamic(const struct q7_pl_img *im, struct dyn *d, struct q7_err *err)
{
	memset(d, 0, sizeof *d);
	d->relaent = sizeof(Elf32_Rela);
	d->pltrel = DT_RELA;
	bool ended = false;
	for (uint32_t o = 0; o + 8 <= im->dyn_size; o += 8) {
		const unsigned char *e = im->p + im->dyn_offset + o;
		int32_t tag = (int32_t)q7_le32(e);
		uint32_t val = q7_le32(e + 4);
		if (tag == DT_NULL) {
			ended = true;
			break;
		}
		if (tag >= 0 && tag < 32)
			d->sym.tags |= 1u << tag;
		switch (tag) {
		case DT_RELA: d->rela = val; break;
		case DT_RELASZ: d->relasz = val; break;
		case DT_RELAENT: d->relaent = val; break;
		case DT_JMPREL: d->jmprel = val; break;
		case DT_PLTRELSZ: d->pltrelsz = val; break;
		case DT_PLTREL: d->pltrel = val; break;
		case DT_SYMTAB: d->sym.symtab = val; break;
		case DT_SYMENT: d->sym.syment = val; break;
		case DT_STRTAB: d->sym.strtab = val; break;
		case DT_STRSZ: d->sym.strsz = val; break;
		case DT_HASH: d->sym.hash = val; break;
		case DT_REL: case DT_RELSZ: d->have_rel = true; break;
		case DT_NEEDED: d->have_needed = true; break;
		default: break;
		}
	}
	if (!ended) {
		q7_err_set(err, im->name, "the dynamic section has no DT_NULL end");
		return 1;
	}
	if (d->have_needed) {
		q7_err_set(err, im->name,
		           "the image needs another shared library (DT_NEEDED); a device image "
		           "must be self-contained");
		return 1;
	}
	if (d->have_rel) {
		q7_err_set(err, im->name, "REL relocations (DT_REL) are not supported, only RELA");
		return 1;
	}
	if (d->relaent != sizeof(Elf32_Rela)) {
		q7_err_set(err, im->name, "DT_RELAENT is %u, not %zu", d->relaent,
		           sizeof(Elf32_Rela));
		return 1;
	}
	if (d->pltrelsz && d->pltrel != DT_RELA) {
		q7_err_set(err, im->name, "PLT relocations of kind %u are not supported", d->pltrel);
		return 1;
	}
	return 0;
}

struct rela {
	uint32_t off, type, sym, addend;
};

/* What applying the relocations needs. The symbol table is read when the
 * first relocation names a symbol: an image that names none (the usual
 * -Bsymbolic image) does not depend on it. */
struct relocator {
	const struct q7_pl_img *im;
	const struct dyn *d;
	unsigned char *load; /* the load bytes, relocated in place */
	uint32_t delta;      /* base - link base */
	uint32_t *count;     /* relocations applied */
	bool have_plt, have_jmp_slot;
	bool have_symtab;
	struct q7_pl_symtab st;
	struct q7_err *err;
};

/* Symbol i of the dynamic symbol table, which is read on first use. */
static int get_sym(struct relocator *r, uint32_t i, struct q7_pl_sym *s)
{
	if (!r->have_symtab) {
		if (q7_pl_symtab_read(r->im, r->im->name, &r->d->sym, &r->st, r->err))
			return 1;
		r->have_symtab = true;
	}
	return q7_pl_sym_get(&r->st, r->im->name, i, s, r->err);
}

/* S, the symbol's address at the base, by <q7/xtensa.h>'s rule
 * (q7_xt_sym_rule), which the packer binds by too; nothing else can define
 * a symbol: a device image is all there is. */
static int sym_address(const struct relocator *r, const struct rela *rl,
                       const struct q7_pl_sym *s, uint32_t *S)
{
	const struct q7_pl_img *im = r->im;
	switch (q7_xt_sym_rule(s->shndx, s->bind, s->type)) {
	case Q7_XT_SYM_ZERO:
		*S = 0;
		return 0;
	case Q7_XT_SYM_UNDEFINED:
		q7_err_set(r->err, im->name,
		           "undefined symbol '%.128s' in %s (type %u) at offset 0x%x; a device image "
		           "is self-contained: define it, or declare it weak to make it optional",
		           s->name, q7_xt_reloc_name(rl->type), rl->type, rl->off);
		return 1;
	case Q7_XT_SYM_TLS:
	case Q7_XT_SYM_IFUNC:
		q7_err_set(r->err, im->name,
		           "symbol '%.128s' in %s (type %u) at offset 0x%x is %s, which cannot be "
		           "prelinked", s->name, q7_xt_reloc_name(rl->type), rl->type, rl->off,
		           s->type == STT_TLS ? "thread-local" : "an indirect function (ifunc)");
		return 1;
	case Q7_XT_SYM_ABSOLUTE:
		*S = s->value;
		return 0;
	case Q7_XT_SYM_RESERVED:
		q7_err_set(r->err, im->name,
		           "symbol '%.128s' in %s (type %u) at offset 0x%x has the special section "
		           "index 0x%x", s->name, q7_xt_reloc_name(rl->type), rl->type, rl->off,
		           (unsigned)s->shndx);
		return 1;
	case Q7_XT_SYM_IMAGE:
		break;
	}
	/* A value the image does not cover would be moved into nothing. */
	if (s->value < im->lo || s->value > im->hi) {
		q7_err_set(r->err, im->name,
		           "symbol '%.128s' (0x%x) in %s (type %u) at offset 0x%x lies outside the "
		           "image (0x%x..0x%x)", s->name, s->value, q7_xt_reloc_name(rl->type), rl->type,
		           rl->off, im->lo, im->hi);
		return 1;
	}
	*S = s->value + r->delta;
	return 0;
}

/* The word a relocation changes, in the load bytes, or NULL. */
static unsigned char *reloc_word(const struct relocator *r, const struct rela *rl)
{
	const struct q7_pl_img *im = r->im;
	uint32_t load_size = im->file_hi - im->lo;
	if (rl->off < im->lo || rl->off - im->lo > load_size || load_size - (rl->off - im->lo) < 4) {
		q7_err_set(r->err, im->name,
		           "%s at offset 0x%x is outside the image's file bytes (0x%x..0x%x)",
		           q7_xt_reloc_name(rl->type), rl->off, im->lo, im->file_hi);
		return NULL;
	}
	return r->load + (rl->off - im->lo);
}

static int apply_relative(struct relocator *r, const struct rela *rl)
{
	if (rl->sym != 0) {
		q7_err_set(r->err, r->im->name,
		           "R_XTENSA_RELATIVE at offset 0x%x names symbol %u; it must name none",
		           rl->off, rl->sym);
		return 1;
	}
	unsigned char *w = reloc_word(r, rl);
	if (!w)
		return 1;
	/* Xtensa's RELATIVE keeps the link-time address in the word (the
	 * addend is normally 0): word + addend + (base - link base). */
	q7_put_le32(w, q7_le32(w) + rl->addend + r->delta);
	(*r->count)++;
	return 0;
}

/* GLOB_DAT and JMP_SLOT: word = S + addend, the word's old contents not
 * counted (docs/emulated.md, "Relocations"). */
static int apply_symbolic(struct relocator *r, const struct rela *rl)
{
	struct q7_pl_sym s;
	uint32_t S;
	if (rl->sym == 0) {
		q7_err_set(r->err, r->im->name, "%s (type %u) at offset 0x%x names no symbol",
		           q7_xt_reloc_name(rl->type), rl->type, rl->off);
		return 1;
	}
	unsigned char *w = reloc_word(r, rl);
	if (!w || get_sym(r, rl->sym, &s) || sym_address(r, rl, &s, &S))
		return 1;
	q7_put_le32(w, S + rl->addend);
	(*r->count)++;
	r->have_jmp_slot |= rl->type == R_XTENSA_JMP_SLOT;
	return 0;
}

/* R_XTENSA_RTLD: its words left alone, not counted as applied, but
 * checked as glibc does (docs/emulated.md, "Relocations"). */
static int check_rtld(struct relocator *r, const struct rela *rl)
{
	if (rl->addend != 1 && rl->addend != 2) {
		q7_err_set(r->err, r->im->name,
		           "R_XTENSA_RTLD at offset 0x%x has addend %u; only 1 (the resolver) and 2 "
		           "(the link map) exist", rl->off, rl->addend);
		return 1;
	}
	r->have_plt = true;
	return reloc_word(r, rl) ? 0 : 1;
}

static int apply_one(struct relocator *r, const struct rela *rl)
{
	switch (rl->type) {
	case R_XTENSA_NONE:
		return 0;
	case R_XTENSA_RELATIVE:
		return apply_relative(r, rl);
	case R_XTENSA_GLOB_DAT:
	case R_XTENSA_JMP_SLOT:
		return apply_symbolic(r, rl);
	case R_XTENSA_RTLD:
		return check_rtld(r, rl);
	case R_XTENSA_32:
		q7_err_set(r->err, r->im->name,
		           "unsupported relocation R_XTENSA_32 (type 1) at offset 0x%x; no Xtensa "
		           "dynamic linker applies it (GNU ld writes R_XTENSA_GLOB_DAT for a word "
		           "that needs a symbol)", rl->off);
		return 1;
	default:
		q7_err_set(r->err, r->im->name,
		           "unsupported relocation %s (type %u) at offset 0x%x; only R_XTENSA_NONE, "
		           "R_XTENSA_RELATIVE, R_XTENSA_GLOB_DAT, R_XTENSA_JMP_SLOT and "
		           "R_XTENSA_RTLD can be prelinked (link with -Wl,-Bsymbolic)",
		           q7_xt_reloc_name(rl->type), rl->type, rl->off);
		return 1;
	}
}

static int apply_table(struct relocator *r, uint32_t va, uint32_t size, const char *what)
{
	const struct q7_pl_img *im = r->im;
	if (size == 0)
		return 0;
	if (size % sizeof(Elf32_Rela)) {
		q7_err_set(r->err, im->name, "%s size 0x%x is not a multiple of %zu", what,
		           size, sizeof(Elf32_Rela));
		return 1;
	}
	const unsigned char *t = q7_pl_at_vaddr(im, va, size);
	if (!t) {
		q7_err_set(r->err, im->name,
		           "%s (address 0x%x, size 0x%x) is outside the image's file bytes", what, va,
		           size);
		return 1;
	}
	for (uint32_t o = 0; o < size; o += sizeof(Elf32_Rela)) {
		uint32_t info = q7_le32(t + o + 4);
		struct rela rl = {.off = q7_le32(t + o), .type = ELF32_R_TYPE(info),
		                  .sym = ELF32_R_SYM(info), .addend = q7_le32(t + o + 8)};
		if (apply_one(r, &rl))
			return 1;
	}
	return 0;
}

/* Applies the image's RELA tables to the load bytes; *count gets the
 * number of relocations applied. */
static int relocate(const struct q7_pl_img *im, unsigned char *load, uint32_t delta,
                    uint32_t *count, struct q7_err *err)
{
	struct dyn d;
	if (read_dynamic(im, &d, err))
		return 1;
	struct relocator r = {.im = im, .d = &d, .load = load, .delta = delta, .count = count,
	                      .err = err};
	if (apply_table(&r, d.rela, d.relasz, "DT_RELA"))
		return 1;
	/* Some links count the PLT relocations in DT_RELASZ too: apply them
	 * once. */
	bool plt_inside = (uint64_t)d.jmprel >= d.rela &&
	                  (uint64_t)d.jmprel + d.pltrelsz <= (uint64_t)d.rela + d.relasz;
	if (!plt_inside && apply_table(&r, d.jmprel, d.pltrelsz, "DT_JMPREL"))
		return 1;
	/* A PLT whose slots nothing binds would send its calls to the lazy
	 * resolver, which is not there; the packer removes .rela.plt. */
	if (r.have_plt && !r.have_jmp_slot) {
		q7_err_set(err, im->name,
		           "the image has a PLT (R_XTENSA_RTLD) but no R_XTENSA_JMP_SLOT binds its "
		           "slots: .rela.plt was removed, as the vendor's packer does without -l; "
		           "pack with q7-pkg-loadlib, which binds the slots, or with -l, or prelink "
		           "the unpacked image");
		return 1;
	}
	return 0;
}

/* h into out, with its checksum: the format is little-endian, as the
 * hosts are (q7/prelinked_check.h reads it so too). */
static void put_header(unsigned char *out, struct q7_pl_header *h)
{
	memcpy(out, h, sizeof *h);
	h->header_crc = q7_crc32(0, out, Q7_PL_HEADER_CRC_SPAN);
	memcpy(out, h, sizeof *h);
}

/* Where the image goes: --base, or the window of opts->core. */
static int choose_base(const struct q7_prelink_opts *opts, const struct q7_pl_img *im,
                       struct q7_pl_header *h, struct q7_err *err)
{
	uint32_t span = im->hi - im->lo;
	h->core = opts->core >= 0 ? opts->core : -1;
	if (opts->have_base) {
		h->base = opts->base;
		h->flags = Q7_PL_F_BASE;
	} else {
		const struct q7_lsp *lsp = q7_lsp_get(opts->core);
		if (!lsp) {
			q7_err_set(err, im->name, "no core %d (cores are 0..%d)", opts->core,
			           Q7_NUM_CORES - 1);
			return 1;
		}
		if (span > lsp->sram_len) {
			q7_err_set(err, im->name,
			           "the image needs 0x%x bytes, more than the 0x%x of %s's window", span,
			           lsp->sram_len, lsp->name);
			return 1;
		}
		h->base = lsp->sram_org;
		h->flags = opts->core >= 0 ? Q7_PL_F_CORE : Q7_PL_F_SINGLE;
	}
	if ((h->base - im->lo) % Q7_PL_BASE_ALIGN) {
		q7_err_set(err, im->name,
		           "base 0x%x is not a multiple of %u bytes away from the link address 0x%x",
		           h->base, Q7_PL_BASE_ALIGN, im->lo);
		return 1;
	}
	if ((uint64_t)h->base + span > 0x100000000ull) {
		q7_err_set(err, im->name, "the image (0x%x bytes) does not fit above base 0x%x",
		           span, h->base);
		return 1;
	}
	return 0;
}

static int prelink_image(const struct q7_prelink_opts *opts, struct q7_pl_img *im,
                         struct q7_prelinked *out, struct q7_err *err)
{
	if (parse_image(im, err))
		return 1;
	struct q7_pl_header h = {.magic = Q7_PL_MAGIC, .version = Q7_PL_VERSION,
	                         .header_size = Q7_PL_HEADER_SIZE};
	if (choose_base(opts, im, &h, err))
		return 1;
	uint32_t delta = h.base - im->lo;
	if (!im->have_dynamic && delta) {
		q7_err_set(err, im->name,
		           "the image has no dynamic section, so it can only be placed at its link "
		           "address 0x%x (asked for 0x%x)", im->lo, h.base);
		return 1;
	}
	uint32_t load_size = im->file_hi - im->lo;
	unsigned char *bytes = q7_xcalloc(1, Q7_PL_HEADER_SIZE + (size_t)load_size);
	unsigned char *load = bytes + Q7_PL_HEADER_SIZE;
	for (unsigned i = 0; i < im->nload; i++) {
		const struct seg *s = &im->load[i];
		memcpy(load + (s->vaddr - im->lo), im->p + s->offset, s->filesz);
	}
	if (im->have_dynamic && relocate(im, load, delta, &h.nrelocs, err)) {
		free(bytes);
		return 1;
	}
	h.load_size = load_size;
	h.bss_size = im->hi - im->file_hi;
	h.entry = im->entry + delta;
	h.link_base = im->lo;
	h.checksum = q7_crc32(0, load, load_size);
	put_header(bytes, &h);
	out->hdr = h;
	out->bytes = bytes;
	out->size = Q7_PL_HEADER_SIZE + (size_t)load_size;
	return 0;
}

int q7_prelink_memory(const struct q7_prelink_opts *opts, const void *buf, size_t size,
                      const char *name, struct q7_prelinked *out, struct q7_err *err)
{
	memset(out, 0, sizeof *out);
	q7_err_clear(err);
	const unsigned char *p = buf;
	if (size < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG) != 0) {
		q7_err_set(err, name, "not an ELF file");
		return 1;
	}
	struct q7_pl_img im = {.name = name, .p = p, .size = size};
	/* A packed object (ET_REL) carries the image under its symbol; anything
	 * else is taken to be the image itself. */
	if (size >= sizeof(Elf32_Ehdr) && p[EI_CLASS] == ELFCLASS32 && p[EI_DATA] == ELFDATA2LSB &&
	    q7_le16(p + 16) == ET_REL) {
		size_t off, len;
		if (q7_le16(p + 18) != EM_XTENSA) {
			q7_err_set(err, name, "not an Xtensa packed object (machine %u)",
			           q7_le16(p + 18));
			return 1;
		}
		const char *sym = opts->symbol ? opts->symbol : "lib_func";
		if (q7_pl_extract(p, size, name, sym, &off, &len, err))
			return 1;
		im.p = p + off;
		im.size = len;
	}
	return prelink_image(opts, &im, out, err);
}

int q7_prelink_file(const struct q7_prelink_opts *opts, const char *path,
                    struct q7_prelinked *out, struct q7_err *err)
{
	size_t len;
	const char *why;
	char *buf = q7_read_regular(path, Q7_READ_IMAGE_MAX, &len, &why);
	if (!buf) {
		memset(out, 0, sizeof *out);
		q7_err_set(err, path, "cannot read: %s", why);
		return 1;
	}
	int rc = q7_prelink_memory(opts, buf, len, path, out, err);
	free(buf);
	return rc;
}

int q7_prelinked_check_window(const struct q7_pl_header *hdr, const char **why)
{
	if (hdr->flags == Q7_PL_F_BASE)
		return 0;
	const struct q7_lsp *lsp = q7_lsp_get(hdr->flags == Q7_PL_F_CORE ? hdr->core : Q7_LSP_SINGLE);
	if (!lsp || hdr->base != lsp->sram_org) {
		*why = "prelinked image says it sits at a window, but its base is not that window's";
		return 1;
	}
	if ((uint64_t)hdr->load_size + hdr->bss_size > lsp->sram_len) {
		*why = "prelinked image is larger than the window it says it sits at";
		return 1;
	}
	return 0;
}

void q7_prelinked_free(struct q7_prelinked *pl)
{
	free(pl->bytes);
	pl->bytes = NULL;
	pl->size = 0;
}
