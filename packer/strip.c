/* packer/strip: the stripped image, planned then written.
 *
 * Planning decides what survives (strip's rules, then the vendor's list)
 * and where every surviving byte goes; writing is then one libelf pass with
 * ELF_F_LAYOUT over the input's raw bytes, so section contents are copied
 * untouched whatever the image's byte order; but for bind.c's patches
 * (docs/packer.md, "Binding without -l"). */
#include "strip.h"
#include "bind.h"
#include "elfio.h"
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* docs/vendor-flow.md, "Pack recipe", step 2: always removed, and removed unless -l. */
static const char *const vendor_drop[] = {
	".xtensa.info", ".xt.lit", ".xt.prop", ".interp", ".got.loc", ".got",
};
static const char *const symlookup_drop[] = {".hash", ".dynstr", ".dynsym", ".rela.plt"};

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(name, list[i]) == 0)
			return true;
	}
	return false;
}

/* What BFD flags SEC_DEBUGGING, which strip's default removes. */
static bool is_debug(const char *n)
{
	return starts(n, ".debug") || starts(n, ".zdebug") || starts(n, ".gnu.linkonce.wi.") ||
	       starts(n, ".line") || starts(n, ".stab") || strcmp(n, ".gdb_index") == 0;
}

static void decide(const struct q7_image *im, bool symlookup, bool *drop)
{
	size_t n = im->shnum;
	drop[0] = true; /* recreated */
	drop[im->shstrndx] = true; /* rebuilt, last */
	/* docs/packer.md, "What the stripped image is": strip, the vendor's
	 * list, every empty section. */
	for (size_t i = 1; i < n; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		bool alloc = sh->sh_flags & SHF_ALLOC;
		bool rel = sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA;
		if (sh->sh_type == SHT_SYMTAB || sh->sh_type == SHT_SYMTAB_SHNDX ||
		    (!alloc && is_debug(im->sec[i].name)) ||
		    (rel && !alloc && im->sec[sh->sh_link].sh.sh_type == SHT_SYMTAB))
			drop[i] = true;
	}
	for (size_t i = 1; i < n; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		if (sh->sh_type != SHT_SYMTAB)
			continue;
		size_t s = sh->sh_link;
		bool used = false;
		for (size_t j = 1; j < n; j++) {
			if (!drop[j] && im->sec[j].sh.sh_link == s)
				used = true;
		}
		if (s && !used && !(im->sec[s].sh.sh_flags & SHF_ALLOC))
			drop[s] = true;
	}
	for (size_t i = 1; i < n; i++) {
		const char *name = im->sec[i].name;
		if (in_list(name, vendor_drop, sizeof vendor_drop / sizeof *vendor_drop) ||
		    (!symlookup && in_list(name, symlookup_drop, sizeof symlookup_drop / sizeof *symlookup_drop)) ||
		    im->sec[i].sh.sh_size == 0)
			drop[i] = true;
	}
}

/* The section name table as BFD builds it (docs/packer.md, "What the
 * stripped image is"). */
struct str {
	const char *s;
	size_t len, off;
	long host; /* index of the string holding it, -1 */
};

static int revcmp(const void *a, const void *b)
{
	const struct str *x = *(const struct str *const *)a, *y = *(const struct str *const *)b;
	size_t l = x->len < y->len ? x->len : y->len;
	for (size_t i = 1; i <= l; i++) {
		int cx = (signed char)x->s[x->len - i], cy = (signed char)y->s[y->len - i];
		if (cx != cy)
			return cx - cy;
	}
	return x->len < y->len ? -1 : x->len > y->len;
}

