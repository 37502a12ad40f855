/* The host library check (engine.h, q7_host_elf_check): the file read whole, then the
 * header, the program headers and the dynamic section's tables walked
 * with every offset and count checked against the bytes there are.
 * Addresses are the file's own (the library is not placed yet): an
 * address is good when it lies inside a PT_LOAD segment, and its bytes
 * are the file's when it lies inside the segment's file part.
 *
 * Memory: everything read is freed before the check returns. */
#include "engine.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#define HOST_MACHINE_NAME "x86-64"
#define RELATIVE R_X86_64_RELATIVE
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#define HOST_MACHINE_NAME "AArch64"
#define RELATIVE R_AARCH64_RELATIVE
#else
#error "the host library check knows x86-64 and AArch64"
#endif

#define MAX_LOADS 32
#define PAGE 4096u /* the loader maps whole pages: offset and address agree modulo one */
#define MAX_WALK 100000 /* version records, hash chains: far past any real library */

typedef ElfW(Ehdr) Ehdr;
typedef ElfW(Phdr) Phdr;
typedef ElfW(Dyn) Dyn;
typedef ElfW(Sym) Sym;
typedef ElfW(Rela) Rela;

struct lib {
	const char *path;
	const unsigned char *b;
	uint64_t n;
	const Phdr *load[MAX_LOADS];
	unsigned nload;
	bool has_tls;
	/* from the dynamic section */
	uint64_t d[DT_NUM];          /* the standard tags' values */
	bool has[DT_NUM];
	uint64_t gnu_hash, versym, verneed, verdef, flags_1, relacount;
	bool has_gnu_hash, has_versym, has_verneed, has_verdef;
	const char *strtab;
	uint64_t strsz;
	const Sym *syms;
	uint64_t nsyms;
	unsigned max_version; /* the highest version index the records define */
	struct q7_err err;
};

static int bad(struct lib *l, const char *fmt, ...) Q7_PRINTF(2, 3);
static int bad(struct lib *l, const char *fmt, ...)
{
	char why[256]; /* the longest reason is under 150 bytes */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	q7_err_set(&l->err, l->path, "damaged host library: %s", why);
	return -1;
}

/* [a, a + len) without wrapping. */
static bool span_ok(uint64_t a, uint64_t len)
{
	return a + len >= a;
}

/* The PT_LOAD whose memory holds [a, a + len), or NULL. */
static const Phdr *seg_of(const struct lib *l, uint64_t a, uint64_t len)
{
	if (!span_ok(a, len))
		return NULL;
	for (unsigned i = 0; i < l->nload; i++) {
		const Phdr *p = l->load[i];
		if (a >= p->p_vaddr && a + len <= p->p_vaddr + p->p_memsz)
			return p;
	}
	return NULL;
}

/* The file's bytes at address [a, a + len), aligned to align, or NULL
 * when they are not all in one segment's file part or misaligned (a
 * segment's address and offset agree modulo the page size, so the file
 * buffer, malloc'd, is aligned where the loaded image would be). */
static const void *at_aligned(const struct lib *l, uint64_t a, uint64_t len, uint64_t align)
{
	const Phdr *p = seg_of(l, a, len);
	if (!p || a + len > p->p_vaddr + p->p_filesz || a % align != 0)
		return NULL;
	return l->b + p->p_offset + (a - p->p_vaddr);
}
#define at(l, a, len) at_aligned((l), (a), (len), sizeof(ElfW(Addr)))
#define at32(l, a, len) at_aligned((l), (a), (len), 4)

