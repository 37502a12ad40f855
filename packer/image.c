/* packer/image: opening a linked image and checking, once, before anything
 * is written, what the packer relies on and libelf does not check
 * (docs/packer.md, "Damaged input"). */
#include "image.h"
#include "elfio.h"
#include "lsp.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* end = off + len when it fits in limit, without overflowing. */
static bool fits(uint64_t off, uint64_t len, uint64_t limit)
{
	return off <= limit && len <= limit - off;
}

static bool pow2_or_zero(uint64_t a)
{
	return (a & (a - 1)) == 0;
}

struct span {
	uint64_t off, end;
	const char *what;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off ? 1 : 0;
}

/* The entry size a section of this type must have, or 0 (any). */
static size_t typed_entsize(const struct q7_image *im, GElf_Word type)
{
	switch (type) {
	case SHT_SYMTAB:
	case SHT_DYNSYM:
		return gelf_fsize(im->elf, ELF_T_SYM, 1, EV_CURRENT);
	case SHT_RELA:
		return gelf_fsize(im->elf, ELF_T_RELA, 1, EV_CURRENT);
	case SHT_REL:
		return gelf_fsize(im->elf, ELF_T_REL, 1, EV_CURRENT);
	case SHT_DYNAMIC:
		return gelf_fsize(im->elf, ELF_T_DYN, 1, EV_CURRENT);
	case SHT_HASH:
	case SHT_SYMTAB_SHNDX:
	case SHT_GROUP:
		return 4;
	default:
		return 0;
	}
}

/* The checks on the ELF header; reason or NULL. */
static const char *check_ehdr(struct q7_image *im)
{
	const unsigned char *id = im->base;
	if (im->size < EI_NIDENT || !q7_is_elf_magic(id, im->size))
		return "not an ELF file";
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return "unknown ELF class";
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return "unknown ELF byte order";
	if (id[EI_VERSION] != EV_CURRENT)
		return "unknown ELF version";
	im->cls = id[EI_CLASS];
	size_t ehsize = im->cls == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
	if (im->size < ehsize)
		return "truncated ELF header";
	if (elf_kind(im->elf) != ELF_K_ELF || !gelf_getehdr(im->elf, &im->eh))
		return "unreadable ELF header";
	GElf_Ehdr *eh = &im->eh;
	/* A class byte that lies shows as header sizes of the other class. */
	if (eh->e_ehsize != ehsize)
		return "ELF header size does not match the ELF class";
	if (eh->e_type != ET_DYN && eh->e_type != ET_EXEC)
		return "not a linked image (expected a shared object or executable)";
	if (eh->e_version != EV_CURRENT)
		return "unknown ELF version";
	if (elf_getshdrnum(im->elf, &im->shnum) != 0 || elf_getphdrnum(im->elf, &im->phnum) != 0)
		return "bad section or program header count";
	if (eh->e_shoff && eh->e_shnum && im->shnum == 0) /* libelf's answer when cut off */
		return "section header table outside the file";
	if (im->shnum < 2 || eh->e_shoff == 0)
		return "no section headers";
	if (eh->e_shentsize != gelf_fsize(im->elf, ELF_T_SHDR, 1, EV_CURRENT))
		return "section header size does not match the ELF class";
	if (im->shnum > im->size / eh->e_shentsize ||
	    !fits(eh->e_shoff, (uint64_t)im->shnum * eh->e_shentsize, im->size))
		return "section header table outside the file";
	if (eh->e_phnum && im->phnum == 0) /* libelf's answer when cut off */
		return "program header table outside the file";
	if (im->phnum) {
		if (eh->e_phentsize != gelf_fsize(im->elf, ELF_T_PHDR, 1, EV_CURRENT))
			return "program header size does not match the ELF class";
		if (im->phnum > im->size / eh->e_phentsize ||
		    !fits(eh->e_phoff, (uint64_t)im->phnum * eh->e_phentsize, im->size))
			return "program header table outside the file";
	}
	if (elf_getshdrstrndx(im->elf, &im->shstrndx) != 0 || im->shstrndx == 0 ||
	    im->shstrndx >= im->shnum)
		return "bad section name table index";
	return NULL;
}