static void build_names(const struct q7_image *im, struct q7_strip_plan *p)
{
	size_t n = p->nkeep + 1, u = 0;
	struct str *v = q7_xcalloc(n, sizeof *v);
	size_t *which = q7_xcalloc(n, sizeof *which); /* per name: its unique string */
	for (size_t k = 0; k < n; k++) {
		const char *s = k == 0 ? ".shstrtab" : im->sec[p->keep[k - 1]].name;
		size_t j = 0;
		while (j < u && strcmp(v[j].s, s) != 0)
			j++;
		if (j == u)
			v[u++] = (struct str){s, strlen(s), 0, -1};
		which[k] = j;
	}
	struct str **sorted = q7_xcalloc(u ? u : 1, sizeof *sorted);
	size_t m = 0;
	for (size_t j = 0; j < u; j++) {
		if (v[j].len)
			sorted[m++] = &v[j];
	}
	qsort(sorted, m, sizeof *sorted, revcmp);
	struct str *e = m ? sorted[m - 1] : NULL;
	for (size_t i = m - 1; m && i-- > 0;) {
		struct str *c = sorted[i];
		if (c->len < e->len && memcmp(e->s + e->len - c->len, c->s, c->len) == 0)
			c->host = e - v;
		else
			e = c;
	}
	struct q7_strbuf b = {0};
	q7_sb_addc(&b, '\0');
	for (size_t j = 0; j < u; j++) {
		if (v[j].len && v[j].host < 0) {
			v[j].off = b.len;
			q7_sb_addn(&b, v[j].s, v[j].len);
			q7_sb_addc(&b, '\0');
		}
	}
	for (size_t j = 0; j < u; j++) {
		if (v[j].host >= 0)
			v[j].off = v[v[j].host].off + v[v[j].host].len - v[j].len;
	}
	p->shstr_name = (GElf_Word)v[which[0]].off;
	for (size_t k = 1; k < n; k++)
		p->name[p->keep[k - 1]] = (GElf_Word)v[which[k]].off;
	p->shstr_len = b.len;
	p->shstr = q7_sb_take(&b);
	free(sorted);
	free(which);
	free(v);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}

/* The smallest offset >= pos congruent to addr modulo m. */
static uint64_t congruent(uint64_t pos, uint64_t addr, uint64_t m)
{
	if (m <= 1)
		return pos;
	return pos + ((addr % m) + m - (pos % m)) % m;
}

/* Lays out one segment from the sections left in it; for PT_LOAD also
 * places those sections. Returns the end of its file contents. */
static uint64_t plan_segment(const struct q7_image *im, struct q7_strip_plan *p, size_t j,
                             uint64_t pos, unsigned long pagesize, bool *placed)
{
	const GElf_Phdr *in = &im->ph[j];
	GElf_Phdr *out = &p->ph[j];
	bool load = in->p_type == PT_LOAD;
	uint64_t hdr_end = im->eh.e_ehsize + (uint64_t)im->phnum * im->eh.e_phentsize;
	bool has_hdr = in->p_offset == 0 && in->p_filesz >= hdr_end;
	*out = *in;
	if (in->p_type == PT_PHDR) {
		out->p_offset = im->phnum ? im->eh.e_ehsize : 0;
		return pos;
	}
	if (load && pagesize > out->p_align)
		out->p_align = pagesize;
	/* The first section by address, before and after the removals. */
	size_t first_in = 0, first_kept = 0;
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		bool member = load ? im->sec[i].load == (int)j : q7_image_in_segment(sh, in, false);
		if (!member || (!load && sh->sh_size == 0))
			continue;
		if (!first_in || sh->sh_addr < im->sec[first_in].sh.sh_addr)
			first_in = i;
		if (p->newidx[i] && (!first_kept || sh->sh_addr < im->sec[first_kept].sh.sh_addr))
			first_kept = i;
	}
	if (!first_kept) {
		if (first_in || load) { /* everything in it went */
			out->p_filesz = has_hdr ? hdr_end : 0;
			out->p_memsz = out->p_filesz;
			out->p_offset = has_hdr ? 0 : load ? pos : 0;
		}
		return pos;
	}
	uint64_t delta = has_hdr ? 0 : im->sec[first_kept].sh.sh_addr - im->sec[first_in].sh.sh_addr;
	out->p_vaddr = in->p_vaddr + delta;
	out->p_paddr = in->p_paddr + delta;
	uint64_t m = out->p_align, fend = 0, mend = 0;
	if (load)
		out->p_offset = has_hdr ? 0 : congruent(pos, out->p_vaddr, m);
	else
		out->p_offset = p->off[first_kept] - (im->sec[first_kept].sh.sh_addr - out->p_vaddr);
	if (has_hdr)
		fend = hdr_end;
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		bool member = load ? im->sec[i].load == (int)j : q7_image_in_segment(sh, in, false);
		if (!member || !p->newidx[i])
			continue;
		uint64_t rel = sh->sh_addr - out->p_vaddr;
		if (sh->sh_type != SHT_NOBITS && rel + sh->sh_size > fend)
			fend = rel + sh->sh_size;
		if (rel + sh->sh_size > mend)
			mend = rel + sh->sh_size;
	}
	out->p_filesz = fend;
	out->p_memsz = mend > fend ? mend : fend;
	if (in->p_type == PT_GNU_RELRO) /* BFD keeps its size as linked */
		out->p_memsz = in->p_memsz;
	if (!load)
		return pos;
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		if (im->sec[i].load != (int)j || !p->newidx[i])
			continue;
		uint64_t rel = sh->sh_addr - out->p_vaddr;
		p->off[i] = out->p_offset + (sh->sh_type == SHT_NOBITS && rel > fend ? fend : rel);
		placed[i] = true;
	}
	uint64_t end = out->p_offset + fend;
	return end > pos ? end : pos;
}

