/* packer/elfio: libelf initialisation, error messages, and the walk over
 * an object or the members of an archive. */
#include "elfio.h"
#include "support.h"

#include <ar.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool q7_elf_init(struct q7_err *err)
{
	static int state; /* 0 unknown, 1 ok, -1 unusable */
	if (state == 0)
		state = elf_version(EV_CURRENT) == EV_NONE ? -1 : 1;
	if (state < 0)
		q7_err_set(err, "libelf", "version mismatch: %s", elf_errmsg(-1));
	return state > 0;
}

/* errno of the last failed q7_elf_write, until reported. */
static int write_errno;

void q7_elf_error(struct q7_err *err, const char *file, const char *what)
{
	const char *why = elf_errmsg(-1);
	if (write_errno)
		why = strerror(write_errno);
	write_errno = 0;
	q7_err_set(err, file, "%s: %s", what, why ? why : "unknown libelf error");
}

int q7_elf_write(Elf *out)
{
	/* libelf says only "cannot write data to file"; errno says why. */
	errno = 0;
	if (elf_update(out, ELF_C_WRITE) >= 0)
		return 0;
	write_errno = errno;
	return -1;
}

bool q7_is_elf_magic(const void *buf, size_t n)
{
	return n >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

static bool is_ar_magic(const void *buf, size_t n)
{
	return n >= SARMAG && memcmp(buf, ARMAG, SARMAG) == 0;
}

int q7_elf_set_shstrndx(Elf *out, size_t ndx)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(out, &eh))
		return -1;
	if (ndx < SHN_LORESERVE) {
		eh.e_shstrndx = (GElf_Half)ndx;
	} else {
		Elf_Scn *s0 = elf_getscn(out, 0);
		GElf_Shdr sh;
		if (!s0 || !gelf_getshdr(s0, &sh))
			return -1;
		sh.sh_link = (GElf_Word)ndx;
		if (!gelf_update_shdr(s0, &sh))
			return -1;
		eh.e_shstrndx = SHN_XINDEX;
	}
	return gelf_update_ehdr(out, &eh) ? 0 : -1;
}

Elf_Scn *q7_elf_add_section(Elf *out, GElf_Word name, GElf_Word type, GElf_Xword flags,
                            GElf_Xword align, Elf_Type dtype, void *buf, size_t size)
{
	Elf_Scn *scn = elf_newscn(out);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;
	if (!d || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_type = dtype;
	d->d_buf = buf;
	d->d_size = size;
	d->d_align = align;
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	sh.sh_size = size;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

/* libelf's walk just stops at a damaged member header, so the walk is
 * checked against the file: the last member must end where the file does. */
static int each_member(int fd, Elf *ar, const char *path, q7_elf_object_fn fn, void *ctx,
                       struct q7_err *err)
{
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	Elf *m;
	int rc = 0;
	size_t fsize = 0;
	uint64_t end = SARMAG;
	if (!elf_rawfile(ar, &fsize)) {
		q7_elf_error(err, path, "reading the archive");
		return -1;
	}
	while (rc == 0 && (m = elf_begin(fd, cmd, ar))) {
		Elf_Arhdr *ah = elf_getarhdr(m);
		off_t base = elf_getbase(m);
		if (!ah || base < 0) {
			q7_elf_error(err, path, "reading an archive member");
			rc = -1;
		} else {
			end = (uint64_t)base + ah->ar_size;
			end += end & 1; /* members are 2-aligned */
			if (elf_kind(m) == ELF_K_ELF) {
				char *what = q7_xasprintf("%s(%s)", path, ah->ar_name ? ah->ar_name : "?");
				rc = fn(m, what, ctx, err);
				free(what);
			}
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	if (rc == 0 && end < fsize && !(end + 1 == fsize)) {
		q7_err_set(err, path, "damaged archive (unreadable member header at offset %llu)",
		           (unsigned long long)end);
		rc = -1;
	}
	if (rc == 0 && end > fsize) {
		q7_err_set(err, path, "damaged archive (last member cut short)");
		rc = -1;
	}
	return rc;
}

int q7_elf_each_object(const char *path, q7_elf_object_fn fn, void *ctx, struct q7_err *err)
{
	if (!q7_elf_init(err))
		return -1;
	int rc = -1;
	Elf *elf = NULL;
	char magic[SELFMAG > 8 ? SELFMAG : 8] = {0};
	const char *why;
	int fd = q7_open_regular(path, &why);
	if (fd < 0) {
		q7_err_set(err, path, "cannot open: %s", why);
		return -1;
	}
	ssize_t n = pread(fd, magic, sizeof magic, 0);
	if (n < 0) {
		q7_err_set(err, path, "cannot read: %s", strerror(errno));
		goto cleanup;
	}
	bool is_elf = q7_is_elf_magic(magic, (size_t)n), is_ar = is_ar_magic(magic, (size_t)n);
	if (q7_is_thin_ar_magic(magic, (size_t)n)) {
		rc = q7_elf_each_thin_member(fd, path, fn, ctx, err);
		goto cleanup;
	}
	if (!is_elf && !is_ar) {
		rc = 0; /* linker scripts, ...: nothing of ours */
		goto cleanup;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		q7_elf_error(err, path, is_ar ? "reading the archive" : "reading the object");
		goto cleanup;
	}
	if (is_elf && elf_kind(elf) == ELF_K_ELF)
		rc = fn(elf, path, ctx, err);
	else if (is_ar && elf_kind(elf) == ELF_K_AR)
		rc = each_member(fd, elf, path, fn, ctx, err);
	else
		q7_err_set(err, path, "damaged %s", is_ar ? "archive" : "ELF file");
cleanup:
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}
