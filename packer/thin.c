/* Thin archives (ar rcT, "!<thin>"): the members' bytes are not in the
 * archive but in the files its headers name, relative to the archive's
 * folder. libelf does not read them, and the linker does: q7cc must read
 * the records of the same files, or their kernels would be linked without
 * a dispatch wrapper and dropped from the image with no word. */
#include "elfio.h"
#include "support.h"

#include <ar.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THINMAG "!<thin>\n"

bool q7_is_thin_ar_magic(const void *buf, size_t n)
{
	return n >= SARMAG && memcmp(buf, THINMAG, SARMAG) == 0;
}

/* The member name of header h: "name/", or "/N" into the long names. */
static char *member_name(const struct ar_hdr *h, const char *names, size_t names_len)
{
	if (h->ar_name[0] == '/' && h->ar_name[1] >= '0' && h->ar_name[1] <= '9') {
		size_t off = strtoul(h->ar_name + 1, NULL, 10);
		if (!names || off >= names_len)
			return NULL;
		const char *end = memchr(names + off, '\n', names_len - off);
		if (!end || end == names + off)
			return NULL;
		size_t n = (size_t)(end - names - off);
		if (names[off + n - 1] == '/')
			n--;
		return q7_xstrndup(names + off, n);
	}
	size_t n = 0;
	while (n < sizeof h->ar_name && h->ar_name[n] != '/' && h->ar_name[n] != ' ')
		n++;
	return n ? q7_xstrndup(h->ar_name, n) : NULL;
}

/* One member's file: its ELF object through fn, named "lib.a(member)". */
static int member(const char *ar_path, const char *name, q7_elf_object_fn fn, void *ctx,
                  struct q7_err *err)
{
	char *dir = q7_path_dirname(ar_path);
	char *file = name[0] == '/' ? q7_xstrdup(name) : q7_path_join(dir, name);
	char *what = q7_xasprintf("%s(%s)", ar_path, name);
	int rc = -1;
	const char *why;
	int fd = q7_open_regular(file, &why);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (fd < 0)
		q7_err_set(err, what, "a member of a thin archive, %s, cannot be opened: %s", file, why);
	else if (!elf)
		q7_elf_error(err, what, "reading a member of a thin archive");
	else
		rc = elf_kind(elf) == ELF_K_ELF ? fn(elf, what, ctx, err) : 0;
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(what);
	free(file);
	free(dir);
	return rc;
}

int q7_elf_each_thin_member(int fd, const char *path, q7_elf_object_fn fn, void *ctx,
                            struct q7_err *err)
{
	off_t size = lseek(fd, 0, SEEK_END), at = SARMAG;
	char *names = NULL;
	size_t names_len = 0;
	int rc = 0;
	while (rc == 0 && at < size) {
		struct ar_hdr h;
		char num[sizeof h.ar_size + 1];
		if (pread(fd, &h, sizeof h, at) != (ssize_t)sizeof h ||
		    memcmp(h.ar_fmag, ARFMAG, 2) != 0) {
			q7_err_set(err, path,
			           "damaged thin archive (unreadable member header at offset %lld)",
			           (long long)at);
			rc = -1;
			break;
		}
		memcpy(num, h.ar_size, sizeof h.ar_size);
		num[sizeof h.ar_size] = '\0';
		char *end;
		unsigned long long len = strtoull(num, &end, 10);
		at += (off_t)sizeof h;
		bool table = h.ar_name[0] == '/' && (h.ar_name[1] == ' ' || h.ar_name[1] == '/' ||
		                                     memcmp(h.ar_name, "/SYM64/", 7) == 0);
		if (end == num || (table && len > (unsigned long long)(size - at))) {
			q7_err_set(err, path, "damaged thin archive (member size at offset %lld)",
			           (long long)at - (off_t)sizeof h);
			rc = -1;
			break;
		}
		if (!table) {
			/* Its bytes are elsewhere: nothing follows the header. */
			char *name = member_name(&h, names, names_len);
			if (!name) {
				q7_err_set(err, path, "damaged thin archive (a member without a name)");
				rc = -1;
				break;
			}
			rc = member(path, name, fn, ctx, err);
			free(name);
			continue;
		}
		if (h.ar_name[1] == '/' && !names) {
			names = q7_xmalloc((size_t)len + 1);
			names_len = (size_t)len;
			if (pread(fd, names, names_len, at) != (ssize_t)names_len) {
				q7_err_set(err, path, "damaged thin archive (long names cut short)");
				rc = -1;
			}
		}
		at += (off_t)(len + (len & 1));
	}
	free(names);
	return rc;
}