void q7_strip_plan(const struct q7_image *im, unsigned long pagesize, bool symlookup,
                   struct q7_strip_plan *p)
{
	memset(p, 0, sizeof *p);
	size_t n = im->shnum;
	bool *drop = q7_xcalloc(n, sizeof *drop), *placed = q7_xcalloc(n, sizeof *placed);
	p->keep = q7_xcalloc(n, sizeof *p->keep);
	p->newidx = q7_xcalloc(n, sizeof *p->newidx);
	p->off = q7_xcalloc(n, sizeof *p->off);
	p->name = q7_xcalloc(n, sizeof *p->name);
	p->ph = q7_xcalloc(im->phnum ? im->phnum : 1, sizeof *p->ph);
	decide(im, symlookup, drop);
	for (size_t i = 1; i < n; i++) {
		if (!drop[i]) {
			p->keep[p->nkeep++] = i;
			p->newidx[i] = p->nkeep;
		}
	}
	p->shnum = p->nkeep + 2;
	build_names(im, p);

	uint64_t pos = im->eh.e_ehsize + (uint64_t)im->phnum * im->eh.e_phentsize;
	for (size_t j = 0; j < im->phnum; j++) {
		if (im->ph[j].p_type == PT_LOAD)
			pos = plan_segment(im, p, j, pos, pagesize, placed);
	}
	for (size_t j = 0; j < im->phnum; j++) {
		if (im->ph[j].p_type != PT_LOAD)
			plan_segment(im, p, j, pos, pagesize, placed);
	}
	/* Everything not loaded follows, in section order. */
	for (size_t k = 0; k < p->nkeep; k++) {
		size_t i = p->keep[k];
		const GElf_Shdr *sh = &im->sec[i].sh;
		if (placed[i])
			continue;
		if (sh->sh_type == SHT_NOBITS) {
			p->off[i] = pos;
			continue;
		}
		p->off[i] = align_up(pos, sh->sh_addralign);
		pos = p->off[i] + sh->sh_size;
	}
	p->shstr_off = pos;
	pos += p->shstr_len;
	p->shoff = align_up(pos, im->cls == ELFCLASS32 ? 4 : 8);
	p->total = p->shoff + p->shnum * im->eh.e_shentsize;
	free(drop);
	free(placed);
}

void q7_strip_plan_free(struct q7_strip_plan *p)
{
	free(p->keep);
	free(p->newidx);
	free(p->off);
	free(p->name);
	free(p->ph);
	free(p->shstr);
	memset(p, 0, sizeof *p);
}

