/* packer/pack: q7_pack(), the overlay path of xt-pkg-loadlib (docs/vendor-flow.md, "Pack recipe")
 * in one process.
 *
 * The stripped image is written once (bound first without -l, bind.c), to
 * the -s file or else to an anonymous memory file, and mapped back: those
 * exact bytes become the packed object's .rodata. */
#include "pack.h"
#include "bind.h"
#include "elfio.h"
#include "image.h"
#include "strip.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The packed object's sections, in the order `ld -r` with the vendor's
 * script gives them; .xtensa.info only when the image had one. */
enum { P_RODATA = 1 };

struct packed {
	const unsigned char *image;
	size_t image_len;
	const unsigned char *info; /* the image's .xtensa.info, or NULL */
	size_t info_len;
	const char *symbol;
	unsigned long align;
};

/* Appends s and its NUL to a string table; returns its offset. */
static GElf_Word add_name(struct q7_strbuf *b, const char *s)
{
	GElf_Word off = (GElf_Word)b->len;
	q7_sb_add(b, s);
	q7_sb_addc(b, '\0');
	return off;
}

/* The symbols of a packed object: section symbols first (locals), then
 * the image's symbol: NOTYPE, size 0, at .rodata+0, exactly what `ld -r`
 * makes of the vendor's "lib_func = . ;" (the image's size is .rodata's
 * size). Returns the index of that global symbol, 0 on failure. */
static size_t write_symbols(Elf_Data *symdata, bool info)
{
	GElf_Sym sym = {0};
	size_t s = 1;
	sym.st_info = GELF_ST_INFO(STB_LOCAL, STT_SECTION);
	sym.st_shndx = P_RODATA;
	if (!symdata || !gelf_update_sym(symdata, (int)s++, &sym))
		return 0;
	if (info) {
		sym.st_shndx = P_RODATA + 1;
		if (!gelf_update_sym(symdata, (int)s++, &sym))
			return 0;
	}
	sym.st_name = 1;
	sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_NOTYPE);
	sym.st_shndx = P_RODATA;
	if (!gelf_update_sym(symdata, (int)s, &sym))
		return 0;
	return s;
}

static int write_packed(const struct q7_image *im, const struct packed *pk, Elf *out)
{
	int rc = -1;
	bool info = pk->info != NULL;
	size_t nsym = info ? 4 : 3, symsz = gelf_fsize(im->elf, ELF_T_SYM, 1, EV_CURRENT);
	struct q7_strbuf names = {0}, strs = {0};
	void *symbuf = q7_xcalloc(nsym, sizeof(Elf64_Sym));
	Elf_Data *symdata = NULL;
	bool stack = im->eh.e_machine != EM_XTENSA;
	GElf_Word n_rodata, n_info = 0, n_stack = 0, n_symtab, n_strtab, n_shstrtab;

	q7_sb_addc(&names, '\0');
	n_symtab = add_name(&names, ".symtab");
	n_strtab = add_name(&names, ".strtab");
	n_shstrtab = add_name(&names, ".shstrtab");
	n_rodata = add_name(&names, ".rodata");
	if (info)
		n_info = add_name(&names, ".xtensa.info");
	if (stack)
		n_stack = add_name(&names, ".note.GNU-stack");
	q7_sb_addc(&strs, '\0');
	add_name(&strs, pk->symbol);

	if (!gelf_newehdr(out, im->cls))
		goto cleanup;
	if (!q7_elf_add_section(out, n_rodata, SHT_PROGBITS, SHF_ALLOC, pk->align, ELF_T_BYTE,
	                        (void *)pk->image, pk->image_len))
		goto cleanup;
	if (info && !q7_elf_add_section(out, n_info, SHT_NOTE, 0, 1, ELF_T_BYTE, (void *)pk->info,
	                                pk->info_len))
		goto cleanup;
	/* Host objects say their stack is not executable, as a host assembler's
	 * do; without it GNU ld warns and makes the program's stack executable. */
	if (stack && !q7_elf_add_section(out, n_stack, SHT_PROGBITS, 0, 1, ELF_T_BYTE, NULL, 0))
		goto cleanup;
	size_t symndx = 2 + (info ? 1 : 0) + (stack ? 1 : 0);
	Elf_Scn *symscn = q7_elf_add_section(out, n_symtab, SHT_SYMTAB, 0, im->cls == ELFCLASS32 ? 4 : 8,
	                                     ELF_T_SYM, symbuf, nsym * symsz);
	if (!symscn)
		goto cleanup;
	symdata = elf_getdata(symscn, NULL);
	size_t s = write_symbols(symdata, info);
	if (!s)
		goto cleanup;
	if (!q7_elf_add_section(out, n_strtab, SHT_STRTAB, 0, 1, ELF_T_BYTE, strs.s, strs.len) ||
	    !q7_elf_add_section(out, n_shstrtab, SHT_STRTAB, 0, 1, ELF_T_BYTE, names.s, names.len))
		goto cleanup;
	GElf_Shdr sh;
	if (!gelf_getshdr(symscn, &sh))
		goto cleanup;
	sh.sh_link = (GElf_Word)symndx + 1;
	sh.sh_info = (GElf_Word)s; /* the first global */
	sh.sh_entsize = symsz;
	if (!gelf_update_shdr(symscn, &sh))
		goto cleanup;

	/* A relocatable object of the image's class, machine and flags. */
	GElf_Ehdr eh;
	if (!gelf_getehdr(out, &eh))
		goto cleanup;
	memcpy(eh.e_ident, im->eh.e_ident, EI_NIDENT);
	eh.e_type = ET_REL;
	eh.e_machine = im->eh.e_machine;
	eh.e_version = im->eh.e_version;
	eh.e_flags = im->eh.e_flags;
	if (!gelf_update_ehdr(out, &eh) || q7_elf_set_shstrndx(out, symndx + 2) != 0)
		goto cleanup;
	if (q7_elf_write(out) != 0)
		goto cleanup;
	rc = 0;
cleanup:
	free(symbuf);
	q7_sb_free(&names);
	q7_sb_free(&strs);
	return rc;
}

