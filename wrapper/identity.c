/* Telling a q7cc executable from a real compiler (identity.h). */
#include "identity.h"
#include "support.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
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

/* True when the ELF file open on fd has a section named NOTE_SECTION: the
 * header, the section headers and their name table only. */
static bool has_mark(int fd)
{
	Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t names;
	bool found = false;
	if (e && elf_kind(e) == ELF_K_ELF && elf_getshdrstrndx(e, &names) == 0)
		for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(e, scn));) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, names, sh.sh_name) : NULL;
			found = name && strcmp(name, NOTE_SECTION) == 0;
		}
	elf_end(e);
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