static bool executable(const struct lib *l, uint64_t a)
{
	const Phdr *p = seg_of(l, a, 1);
	return p && (p->p_flags & PF_X);
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check_header(struct lib *l)
{
	const Ehdr *h = (const Ehdr *)l->b;
	if (l->n < sizeof *h || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0) {
		q7_err_set(&l->err, l->path, "cannot load: not an ELF file (a host library is a "
		           "shared library q7cc linked with its host profile)");
		return -1;
	}
	if (h->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
		return bad(l, "ELF class %u, this host loads ELF%zu", h->e_ident[EI_CLASS],
		           8 * sizeof(void *));
	if (h->e_ident[EI_DATA] != ELFDATA2LSB)
		return bad(l, "byte order %u, not little-endian", h->e_ident[EI_DATA]);
	if (h->e_ident[EI_VERSION] != EV_CURRENT || h->e_version != EV_CURRENT)
		return bad(l, "ELF version %u/%u, not %u", h->e_ident[EI_VERSION], (unsigned)h->e_version,
		           EV_CURRENT);
	if (h->e_ident[EI_OSABI] != ELFOSABI_SYSV && h->e_ident[EI_OSABI] != ELFOSABI_GNU)
		return bad(l, "OS ABI %u", h->e_ident[EI_OSABI]);
	if (h->e_type != ET_DYN)
		return bad(l, "ELF type %u, not a shared library (%u)", h->e_type, ET_DYN);
	if (h->e_machine != HOST_MACHINE)
		return bad(l, "machine %u, not %s", h->e_machine, HOST_MACHINE_NAME);
	if (h->e_phentsize != sizeof(Phdr) || h->e_phnum == 0 || h->e_phnum == PN_XNUM)
		return bad(l, "%u program headers of %u bytes", h->e_phnum, h->e_phentsize);
	uint64_t end = (uint64_t)h->e_phoff + (uint64_t)h->e_phnum * sizeof(Phdr);
	if (h->e_phoff % sizeof(uint64_t) != 0 || end > l->n || end < h->e_phoff)
		return bad(l, "the program headers (offset 0x%llx) lie outside the file's %llu bytes",
		           (unsigned long long)h->e_phoff, (unsigned long long)l->n);
	return 0;
}

/* Notes: each header and its padded name and descriptor inside [p, p+len). */
static int check_notes(struct lib *l, unsigned i, const unsigned char *p, uint64_t len,
                       uint64_t align)
{
	uint64_t off = 0;
	for (unsigned k = 0; off < len && k < MAX_WALK; k++) {
		ElfW(Nhdr) nh;
		if (len - off < sizeof nh)
			return bad(l, "program header %u: a note header is cut short", i);
		memcpy(&nh, p + off, sizeof nh);
		/* The descriptor starts, and the next note, at the alignment. */
		uint64_t desc = (off + sizeof nh + nh.n_namesz + align - 1) & ~(align - 1);
		uint64_t next = (desc + nh.n_descsz + align - 1) & ~(align - 1);
		if (desc > len || nh.n_descsz > len - desc)
			return bad(l, "program header %u: a note of %u + %u bytes runs past its segment", i,
			           (unsigned)nh.n_namesz, (unsigned)nh.n_descsz);
		off = next;
	}
	return 0;
}

/* Program header i, a loadable segment: its sizes, its alignment, its
 * place (above the one before it); kept in l->load. */
static int add_load_segment(struct lib *l, unsigned i, const Phdr *p)
{
	if (l->nload == MAX_LOADS)
		return bad(l, "more than %d loadable segments", MAX_LOADS);
	if (p->p_filesz > p->p_memsz)
		return bad(l, "program header %u: %llu bytes in the file, only %llu in memory", i,
		           (unsigned long long)p->p_filesz, (unsigned long long)p->p_memsz);
	if ((p->p_vaddr - p->p_offset) % PAGE != 0 ||
	    (p->p_align > 1 && (!pow2(p->p_align) || p->p_vaddr % p->p_align !=
	                                                 p->p_offset % p->p_align)))
		return bad(l, "program header %u: address 0x%llx and offset 0x%llx do not agree "
		           "modulo the alignment 0x%llx",
		           i, (unsigned long long)p->p_vaddr, (unsigned long long)p->p_offset,
		           (unsigned long long)p->p_align);
	if (!span_ok(p->p_vaddr, p->p_memsz) || p->p_vaddr + p->p_memsz > ((uint64_t)1 << 40))
		return bad(l, "program header %u: %llu bytes at 0x%llx", i,
		           (unsigned long long)p->p_memsz, (unsigned long long)p->p_vaddr);
	if (l->nload) {
		const Phdr *prev = l->load[l->nload - 1];
		if (p->p_vaddr < prev->p_vaddr + prev->p_memsz)
			return bad(l, "program header %u: segment at 0x%llx overlaps or precedes the "
			           "one before it",
			           i, (unsigned long long)p->p_vaddr);
	}
	l->load[l->nload++] = p;
	return 0;
}

static int check_segments(struct lib *l)
{
	const Ehdr *h = (const Ehdr *)l->b;
	const Phdr *ph = (const Phdr *)(l->b + h->e_phoff);
	unsigned ndyn = 0;
	for (unsigned i = 0; i < h->e_phnum; i++) {
		const Phdr *p = &ph[i];
		if (p->p_type == PT_NULL)
			continue;
		if (p->p_offset > l->n || p->p_filesz > l->n - p->p_offset)
			return bad(l, "program header %u (type 0x%x): its %llu bytes at offset 0x%llx lie "
			           "past the end of the file (%llu bytes)",
			           i, (unsigned)p->p_type, (unsigned long long)p->p_filesz,
			           (unsigned long long)p->p_offset, (unsigned long long)l->n);
		if (p->p_type == PT_LOAD && add_load_segment(l, i, p) != 0)
			return -1;
	}
	if (l->nload == 0)
		return bad(l, "no loadable segment");
	for (unsigned i = 0; i < h->e_phnum; i++) {
		const Phdr *p = &ph[i];
		switch (p->p_type) {
		case PT_DYNAMIC:
			ndyn++;
			if (p->p_filesz < sizeof(Dyn) || p->p_filesz % sizeof(Dyn) != 0 ||
			    !at(l, p->p_vaddr, p->p_filesz))
				return bad(l, "the dynamic section (program header %u: %llu bytes at 0x%llx) is "
				           "not inside a loaded segment",
				           i, (unsigned long long)p->p_filesz, (unsigned long long)p->p_vaddr);
			break;
		case PT_TLS:
			l->has_tls = true;
			if (p->p_filesz > p->p_memsz || (p->p_align > 1 && !pow2(p->p_align)) ||
			    p->p_memsz > ((uint64_t)1 << 30) ||
			    (p->p_filesz && !at_aligned(l, p->p_vaddr, p->p_filesz, 1)))
				return bad(l, "program header %u: a thread-local segment of %llu bytes (%llu in "
				           "the file) at 0x%llx, aligned 0x%llx",
				           i, (unsigned long long)p->p_memsz, (unsigned long long)p->p_filesz,
				           (unsigned long long)p->p_vaddr, (unsigned long long)p->p_align);
			break;
		case PT_GNU_RELRO:
			if (!seg_of(l, p->p_vaddr, p->p_memsz))
				return bad(l, "program header %u: the read-only-after-relocation range (%llu bytes "
				           "at 0x%llx) is not inside a loaded segment",
				           i, (unsigned long long)p->p_memsz, (unsigned long long)p->p_vaddr);
			break;
		case PT_NOTE:
		case PT_GNU_PROPERTY:
			/* The loader parses the GNU property notes from memory. */
			if (p->p_type == PT_GNU_PROPERTY && !at(l, p->p_vaddr, p->p_filesz))
				return bad(l, "program header %u: the property notes are not inside a loaded "
				           "segment", i);
			if (check_notes(l, i, l->b + p->p_offset, p->p_filesz,
			                p->p_align == 8 ? 8 : 4) != 0)
				return -1;
			break;
		default:
			break;
		}
	}
	if (ndyn != 1)
		return bad(l, "%u dynamic sections, a shared library has one", ndyn);
	return 0;
}

/* Reads the dynamic entries up to DT_NULL. */
static int read_dynamic(struct lib *l)
{
	const Ehdr *h = (const Ehdr *)l->b;
	const Phdr *ph = (const Phdr *)(l->b + h->e_phoff);
	const Phdr *dp = NULL;
	for (unsigned i = 0; i < h->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dp = &ph[i];
	const Dyn *d = at(l, dp->p_vaddr, dp->p_filesz);
	uint64_t n = dp->p_filesz / sizeof(Dyn);
	uint64_t i = 0;
	for (; i < n && d[i].d_tag != DT_NULL; i++) {
		int64_t tag = d[i].d_tag;
		uint64_t v = d[i].d_un.d_val;
		if (tag >= 0 && tag < DT_NUM) {
			l->d[tag] = v;
			l->has[tag] = true;
		}
		switch (tag) {
		case DT_GNU_HASH: l->gnu_hash = v; l->has_gnu_hash = true; break;
		case DT_VERSYM: l->versym = v; l->has_versym = true; break;
		case DT_VERNEED: l->verneed = v; l->has_verneed = true; break;
		case DT_VERDEF: l->verdef = v; l->has_verdef = true; break;
		case DT_FLAGS_1: l->flags_1 = v; break;
		case DT_RELACOUNT: l->relacount = v; break;
		default: break;
		}
	}
	if (i == n)
		return bad(l, "the dynamic section has no end (DT_NULL)");
	return 0;
}

/* A string table offset: inside the table (whose last byte is NUL). */
static int check_str(struct lib *l, uint64_t off, const char *what)
{
	if (off >= l->strsz)
		return bad(l, "%s: string offset %llu is past the string table's %llu bytes", what,
		           (unsigned long long)off, (unsigned long long)l->strsz);
	return 0;
}

static int check_strings(struct lib *l)
{
	if (!l->has[DT_STRTAB] || !l->has[DT_STRSZ] || l->d[DT_STRSZ] == 0)
		return bad(l, "no string table in the dynamic section");
	l->strsz = l->d[DT_STRSZ];
	l->strtab = at_aligned(l, l->d[DT_STRTAB], l->strsz, 1);
	if (!l->strtab)
		return bad(l, "the string table (%llu bytes at 0x%llx) is not inside a loaded segment",
		           (unsigned long long)l->strsz, (unsigned long long)l->d[DT_STRTAB]);
	if (l->strtab[l->strsz - 1] != 0)
		return bad(l, "the string table does not end with a NUL");
	return 0;
}

/* The loader files a tag it does not know by its low 32 bits (glibc's
 * DT_EXTRATAGIDX): DT_FILTER and DT_AUXILIARY, whose strings it loads,
 * are any tag that comes out as one of them. */
static bool filter_tag(int64_t t)
{
	int32_t low = (int32_t)((uint32_t)t << 1);
	uint32_t idx = (uint32_t)(-(int64_t)(low >> 1) - 1);
	return t == DT_FILTER || t == DT_AUXILIARY || idx == 0 || idx == 2;
}

/* Each DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH, ... names a string. */
static int check_named(struct lib *l)
{
	const Ehdr *h = (const Ehdr *)l->b;
	const Phdr *ph = (const Phdr *)(l->b + h->e_phoff);
	for (unsigned i = 0; i < h->e_phnum; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		const Dyn *d = at(l, ph[i].p_vaddr, ph[i].p_filesz);
		for (uint64_t k = 0; d[k].d_tag != DT_NULL; k++) {
			int64_t t = d[k].d_tag;
			/* A filter's library is loaded in its place: never a kernel
			 * library's, and "" makes the loader load itself for ever. */
			if (filter_tag(t))
				return bad(l, "a filter library (DT_FILTER or DT_AUXILIARY), which a kernel "
				           "library is not");
			if ((t == DT_NEEDED || t == DT_SONAME || t == DT_RPATH || t == DT_RUNPATH ||
			     t == DT_AUDIT || t == DT_DEPAUDIT) &&
			    check_str(l, d[k].d_un.d_val, "a library or path name") != 0)
				return -1;
			if (t == DT_NEEDED && l->strtab[d[k].d_un.d_val] == 0)
				return bad(l, "a needed library with an empty name");
		}
	}
	return 0;
}

/* Calls fn(tag, name, arg) for each DT_NEEDED and DT_SONAME string of
 * l (checked by check_named), until it returns true: then true. */
static bool each_name(const struct lib *l, bool (*fn)(int64_t, const char *, void *), void *arg)
{
	const Ehdr *h = (const Ehdr *)l->b;
	const Phdr *ph = (const Phdr *)(l->b + h->e_phoff);
	for (unsigned i = 0; i < h->e_phnum; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		const Dyn *d = at(l, ph[i].p_vaddr, ph[i].p_filesz);
		for (uint64_t k = 0; d[k].d_tag != DT_NULL; k++)
			if ((d[k].d_tag == DT_NEEDED || d[k].d_tag == DT_SONAME) &&
			    fn(d[k].d_tag, l->strtab + d[k].d_un.d_val, arg))
				return true;
	}
	return false;
}

static bool same_name(int64_t tag, const char *name, void *arg)
{
	(void)tag;
	return strcmp(name, arg) == 0;
}

/* Is name one of the DT_NEEDED libraries, or this one's DT_SONAME? */
static bool needed(const struct lib *l, const char *name)
{
	return each_name(l, same_name, (void *)name);
}

/* The symbol count, from the hash tables the loader looks symbols up in:
 * every bucket and chain inside the table and pointing at a symbol. */
static int check_hash(struct lib *l)
{
	if (!l->has[DT_HASH] && !l->has_gnu_hash)
		return bad(l, "no symbol hash table (DT_HASH or DT_GNU_HASH)");
	uint64_t nsyms = 0;
	if (l->has[DT_HASH]) {
		const uint32_t *hh = at32(l, l->d[DT_HASH], 8);
		if (!hh)
			return bad(l, "the hash table (at 0x%llx) is not inside a loaded segment",
			           (unsigned long long)l->d[DT_HASH]);
		uint64_t nb = hh[0], nc = hh[1];
		const uint32_t *t = at32(l, l->d[DT_HASH], 8 + 4 * (nb + nc));
		if (nb == 0 || !t)
			return bad(l, "the hash table's %llu buckets and %llu chains do not fit its segment",
			           (unsigned long long)nb, (unsigned long long)nc);
		for (uint64_t i = 0; i < nb + nc; i++)
			if (t[2 + i] >= nc)
				return bad(l, "the hash table names symbol %u of %llu", t[2 + i],
				           (unsigned long long)nc);
		nsyms = nc;
	}
	if (l->has_gnu_hash) {
		const uint32_t *g = at(l, l->gnu_hash, 16);
		if (!g)
			return bad(l, "the GNU hash table (at 0x%llx) is not inside a loaded segment",
			           (unsigned long long)l->gnu_hash);
		uint64_t nb = g[0], symoff = g[1], nbloom = g[2], shift = g[3];
		uint64_t buckets = l->gnu_hash + 16 + nbloom * sizeof(ElfW(Addr));
		const uint32_t *b = nbloom < ((uint64_t)1 << 32) ? at32(l, buckets, 4 * nb) : NULL;
		if (nb == 0 || !pow2(nbloom) || shift >= 8 * sizeof(ElfW(Addr)) || !b ||
		    !at(l, l->gnu_hash + 16, nbloom * sizeof(ElfW(Addr))))
			return bad(l, "the GNU hash table (%llu buckets, a Bloom filter of %llu words, shift "
			           "%llu) does not fit its segment",
			           (unsigned long long)nb, (unsigned long long)nbloom, (unsigned long long)shift);
		/* A lookup walks a bucket's chain to an entry with its low bit
		 * set; every chain then ends where the one of the highest bucket
		 * ends (or before it), so that walk bounds them all. */
		uint64_t chains = buckets + 4 * nb, top = symoff, high = 0;
		for (uint64_t i = 0; i < nb; i++) {
			if (b[i] != 0 && b[i] < symoff)
				return bad(l, "a GNU hash bucket names symbol %u, below the first hashed, %llu",
				           b[i], (unsigned long long)symoff);
			if (b[i] > high)
				high = b[i];
		}
		for (uint64_t s = high; high != 0; s++) {
			const uint32_t *c = at32(l, chains + 4 * (s - symoff), 4);
			if (!c)
				return bad(l, "a GNU hash chain runs past its segment");
			top = s + 1;
			if (*c & 1)
				break;
		}
		if (top > nsyms)
			nsyms = top;
	}
	if (!l->has[DT_SYMTAB])
		return bad(l, "no symbol table in the dynamic section");
	if (l->has[DT_SYMENT] && l->d[DT_SYMENT] != sizeof(Sym))
		return bad(l, "symbol entries of %llu bytes, not %zu", (unsigned long long)l->d[DT_SYMENT],
		           sizeof(Sym));
	l->nsyms = nsyms;
	return 0;
}

/* Symbol i, which a lookup or a relocation reads: inside its segment,
 * named in the string table, of a defined version; an IFUNC's resolver,
 * which the loader calls while it relocates, in code. NULL after bad(). */
static const Sym *check_sym(struct lib *l, uint64_t i)
{
	const Sym *s = i < ((uint64_t)1 << 32) ? at(l, l->d[DT_SYMTAB] + i * sizeof(Sym), sizeof(Sym))
	                                       : NULL;
	if (!s)
		return bad(l, "symbol %llu is outside the loaded segments (the table is at 0x%llx)",
		           (unsigned long long)i, (unsigned long long)l->d[DT_SYMTAB]), NULL;
	if (check_str(l, s->st_name, "a symbol's name") != 0)
		return NULL;
	if (ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC && s->st_shndx != SHN_UNDEF &&
	    !executable(l, s->st_value))
		return bad(l, "symbol %s: an indirect function whose resolver (0x%llx) is not code",
		           l->strtab + s->st_name, (unsigned long long)s->st_value), NULL;
	if (l->has_versym) {
		const uint16_t *v = at_aligned(l, l->versym + 2 * i, 2, 2);
		if (!v)
			return bad(l, "the version of symbol %llu is outside the loaded segments",
			           (unsigned long long)i), NULL;
		if ((*v & 0x7fff) > l->max_version)
			return bad(l, "symbol %llu has version index %u; the records define up to %u",
			           (unsigned long long)i, *v & 0x7fff, l->max_version), NULL;
	}
	return s;
}

/* Every symbol a lookup may reach through the hash tables. */
static int check_syms(struct lib *l)
{
	for (uint64_t i = 0; i < l->nsyms; i++)
		if (!check_sym(l, i))
			return -1;
	return 0;
}

/* The version records: each inside its segment, names in the string
 * table, every library they name among the needed ones (else the loader
 * fails an assertion), and the symbols' version indices defined. The
 * loader follows each chain until a zero link, whatever the counts say,
 * so the walks here do too (a loop is refused). */
static int check_versions(struct lib *l)
{
	unsigned top = 1;
	if (l->has_verdef) {
		uint64_t a = l->verdef;
		for (unsigned i = 0;; i++) {
			const ElfW(Verdef) *v = at32(l, a, sizeof *v);
			if (!v || v->vd_version != 1 || i == MAX_WALK)
				return bad(l, "version definition %u (at 0x%llx) is damaged", i,
				           (unsigned long long)a);
			const ElfW(Verdaux) *x = v->vd_cnt ? at32(l, a + v->vd_aux, sizeof *x) : NULL;
			if (v->vd_cnt && !x)
				return bad(l, "version definition %u: its name is outside its segment", i);
			if (x && check_str(l, x->vda_name, "a version name") != 0)
				return -1;
			if ((v->vd_ndx & 0x7fff) > top)
				top = v->vd_ndx & 0x7fff;
			if (v->vd_next == 0)
				break;
			a += v->vd_next;
		}
	}
	if (l->has_verneed) {
		uint64_t a = l->verneed;
		for (unsigned i = 0;; i++) {
			const ElfW(Verneed) *v = at32(l, a, sizeof *v);
			if (!v || v->vn_version != 1 || i == MAX_WALK)
				return bad(l, "version requirement %u (at 0x%llx) is damaged", i,
				           (unsigned long long)a);
			if (check_str(l, v->vn_file, "a version requirement's library") != 0)
				return -1;
			if (!needed(l, l->strtab + v->vn_file))
				return bad(l, "versions are required of %s, which is not a needed library",
				           l->strtab + v->vn_file);
			uint64_t x = a + v->vn_aux;
			for (unsigned k = 0; v->vn_cnt; k++) {
				const ElfW(Vernaux) *n = at32(l, x, sizeof *n);
				if (!n || k == MAX_WALK)
					return bad(l, "version requirement %u: entry %u is damaged", i, k);
				if (check_str(l, n->vna_name, "a version name") != 0)
					return -1;
				if ((n->vna_other & 0x7fff) > top)
					top = n->vna_other & 0x7fff;
				if (n->vna_next == 0)
					break;
				x += n->vna_next;
			}
			if (v->vn_next == 0)
				break;
			a += v->vn_next;
		}
	}
	l->max_version = top;
	return 0;
}

/* What the loader does with each relocation type of this machine: the
 * bytes it writes (0: a type it would refuse), whether it names a symbol,
 * and whether it is a thread-local one. */
static unsigned reloc_size(uint32_t type, bool *tls, bool *ifunc)
{
	*tls = false;
	*ifunc = false;
#if defined(__x86_64__)
	switch (type) {
	case R_X86_64_NONE: return 1;
	case R_X86_64_64:
	case R_X86_64_GLOB_DAT:
	case R_X86_64_JUMP_SLOT:
	case R_X86_64_RELATIVE:
	case R_X86_64_SIZE64: return 8;
	case R_X86_64_IRELATIVE: *ifunc = true; return 8;
	case R_X86_64_32:
	case R_X86_64_PC32:
	case R_X86_64_SIZE32: return 4;
	case R_X86_64_DTPMOD64:
	case R_X86_64_DTPOFF64:
	case R_X86_64_TPOFF64: *tls = true; return 8;
	case R_X86_64_TLSDESC: *tls = true; return 16;
	default: return 0;
	}
#else
	(void)type;
	return 8;
#endif
}

static int check_relocs(struct lib *l, uint64_t addr, uint64_t size, const char *what)
{
	if (size == 0)
		return 0;
	const Rela *r = size % sizeof(Rela) == 0 ? at(l, addr, size) : NULL;
	if (!r)
		return bad(l, "the %s relocations (%llu bytes at 0x%llx) are not inside a loaded segment",
		           what, (unsigned long long)size, (unsigned long long)addr);
	bool textrel = l->has[DT_TEXTREL] || (l->has[DT_FLAGS] && (l->d[DT_FLAGS] & DF_TEXTREL));
	for (uint64_t i = 0; i < size / sizeof(Rela); i++) {
		uint32_t type = (uint32_t)ELF64_R_TYPE(r[i].r_info);
		uint64_t sym = ELF64_R_SYM(r[i].r_info);
		bool tls, ifunc;
		unsigned bytes = reloc_size(type, &tls, &ifunc);
		if (bytes == 0)
			return bad(l, "%s relocation %llu has type %u, which the loader does not take", what,
			           (unsigned long long)i, type);
		if (type == 0)
			continue;
		const Phdr *p = seg_of(l, r[i].r_offset, bytes);
		if (!p || (!(p->p_flags & PF_W) && !textrel))
			return bad(l, "%s relocation %llu writes %u bytes at 0x%llx, outside the writable "
			           "segments",
			           what, (unsigned long long)i, bytes, (unsigned long long)r[i].r_offset);
		const Sym *s = sym && sym >= l->nsyms ? check_sym(l, sym) : sym ? &l->syms[sym] : NULL;
		if (sym && !s)
			return -1;
		if (ifunc && !executable(l, (uint64_t)r[i].r_addend))
			return bad(l, "%s relocation %llu: an indirect function's resolver (0x%llx) is not "
			           "code",
			           what, (unsigned long long)i, (unsigned long long)r[i].r_addend);
		if (tls && !l->has_tls && (!s || s->st_shndx != SHN_UNDEF))
			return bad(l, "%s relocation %llu refers to thread-local storage, and the library "
			           "has none",
			           what, (unsigned long long)i);
	}
	return 0;
}

/* RELR: packed relative relocations, each address inside a writable
 * segment. */
static int check_relr(struct lib *l)
{
	uint64_t addr = l->has[DT_RELR] ? l->d[DT_RELR] : 0, size = l->d[DT_RELRSZ];
	if (!l->has[DT_RELR])
		return 0;
	if (l->has[DT_RELRENT] && l->d[DT_RELRENT] != sizeof(ElfW(Relr)))
		return bad(l, "packed relocation entries of %llu bytes", (unsigned long long)l->d[DT_RELRENT]);
	const ElfW(Relr) *r = size % sizeof *r == 0 ? at(l, addr, size) : NULL;
	if (!r && size)
		return bad(l, "the packed relocations are not inside a loaded segment");
	uint64_t where = 0;
	for (uint64_t i = 0; i < size / sizeof *r; i++) {
		uint64_t e = r[i];
		if (!(e & 1)) {
			where = e;
			const Phdr *p = seg_of(l, where, 8);
			if (!p || !(p->p_flags & PF_W))
				return bad(l, "a packed relocation writes at 0x%llx, outside the writable segments",
				           (unsigned long long)where);
			where += 8;
			continue;
		}
		for (unsigned bit = 1; bit < 64; bit++) {
			const Phdr *p = (e >> bit) & 1 ? seg_of(l, where + 8 * (bit - 1), 8) : NULL;
			if ((e >> bit) & 1 && (!p || !(p->p_flags & PF_W)))
				return bad(l, "a packed relocation writes at 0x%llx, outside the writable segments",
				           (unsigned long long)(where + 8 * (bit - 1)));
		}
		where += 8 * 63;
	}
	return 0;
}

/* What the loader leaves at address a: 1 and *value (an address in the
 * library) when a RELATIVE relocation, or a packed one, sets it; 2 when
 * another relocation does (a symbol's address); 0 when none does (the
 * file's bytes stay, unrelocated). */
static int relocated(const struct lib *l, uint64_t a, uint64_t *value)
{
	static const int tables[][2] = {{DT_RELA, DT_RELASZ}, {DT_JMPREL, DT_PLTRELSZ}};
	for (size_t t = 0; t < 2; t++) {
		uint64_t size = l->has[tables[t][0]] ? l->d[tables[t][1]] : 0;
		const Rela *r = size ? at(l, l->d[tables[t][0]], size) : NULL;
		for (uint64_t i = 0; r && i < size / sizeof(Rela); i++) {
			if (r[i].r_offset != a)
				continue;
			if (ELF64_R_TYPE(r[i].r_info) != RELATIVE)
				return 2;
			*value = (uint64_t)r[i].r_addend;
			return 1;
		}
	}
	uint64_t size = l->has[DT_RELR] ? l->d[DT_RELRSZ] : 0;
	const ElfW(Relr) *r = size ? at(l, l->d[DT_RELR], size) : NULL;
	uint64_t where = 0;
	for (uint64_t i = 0; r && i < size / sizeof *r; i++) {
		bool hit = false;
		if (!(r[i] & 1)) {
			hit = r[i] == a;
			where = r[i] + 8;
		} else {
			for (unsigned bit = 1; bit < 64 && !hit; bit++)
				hit = ((r[i] >> bit) & 1) && where + 8 * (bit - 1) == a;
			where += 8 * 63;
		}
		const uint64_t *v = hit ? at(l, a, 8) : NULL;
		if (v) {
			*value = *v;
			return 1;
		}
	}
	return 0;
}

/* The initialisers and finalisers the loader calls: code, each array
 * entry relocated (an unrelocated one would be called at its address in
 * the file, not in the loaded library). */
static int check_init(struct lib *l)
{
	static const struct {
		int tag, size;
		const char *what;
	} arrays[] = {{DT_INIT_ARRAY, DT_INIT_ARRAYSZ, "initialiser"},
	              {DT_FINI_ARRAY, DT_FINI_ARRAYSZ, "finaliser"}};
	if (l->has[DT_INIT] && !executable(l, l->d[DT_INIT]))
		return bad(l, "its initialiser (DT_INIT, 0x%llx) is not code",
		           (unsigned long long)l->d[DT_INIT]);
	if (l->has[DT_FINI] && !executable(l, l->d[DT_FINI]))
		return bad(l, "its finaliser (DT_FINI, 0x%llx) is not code",
		           (unsigned long long)l->d[DT_FINI]);
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
		if (!l->has[arrays[k].tag])
			continue;
		uint64_t a = l->d[arrays[k].tag], size = l->d[arrays[k].size];
		if (!l->has[arrays[k].size] || size % 8 != 0 || (size && !seg_of(l, a, size)))
			return bad(l, "its %s array (%llu bytes at 0x%llx) is not inside a loaded segment",
			           arrays[k].what, (unsigned long long)size, (unsigned long long)a);
		for (uint64_t i = 0; i < size / 8; i++) {
			uint64_t f = 0;
			int how = relocated(l, a + 8 * i, &f);
			if (how == 0)
				return bad(l, "%s %llu is not relocated", arrays[k].what, (unsigned long long)i);
			if (how == 1 && !executable(l, f))
				return bad(l, "%s %llu (0x%llx) is not code", arrays[k].what,
				           (unsigned long long)i, (unsigned long long)f);
		}
	}
	return 0;
}

static int check_dynamic(struct lib *l)
{
	if (read_dynamic(l) != 0 || check_strings(l) != 0 || check_named(l) != 0 ||
	    check_hash(l) != 0)
		return -1;
	if (l->flags_1 & DF_1_PIE)
		return bad(l, "a position-independent executable, not a library");
	if (l->has[DT_REL] || l->has[DT_RELSZ])
		return bad(l, "relocations without addends (DT_REL), which this host's loader refuses");
	if (l->has[DT_PLTREL] && l->d[DT_PLTREL] != DT_RELA)
		return bad(l, "PLT relocations of kind %llu, not DT_RELA", (unsigned long long)l->d[DT_PLTREL]);
	/* The loader reads (or asserts) these whenever their table is there. */
	if (l->has[DT_RELA] && (!l->has[DT_RELASZ] || !l->has[DT_RELAENT] ||
	                        l->d[DT_RELAENT] != sizeof(Rela)))
		return bad(l, "relocations without their size, or entries of %llu bytes, not %zu",
		           (unsigned long long)l->d[DT_RELAENT], sizeof(Rela));
	/* The loader takes the PLT's relocations when DT_PLTREL is there,
	 * reading DT_JMPREL and DT_PLTRELSZ. */
	if ((l->has[DT_PLTREL] || l->has[DT_JMPREL] || l->has[DT_PLTRELSZ]) &&
	    !(l->has[DT_PLTREL] && l->has[DT_JMPREL] && l->has[DT_PLTRELSZ]))
		return bad(l, "PLT relocations without their address, size or kind");
	/* Version records make the loader read the symbols' versions. */
	if ((l->has_verneed || l->has_verdef) && !l->has_versym)
		return bad(l, "version records without the symbols' versions (DT_VERSYM)");
	if (l->has[DT_RELR] && (!l->has[DT_RELRSZ] || !l->has[DT_RELRENT]))
		return bad(l, "packed relocations without their size or entry size");
	if (l->relacount) {
		/* The first ones are relative, the loader assumes (and asserts). */
		uint64_t n = l->has[DT_RELA] ? l->d[DT_RELASZ] / sizeof(Rela) : 0;
		const Rela *r = n ? at(l, l->d[DT_RELA], n * sizeof(Rela)) : NULL;
		if (l->relacount > n || !r)
			return bad(l, "%llu relative relocations announced, of %llu",
			           (unsigned long long)l->relacount, (unsigned long long)n);
		for (uint64_t i = 0; i < l->relacount; i++)
			if (ELF64_R_TYPE(r[i].r_info) != RELATIVE)
				return bad(l, "relocation %llu is announced relative and is of type %u",
				           (unsigned long long)i, (unsigned)ELF64_R_TYPE(r[i].r_info));
	}
	l->syms = l->nsyms ? at(l, l->d[DT_SYMTAB], l->nsyms * sizeof(Sym)) : NULL;
	if (check_versions(l) != 0 || check_syms(l) != 0 ||
	    check_relocs(l, l->d[DT_RELA], l->has[DT_RELA] ? l->d[DT_RELASZ] : 0, "dynamic") != 0 ||
	    check_relocs(l, l->d[DT_JMPREL], l->has[DT_JMPREL] ? l->d[DT_PLTRELSZ] : 0, "PLT") != 0 ||
	    check_relr(l) != 0 || check_init(l) != 0)
		return -1;
	if (l->has[DT_PLTGOT] && !seg_of(l, l->d[DT_PLTGOT], 3 * sizeof(ElfW(Addr))))
		return bad(l, "its global offset table (0x%llx) is not inside a loaded segment",
		           (unsigned long long)l->d[DT_PLTGOT]);
	return 0;
}

/* "_Z8row_sumsRKN2at6TensorEf" -> "row_sums" into name: the symbol of a
 * function at namespace scope (_Z<len><name>, _ZN<len><ns>...<len><name>E)
 * taking a const at::Tensor & (RKN2at6TensorE), as a kernel does. */
static bool kernel_like(const char *sym, char *name, size_t size)
{
	if (strncmp(sym, "_Z", 2) != 0)
		return false;
	const char *p = sym + 2, *last = NULL;
	bool nested = *p == 'N';
	size_t len = 0;
	p += nested;
	do {
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		if (end == p || *p == '0' || n > strlen(end))
			return false;
		last = end;
		len = n;
		p = end + n;
	} while (nested && *p && *p != 'E');
	if (nested && *p++ != 'E')
		return false;
	if (!strstr(p, "RKN2at6TensorE"))
		return false;
	snprintf(name, size, "%.*s", (int)len, last);
	return true;
}

/* A kernel library defines q7_entry (the wrapper q7cc links in); one
 * without it was linked with no kernel marked, and the loader would
 * only say which runtime symbol it misses. Names the functions that look
 * like kernels; docs/driver.md, "Shared libraries without kernels". */
static int check_kernels(struct lib *l)
{
	struct q7_strbuf like = {0};
	unsigned n = 0;
	for (uint64_t i = 0; i < l->nsyms; i++) {
		const Sym *s = &l->syms[i];
		const char *sym = l->strtab + s->st_name;
		if (s->st_shndx == SHN_UNDEF || ELF64_ST_BIND(s->st_info) != STB_GLOBAL)
			continue;
		if (strcmp(sym, "q7_entry") == 0) {
			q7_sb_free(&like);
			return 0;
		}
		char name[128];
		if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && kernel_like(sym, name, sizeof name) && n < 8)
			q7_sb_addf(&like, "%s%s", n++ ? ", " : "", name);
	}
	char *doc = q7_doc_path("driver.md");
	q7_err_set(&l->err, l->path,
	           "no kernels: not linked by q7cc with a kernel (it defines no q7_entry)%s%s%s; "
	           "mark each kernel with Q7_KERNEL from <q7/kernel.h> and build it again (%s, "
	           "\"Shared libraries without kernels\")",
	           n ? ", yet it defines functions that look like kernels (" : "",
	           n ? like.s : "", n ? ")" : "", doc);
	free(doc);
	q7_sb_free(&like);
	return -1;
}

/* The sanitizer runtimes among the DT_NEEDED names, into arg (a
 * struct q7_strvec); never stops. */
static bool add_runtime(int64_t tag, const char *name, void *arg)
{
	if (tag == DT_NEEDED && (strstr(name, "asan") || strstr(name, "ubsan")))
		q7_sv_add(arg, name);
	return false;
}

static int check_file(const char *path, bool kernels, struct q7_strvec *runtimes,
                      struct q7_err *err);

int q7_host_elf_check(const char *path, struct q7_err *err)
{
	return check_file(path, false, NULL, err);
}

int q7_host_elf_check_kernels(const char *path, struct q7_err *err)
{
	return check_file(path, true, NULL, err);
}

int q7_host_elf_sanitizers(const char *path, struct q7_strvec *runtimes, struct q7_err *err)
{
	return check_file(path, true, runtimes, err);
}

static int check_file(const char *path, bool kernels, struct q7_strvec *runtimes,
                      struct q7_err *err)
{
	struct lib l;
	memset(&l, 0, sizeof l);
	l.path = path;
	l.err = err ? *err : (struct q7_err){0};
	size_t len = 0;
	const char *why;
	unsigned char *bytes = (unsigned char *)q7_read_regular(path, Q7_READ_HOSTLIB_MAX, &len, &why);
	if (!bytes) {
		q7_err_set(&l.err, path, "cannot read: %s", why);
		return -1;
	}
	/* Aligned for the header and table reads: q7_read_regular's buffer is
	 * malloc'd, so 16-byte aligned; tables inside are checked aligned
	 * as the loader needs them. */
	l.b = bytes;
	l.n = len;
	int rc = check_header(&l) != 0 || check_segments(&l) != 0 || check_dynamic(&l) != 0 ||
	                 (kernels && check_kernels(&l) != 0)
	             ? -1
	             : 0;
	if (rc == 0 && runtimes)
		each_name(&l, add_runtime, runtimes);
	free(bytes);
	return rc;
}
