/* LIB -> the image each core runs (see run_image.h). */
#include "run_image.h"
#include "manifest.h"
#include "target.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int q7_run_images(const char *lib, unsigned cores, struct q7_strvec *paths, struct q7_err *err)
{
	struct q7_strvec images = {0};
	int rc = q7_manifest_read(lib, &images, err);
	if (rc < 0)
		return -1;
	if (rc == 0) { /* one image, for every core */
		for (unsigned i = 0; i < (cores ? cores : 1); i++)
			q7_sv_add(paths, lib);
		return cores ? (int)cores : 1;
	}
	if (cores == 0)
		cores = (unsigned)images.n;
	rc = (int)cores;
	if (images.n < cores) {
		q7_err_set(err, lib, "the manifest names %zu image%s, %u cores asked", images.n,
		           images.n == 1 ? "" : "s", cores);
		rc = -1;
	}
	for (unsigned i = 0; rc > 0 && i < cores; i++)
		q7_sv_add(paths, images.v[i]);
	q7_sv_free(&images);
	return rc;
}

/* The machine an ELF header names, for messages. */
static const char *machine_name(unsigned m)
{
	switch (m) {
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "AArch64";
	case EM_386: return "i386";
	case EM_ARM: return "ARM";
	case EM_RISCV: return "RISC-V";
	case EM_XTENSA: return "Xtensa";
	default: return NULL;
	}
}

const struct q7_target *q7_run_machine_target(unsigned machine)
{
	const struct q7_target *any = NULL, *t;
	for (size_t i = 0; (t = q7_target_at(i)); i++) {
		if (t->machine == machine)
			return t;
		if (t->any_machine && !any)
			any = t;
	}
	return any;
}

/* The start of path's ELF header into h, and its machine: 1; 0 when it
 * cannot be opened or read, or is not ELF (the target says what it is);
 * -1 with err set when reading it would block or never end (a FIFO, a
 * device). */
static int read_head(const char *path, unsigned char h[20], unsigned *machine,
                     struct q7_err *err)
{
	const char *why = NULL;
	int fd = q7_open_regular(path, &why);
	if (fd < 0 && errno == EINVAL) {
		q7_err_set(err, path, "cannot read: %s", why);
		return -1;
	}
	ssize_t n = fd >= 0 ? read(fd, h, 20) : -1;
	if (fd >= 0)
		close(fd);
	if (n != 20 || memcmp(h, ELFMAG, SELFMAG) != 0)
		return 0;
	*machine = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19]
	                                     : (unsigned)h[19] << 8 | h[18];
	return 1;
}

int q7_run_image_machine(const char *path, unsigned *machine, struct q7_err *err)
{
	unsigned char h[20];
	return read_head(path, h, machine, err);
}

/* One image against the target: 0, or -1 with err set. */
static int check_image(const char *path, const struct q7_target *t, struct q7_err *err)
{
	unsigned char h[20];
	unsigned machine;
	int rc = read_head(path, h, &machine, err);
	if (rc <= 0)
		return rc;
	const struct q7_target *its = q7_run_machine_target(machine);
	if (!its || its == t)
		return 0;
	char what[64] = "";
	if (its->any_machine) { /* which of the machines it takes */
		const char *name = machine_name(machine);
		int bits = h[EI_CLASS] == ELFCLASS64 ? 64 : 32;
		if (name)
			snprintf(what, sizeof what, " (%s, ELF%d)", name, bits);
		else
			snprintf(what, sizeof what, " (machine %u, ELF%d)", machine, bits);
	}
	q7_err_set(err, path, "%s%s, not %s: run it with --target=%s, or build %s for --target=%s",
	           its->image, what, t->image, its->name, t->build, t->name);
	return -1;
}

int q7_run_check_images(const struct q7_strvec *paths, const struct q7_target *t,
                        struct q7_err *err)
{
	for (size_t i = 0; i < paths->n; i++)
		if (check_image(paths->v[i], t, err) != 0)
			return -1;
	return 0;
}