static bool valid_symbol(const char *s)
{
	if (!s || !*s)
		return false;
	for (const char *c = s; *c; c++) {
		if (!(*c == '_' || *c == '.' || *c == '$' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			return false;
	}
	return !(*s >= '0' && *s <= '9');
}

static const unsigned char *find_info(const struct q7_image *im, size_t *len)
{
	for (size_t i = 1; i < im->shnum; i++) {
		if (strcmp(im->sec[i].name, ".xtensa.info") == 0 && im->sec[i].sh.sh_type == SHT_NOTE) {
			*len = im->sec[i].sh.sh_size;
			return q7_image_bytes(im, i);
		}
	}
	return NULL;
}

/* The stripped image keeps the input's permissions, as objcopy does. */
static unsigned image_mode(const struct q7_image *im)
{
	struct stat st;
	if (im->fd >= 0 && fstat(im->fd, &st) == 0)
		return st.st_mode & 07777;
	return 0755;
}

static const char *output_name(const char *path, const char *name)
{
	return name ? name : path;
}

int q7_pack_image_fds(const struct q7_image *im, const struct q7_pack_opts *o, int sfd, int pfd,
                      struct q7_err *err)
{
	int rc = -1;
	struct q7_strip_plan plan;
	struct q7_bind bind = {0};
	void *map = MAP_FAILED;
	Elf *out = NULL;
	const char *sname = o->stripped ? output_name(o->stripped, o->stripped_name)
	                    : o->output ? output_name(o->output, o->output_name)
	                                : "(stripped image)";
	const char *pname = o->output ? output_name(o->output, o->output_name) : "(packed object)";

	q7_strip_plan(im, o->pagesize, o->symlookup, &plan);
	if (o->notes) {
		char *dropped = q7_strip_dropped(im, &plan);
		q7_sv_addf(o->notes, "%s: removing sections: %s", im->path, dropped);
		free(dropped);
	}
	/* Alignments are bounded, but many of them could still add up. */
	if (plan.total > 2 * (uint64_t)im->size + (64u << 20)) {
		q7_err_set(err, im->path, "the stripped image would grow to %llu bytes: absurd layout",
		           (unsigned long long)plan.total);
		goto cleanup;
	}
	/* Without -l the symbol lookup goes: what would still need it is bound
	 * now, in the stripped image only. */
	if (!o->symlookup && q7_bind_plan(im, &plan, &bind, err) != 0)
		goto cleanup;
	if (o->notes) {
		char *bound = q7_bind_summary(&bind);
		if (bound)
			q7_sv_addf(o->notes, "%s: %s", im->path, bound);
		free(bound);
	}
	if (q7_strip_write(im, &plan, &bind, sfd, sname, err) != 0)
		goto cleanup;
	if (pfd >= 0) {
		/* The packed object embeds exactly the bytes just written. */
		map = mmap(NULL, plan.total, PROT_READ, MAP_SHARED | MAP_POPULATE, sfd, 0);
		if (map == MAP_FAILED) {
			q7_err_set(err, sname, "cannot map the stripped image: %s", strerror(errno));
			goto cleanup;
		}
		size_t info_len = 0;
		const unsigned char *info = im->eh.e_machine == EM_XTENSA ? find_info(im, &info_len) : NULL;
		struct packed pk = {map, plan.total, info, info_len, o->symbol ? o->symbol : "lib_func",
		                    o->pagesize > 4 ? o->pagesize : 4};
		out = elf_begin(pfd, ELF_C_WRITE, NULL);
		if (!out || write_packed(im, &pk, out) != 0) {
			q7_elf_error(err, pname, "writing the packed object");
			goto cleanup;
		}
	}
	rc = 0;
cleanup:
	if (out)
		elf_end(out);
	if (map != MAP_FAILED)
		munmap(map, plan.total);
	q7_strip_plan_free(&plan);
	q7_bind_free(&bind);
	return rc;
}

int q7_pack_image(const struct q7_image *im, const struct q7_pack_opts *o, struct q7_err *err)
{
	int rc = -1, scratch = -1;
	struct q7_outfile sof = {0}, pof = {0}, *outs[2];
	const char *paths[2], *names[2];
	unsigned modes[2];
	size_t n = 0, bad = 0;
	/* The stripped image goes to the -s file, or to an anonymous one. */
	if (o->stripped) {
		paths[n] = o->stripped;
		names[n] = output_name(o->stripped, o->stripped_name);
		modes[n] = image_mode(im);
		outs[n++] = &sof;
	} else {
		/* An unnamed file beside the output: page cache like the named
		 * outputs, and cheaper than a memfd on the kernels measured. */
		char *dir = q7_path_dirname(o->output ? o->output : im->path);
		scratch = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (scratch < 0)
			scratch = memfd_create("q7-stripped", MFD_CLOEXEC);
		free(dir);
		if (scratch < 0) {
			q7_err_set(err, im->path, "cannot create a scratch file: %s", strerror(errno));
			return -1;
		}
	}
	if (o->output) {
		paths[n] = o->output;
		names[n] = output_name(o->output, o->output_name);
		modes[n] = 0644;
		outs[n++] = &pof;
	}
	for (size_t i = 0; i < n; i++) {
		if (q7_outfile_open(outs[i], paths[i]) != 0) {
			q7_err_set(err, names[i], "cannot create: %s", strerror(errno));
			goto cleanup;
		}
	}
	if (q7_pack_image_fds(im, o, o->stripped ? fileno(sof.f) : scratch,
	                      o->output ? fileno(pof.f) : -1, err) != 0)
		goto cleanup;
	/* libelf wrote through the descriptors; the FILEs hold nothing. The
	 * two outputs are committed together: both, or neither changes. */
	if (q7_outfile_commit_all(outs, modes, n, &bad) != 0) {
		q7_err_set(err, names[bad], "cannot write: %s", strerror(errno));
		goto cleanup;
	}
	rc = 0;
cleanup: /* aborting one never opened, or committed, does nothing */
	q7_outfile_abort(&pof);
	q7_outfile_abort(&sof);
	if (scratch >= 0)
		close(scratch);
	return rc;
}

int q7_pack(const struct q7_pack_opts *o, struct q7_err *err)
{
	const char *symbol = o->symbol ? o->symbol : "lib_func";
	if (!valid_symbol(symbol)) {
		q7_err_set(err, o->input, "bad symbol name '%s'", symbol);
		return -1;
	}
	if (o->pagesize && (o->pagesize & (o->pagesize - 1))) {
		q7_err_set(err, o->input, "page size %lu is not a power of two", o->pagesize);
		return -1;
	}
	struct q7_image im;
	if (q7_image_open(&im, o->input, err) != 0)
		return -1;
	int rc = q7_pack_image(&im, o, err);
	q7_image_close(&im);
	return rc;
}