static const char *check_sections(struct q7_image *im)
{
	uint64_t addr_max = im->cls == ELFCLASS32 ? UINT32_MAX : UINT64_MAX;
	im->sec = q7_xcalloc(im->shnum, sizeof *im->sec);
	for (size_t i = 0; i < im->shnum; i++) {
		Elf_Scn *scn = elf_getscn(im->elf, i);
		if (!scn || !gelf_getshdr(scn, &im->sec[i].sh))
			return "unreadable section header";
		im->sec[i].load = -1;
	}
	const GElf_Shdr *ss = &im->sec[im->shstrndx].sh;
	if (ss->sh_type != SHT_STRTAB || ss->sh_size == 0 || !fits(ss->sh_offset, ss->sh_size, im->size))
		return "bad section name table";
	const char *strs = (const char *)im->base + ss->sh_offset;
	if (strs[ss->sh_size - 1] != '\0')
		return "section name table not terminated";
	if (im->sec[0].sh.sh_type != SHT_NULL)
		return "section 0 is not SHT_NULL";
	for (size_t i = 1; i < im->shnum; i++) {
		GElf_Shdr *sh = &im->sec[i].sh;
		if (sh->sh_name >= ss->sh_size)
			return "section name outside the name table";
		im->sec[i].name = strs + sh->sh_name;
		if (sh->sh_type == SHT_NULL)
			return "SHT_NULL section after section 0";
		if (sh->sh_type != SHT_NOBITS && !fits(sh->sh_offset, sh->sh_size, im->size))
			return "section contents outside the file";
		if (!pow2_or_zero(sh->sh_addralign))
			return "section alignment not a power of two";
		if (sh->sh_addralign > Q7_IMAGE_MAX_ALIGN)
			return "absurd section alignment";
		if (sh->sh_link >= im->shnum)
			return "section link out of range";
		if ((sh->sh_flags & SHF_INFO_LINK) && sh->sh_info >= im->shnum)
			return "section info link out of range";
		if ((sh->sh_flags & SHF_ALLOC) && !fits(sh->sh_addr, sh->sh_size, addr_max))
			return "section address range wraps";
		/* libelf refuses to write what breaks these, so they are input
		 * damage, found here rather than while writing an output. */
		size_t want = typed_entsize(im, sh->sh_type);
		if (want && sh->sh_entsize && sh->sh_entsize != want) {
			snprintf(im->why, sizeof im->why, "section %.64s: entry size %llu, expected %zu",
			         im->sec[i].name, (unsigned long long)sh->sh_entsize, want);
			return im->why;
		}
		/* A compressed section: libelf's writer reads a compression
		 * header from one that is allocated (the gABI forbids that) or
		 * has entries, and refuses to write the stripped image. */
		if ((sh->sh_flags & SHF_COMPRESSED) && ((sh->sh_flags & SHF_ALLOC) || sh->sh_entsize > 1)) {
			snprintf(im->why, sizeof im->why, "section %.64s: compressed, but %s",
			         im->sec[i].name,
			         (sh->sh_flags & SHF_ALLOC) ? "allocated" : "made of entries");
			return im->why;
		}
		if (sh->sh_entsize && sh->sh_size % sh->sh_entsize) {
			snprintf(im->why, sizeof im->why,
			         "section %.64s: size %llu is not a multiple of its entry size %llu",
			         im->sec[i].name, (unsigned long long)sh->sh_size,
			         (unsigned long long)sh->sh_entsize);
			return im->why;
		}
	}
	return NULL;
}

/* Section contents, the headers and the header tables must not overlap:
 * the stripped image copies each section's bytes on their own. */
static const char *check_overlaps(struct q7_image *im)
{
	struct span *sp = q7_xcalloc(im->shnum + 3, sizeof *sp);
	size_t n = 0;
	sp[n++] = (struct span){0, im->eh.e_ehsize, "header"};
	sp[n++] = (struct span){im->eh.e_shoff, im->eh.e_shoff + im->shnum * im->eh.e_shentsize, "shdrs"};
	if (im->phnum)
		sp[n++] = (struct span){im->eh.e_phoff, im->eh.e_phoff + im->phnum * im->eh.e_phentsize,
		                        "phdrs"};
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		if (sh->sh_type != SHT_NOBITS && sh->sh_size)
			sp[n++] = (struct span){sh->sh_offset, sh->sh_offset + sh->sh_size, "section"};
	}
	qsort(sp, n, sizeof *sp, span_cmp);
	const char *why = NULL;
	for (size_t i = 1; i < n && !why; i++) {
		if (sp[i].off < sp[i - 1].end)
			why = "overlapping sections or headers";
	}
	free(sp);
	return why;
}

bool q7_image_in_segment(const GElf_Shdr *sh, const GElf_Phdr *p, bool file)
{
	if (!(sh->sh_flags & SHF_ALLOC))
		return false;
	if (sh->sh_addr < p->p_vaddr || sh->sh_addr - p->p_vaddr > p->p_memsz ||
	    sh->sh_size > p->p_memsz - (sh->sh_addr - p->p_vaddr))
		return false;
	if (!file || sh->sh_type == SHT_NOBITS)
		return true;
	return sh->sh_offset >= p->p_offset && sh->sh_offset - p->p_offset <= p->p_filesz &&
	       sh->sh_size <= p->p_filesz - (sh->sh_offset - p->p_offset);
}

