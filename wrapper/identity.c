/* Telling a q7cc executable from a real compiler (identity.h). */
#include "identity.h"
#include "support.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOTE_SECTION ".note.q7cc"

/* The mark: an ELF note in a section of its own, which a strip keeps
 * (dh_strip removes .comment and .note, not .note.<name>). */
struct q7_mark {
	Elf64_Word namesz, descsz, type;
	char name[8];
	char desc[8];
};
__attribute__((used, section(NOTE_SECTION), aligned(4)))
static const struct q7_mark mark = {5, 8, 1, "q7cc", "driver"};

static bool read_at(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n;
}

/* True when the ELF file open on fd has a section named NOTE_SECTION: the
 * header, the section headers and their name table only. */
static bool has_mark(int fd)
{
	Elf64_Ehdr eh;
	if (!read_at(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum == 0 || eh.e_shnum > 4096 || eh.e_shstrndx >= eh.e_shnum)
		return false;
	Elf64_Shdr *sh = malloc(sizeof *sh * eh.e_shnum);
	bool found = false;
	char *names = NULL;
	if (!sh || !read_at(fd, sh, sizeof *sh * eh.e_shnum, (off_t)eh.e_shoff))
		goto out;
	const Elf64_Shdr *strs = &sh[eh.e_shstrndx];
	if (strs->sh_size == 0 || strs->sh_size > (1u << 20))
		goto out;
	names = malloc(strs->sh_size + 1);
	if (!names || !read_at(fd, names, strs->sh_size, (off_t)strs->sh_offset))
		goto out;
	names[strs->sh_size] = '\0';
	for (unsigned i = 0; i < eh.e_shnum && !found; i++)
		found = sh[i].sh_name < strs->sh_size &&
		        strcmp(names + sh[i].sh_name, NOTE_SECTION) == 0;
out:
	free(names);
	free(sh);
	return found;
}

bool q7_is_q7cc(const char *path)
{
	static struct stat self;
	static int have = -1;
	if (have < 0)
		have = stat("/proc/self/exe", &self) == 0;
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (have && st.st_dev == self.st_dev && st.st_ino == self.st_ino)
		return true;
	const char *why;
	int fd = q7_open_regular(path, &why);
	if (fd < 0)
		return false;
	bool q7 = has_mark(fd);
	close(fd);
	(void)mark;
	return q7;
}
