/* packer/elfio: libelf initialisation and error messages. */
#include "elfio.h"
#include "support.h"

#include <ar.h>
#include <string.h>

bool q7_elf_init(void)
{
	static int state; /* 0 unknown, 1 ok, -1 unusable */
	if (state == 0)
		state = elf_version(EV_CURRENT) == EV_NONE ? -1 : 1;
	if (state < 0)
		q7_error("libelf: version mismatch: %s", elf_errmsg(-1));
	return state > 0;
}

void q7_elf_error(const char *file, const char *what)
{
	const char *why = elf_errmsg(-1);
	q7_error("%s: %s: %s", file, what, why ? why : "unknown libelf error");
}

bool q7_is_elf_magic(const void *buf, size_t n)
{
	return n >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
}

bool q7_is_ar_magic(const void *buf, size_t n)
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