static const char *check_segments(struct q7_image *im)
{
	uint64_t addr_max = im->cls == ELFCLASS32 ? UINT32_MAX : UINT64_MAX;
	im->ph = q7_xcalloc(im->phnum ? im->phnum : 1, sizeof *im->ph);
	for (size_t i = 0; i < im->phnum; i++) {
		GElf_Phdr *p = &im->ph[i];
		if (!gelf_getphdr(im->elf, (int)i, p))
			return "unreadable program header";
		if (!fits(p->p_offset, p->p_filesz, im->size))
			return "segment outside the file";
		if (!pow2_or_zero(p->p_align))
			return "segment alignment not a power of two";
		if (p->p_type == PT_LOAD && p->p_align > Q7_IMAGE_MAX_ALIGN)
			return "absurd segment alignment";
		if (p->p_type == PT_LOAD && im->cls == ELFCLASS32 &&
		    q7_lsp_segment_check((unsigned)i, p->p_vaddr, p->p_filesz, p->p_memsz, im->why,
		                         sizeof im->why) != 0)
			return im->why;
		if (p->p_type == PT_LOAD && p->p_filesz > p->p_memsz)
			return "segment file size larger than its memory size";
		if (!fits(p->p_vaddr, p->p_memsz, addr_max))
			return "segment address range wraps";
	}
	for (size_t i = 1; i < im->shnum; i++) {
		const GElf_Shdr *sh = &im->sec[i].sh;
		for (size_t j = 0; j < im->phnum && im->sec[i].load < 0; j++) {
			if (im->ph[j].p_type == PT_LOAD && q7_image_in_segment(sh, &im->ph[j], true))
				im->sec[i].load = (int)j;
		}
		/* The stripped image places allocated sections by their
		 * segment; one in none (a PT_LOAD gone) has no place. .tbss
		 * takes no room in any. */
		bool tbss = (sh->sh_flags & SHF_TLS) && sh->sh_type == SHT_NOBITS;
		if ((sh->sh_flags & SHF_ALLOC) && sh->sh_size && !tbss && im->sec[i].load < 0) {
			snprintf(im->why, sizeof im->why, "allocated section %.64s lies in no loadable segment",
			         im->sec[i].name);
			return im->why;
		}
	}
	return NULL;
}

static int finish_open(struct q7_image *im, struct q7_err *err)
{
	const char *why = NULL;
	if (!im->elf)
		why = elf_errmsg(-1);
	else if (!(why = check_ehdr(im)) && !(why = check_sections(im)) && !(why = check_overlaps(im)))
		why = check_segments(im);
	if (!why)
		return 0;
	q7_err_set(err, im->path, "%s", why);
	q7_image_close(im);
	return -1;
}

int q7_image_open(struct q7_image *im, const char *path, struct q7_err *err)
{
	memset(im, 0, sizeof *im);
	im->path = path;
	im->fd = -1;
	if (!q7_elf_init(err))
		return -1;
	struct stat st;
	const char *why;
	im->fd = q7_open_regular(path, &why);
	if (im->fd < 0 || fstat(im->fd, &st) != 0) {
		q7_err_set(err, path, "cannot open: %s", im->fd < 0 ? why : strerror(errno));
		q7_image_close(im);
		return -1;
	}
	if (st.st_size == 0) {
		q7_err_set(err, path, "empty file");
		q7_image_close(im);
		return -1;
	}
	im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL);
	if (im->elf)
		im->base = (const unsigned char *)elf_rawfile(im->elf, &im->size);
	if (im->elf && !im->base) {
		q7_elf_error(err, path, "reading");
		q7_image_close(im);
		return -1;
	}
#ifdef MADV_POPULATE_READ
	/* Every byte is read once anyway; mapping it in one call costs less
	 * than a page fault per page (a third of the time on a 32 MiB image).
	 * Only a hint: older kernels say EINVAL. */
	if (im->base) {
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)im->base & ~(page - 1);
		madvise((void *)a, im->size + ((uintptr_t)im->base - a), MADV_POPULATE_READ);
	}
#endif
	return finish_open(im, err);
}

int q7_image_open_memory(struct q7_image *im, const void *buf, size_t n, const char *what,
                         struct q7_err *err)
{
	memset(im, 0, sizeof *im);
	im->path = what;
	im->fd = -1;
	if (!q7_elf_init(err))
		return -1;
	if (n == 0) {
		q7_err_set(err, what, "empty file");
		return -1;
	}
	im->elf = elf_memory((char *)buf, n);
	im->base = buf;
	im->size = n;
	return finish_open(im, err);
}

void q7_image_close(struct q7_image *im)
{
	if (im->elf)
		elf_end(im->elf);
	if (im->fd >= 0)
		close(im->fd);
	free(im->sec);
	free(im->ph);
	memset(im, 0, sizeof *im);
	im->fd = -1;
}

const unsigned char *q7_image_bytes(const struct q7_image *im, size_t i)
{
	const GElf_Shdr *sh = &im->sec[i].sh;
	if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
		return NULL;
	return im->base + sh->sh_offset;
}