char *q7_strip_dropped(const struct q7_image *im, const struct q7_strip_plan *p)
{
	struct q7_strbuf b = {0};
	for (size_t i = 1; i < im->shnum; i++) {
		if (!p->newidx[i] && i != im->shstrndx) {
			if (b.len)
				q7_sb_addc(&b, ' ');
			q7_sb_add(&b, *im->sec[i].name ? im->sec[i].name : "(unnamed)");
		}
	}
	return q7_sb_take(&b);
}

/* The output index of input section i; 0 when dropped or not a section
 * (sh_info of a REL section without SHF_INFO_LINK is not checked). */
static GElf_Word remap(const struct q7_image *im, const struct q7_strip_plan *p, GElf_Word i)
{
	return i < im->shnum ? (GElf_Word)p->newidx[i] : 0;
}

/* copies[k] gets the patched copy of kept section k, if b patches it; the
 * caller frees them once libelf has written the file. */
static int write_out(const struct q7_image *im, const struct q7_strip_plan *p,
                     const struct q7_bind *b, unsigned char **copies, Elf *out)
{
	if (!gelf_newehdr(out, im->cls) || (im->phnum && !gelf_newphdr(out, im->phnum)))
		return -1;
	for (size_t k = 0; k <= p->nkeep; k++) {
		GElf_Shdr sh = {0};
		void *buf = p->shstr;
		if (k == p->nkeep) { /* .shstrtab */
			sh.sh_name = p->shstr_name;
			sh.sh_type = SHT_STRTAB;
			sh.sh_offset = p->shstr_off;
			sh.sh_size = p->shstr_len;
			sh.sh_addralign = 1;
		} else {
			size_t i = p->keep[k];
			sh = im->sec[i].sh;
			sh.sh_name = p->name[i];
			sh.sh_offset = p->off[i];
			sh.sh_link = remap(im, p, sh.sh_link);
			if ((sh.sh_flags & SHF_INFO_LINK) ||
			    ((sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA) && sh.sh_info)) {
				sh.sh_info = remap(im, p, sh.sh_info);
				/* objcopy: no target section left, no info link. */
				if (!sh.sh_info)
					sh.sh_flags &= ~(GElf_Xword)SHF_INFO_LINK;
			}
			copies[k] = q7_bind_patched(b, im, i);
			buf = copies[k] ? copies[k] : (void *)q7_image_bytes(im, i);
		}
		/* The bytes as they are, where the header says (ELF_F_LAYOUT). */
		Elf_Scn *scn = q7_elf_add_section(out, 0, 0, 0, 1, ELF_T_BYTE, buf, sh.sh_size);
		if (!scn || !gelf_update_shdr(scn, &sh))
			return -1;
	}
	GElf_Ehdr eh = im->eh;
	eh.e_phoff = im->phnum ? eh.e_ehsize : 0;
	eh.e_shoff = p->shoff;
	eh.e_phnum = (GElf_Half)im->phnum;
	if (!gelf_update_ehdr(out, &eh) || q7_elf_set_shstrndx(out, p->nkeep + 1) != 0)
		return -1;
	for (size_t j = 0; j < im->phnum; j++) {
		if (!gelf_update_phdr(out, (int)j, &p->ph[j]))
			return -1;
	}
	elf_flagelf(out, ELF_C_SET, ELF_F_LAYOUT);
	return q7_elf_write(out) != 0 ? -1 : 0;
}

int q7_strip_write(const struct q7_image *im, const struct q7_strip_plan *p,
                   const struct q7_bind *b, int fd, const char *outname, struct q7_err *err)
{
	elf_fill(0);
	unsigned char **copies = q7_xcalloc(p->nkeep + 1, sizeof *copies);
	Elf *out = elf_begin(fd, ELF_C_WRITE, NULL);
	int rc = out ? write_out(im, p, b, copies, out) : -1;
	if (rc != 0)
		q7_elf_error(err, outname, "writing the stripped image");
	if (out)
		elf_end(out);
	for (size_t k = 0; k <= p->nkeep; k++)
		free(copies[k]);
	free(copies);
	return rc == 0 ? 0 : -1;
}
