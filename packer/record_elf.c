/* packer/record_elf: the .q7.ops section in object files and archives:
 * attaching it and reading it back (docs/packer.md, "The op records"), and
 * holding each record to its object (docs/packer.md, "What a record may
 * say"), so that a damaged one is the object's fault, not the dispatch
 * wrapper's. */
#include "cxx.h"
#include "elfio.h"
#include "record.h"
#include "symbols.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <ar.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first section of elf whose name's first len bytes are name's (len
 * strlen(name) + 1: named name), or NULL. Fails (-1) only on a damaged
 * file. */
static int find_section(Elf *elf, const char *name, size_t len, Elf_Scn **found,
                        size_t *shstrndx)
{
	*found = NULL;
	/* The end of the walk is told from an error by elf_errno(): clear
	 * what an earlier call left there (the first object of `-c a.cpp
	 * b.cpp` left one, and the second then failed with "no error"). */
	(void)elf_errno();
	if (elf_getshdrstrndx(elf, shstrndx) != 0)
		return -1;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return -1;
		const char *n = elf_strptr(elf, *shstrndx, sh.sh_name);
		if (!n)
			return -1;
		if (strncmp(n, name, len) == 0) {
			*found = scn;
			return 0;
		}
	}
	return elf_errno() == 0 ? 0 : -1;
}

/* The ELF header, and its section header table inside the file: libelf
 * quietly shows no sections when their table is cut off. 0 or -1. */
static int check_object(Elf *elf, const char *what, GElf_Ehdr *eh, struct q7_err *err)
{
	size_t fsize = 0, shnum = 0;
	if (!gelf_getehdr(elf, eh) || !elf_rawfile(elf, &fsize) || elf_getshdrnum(elf, &shnum) != 0) {
		q7_elf_error(err, what, "reading the object");
		return -1;
	}
	size_t want = eh->e_shnum ? eh->e_shnum : shnum;
	if (eh->e_shoff && (eh->e_shentsize != gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT) ||
	                    eh->e_shoff > fsize || want > (fsize - eh->e_shoff) / eh->e_shentsize)) {
		q7_err_set(err, what, "damaged object: section header table outside the file");
		return -1;
	}
	return 0;
}

/* Puts payload into section sec of e, a copy of in opened read-write: the
 * section made after the others (its name appended to the section name
 * table) when there is none. Writes e out: libelf lays the file out again,
 * the other sections' bytes as they were. (in is checked: elf_rawfile on
 * e would have libelf write it through a buffer of the old size.) */
static int put_section(Elf *in, Elf *e, const char *sec, const char *payload, size_t plen,
                       const char *path, struct q7_err *err)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t shstrndx;
	Elf_Scn *old = NULL;
	if (check_object(in, path, &eh, err) != 0)
		return -1;
	if (find_section(e, sec, strlen(sec) + 1, &old, &shstrndx) != 0) {
		q7_elf_error(err, path, "reading the object");
		return -1;
	}
	if (eh.e_type != ET_REL) {
		q7_err_set(err, path, "not a relocatable object (ELF type %u)", (unsigned)eh.e_type);
		return -1;
	}
	Elf_Data *d = old ? elf_getdata(old, NULL) : NULL;
	if (old && !d) {
		q7_elf_error(err, path, "reading a section");
		return -1;
	}
	if (d) {
		d->d_type = ELF_T_BYTE;
		d->d_buf = (void *)payload;
		d->d_size = plen;
		d->d_align = 1;
		elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	} else {
		Elf_Scn *names = elf_getscn(e, shstrndx);
		Elf_Data *nd = names && gelf_getshdr(names, &sh) ? elf_newdata(names) : NULL;
		if (!nd) {
			q7_elf_error(err, path, "extending the section name table");
			return -1;
		}
		nd->d_type = ELF_T_BYTE;
		nd->d_align = 1;
		nd->d_buf = (void *)sec;
		nd->d_size = strlen(sec) + 1;
		if (!q7_elf_add_section(e, (GElf_Word)sh.sh_size, SHT_PROGBITS, SHF_EXCLUDE, 1,
		                        ELF_T_BYTE, (void *)payload, plen)) {
			q7_err_set(err, path, "adding %s: %s", sec, elf_errmsg(-1));
			return -1;
		}
	}
	if (q7_elf_write(e) != 0) {
		q7_elf_error(err, path, "writing the object");
		return -1;
	}
	return 0;
}

int q7_record_attach(const char *path, const struct q7_op_table *ops, struct q7_err *err)
{
	if (!ops || ops->n == 0)
		return 0;
	size_t plen = 0;
	char *payload = q7_record_encode(ops, &plen);
	int rc = q7_section_attach(path, Q7_RECORD_SECTION, payload, plen, err);
	free(payload);
	return rc;
}

int q7_section_attach(const char *path, const char *sec, const char *payload, size_t plen,
                      struct q7_err *err)
{
	if (!q7_elf_init(err))
		return -1;
	int rc = -1, fd = -1;
	Elf *in = NULL, *out = NULL;
	struct q7_outfile of = {0};
	struct stat st;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		q7_err_set(err, path, "cannot open: %s", strerror(errno));
		goto cleanup;
	}
	in = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!in || elf_kind(in) != ELF_K_ELF) {
		q7_err_set(err, path, "not an ELF object");
		goto cleanup;
	}
	if (q7_outfile_open(&of, path) != 0) {
		q7_err_set(err, path, "cannot create a temporary file beside it: %s", strerror(errno));
		goto cleanup;
	}
	/* A copy, changed in place: libelf then writes through the descriptor. */
	size_t size;
	const char *bytes = elf_rawfile(in, &size);
	if (!bytes || fwrite(bytes, 1, size, of.f) != size || fflush(of.f) != 0) {
		q7_err_set(err, path, "cannot write a temporary file beside it: %s", strerror(errno));
		goto cleanup;
	}
	out = elf_begin(fileno(of.f), ELF_C_RDWR, NULL);
	if (!out) {
		q7_elf_error(err, path, "creating the output");
		goto cleanup;
	}
	if (put_section(in, out, sec, payload, plen, path, err) != 0)
		goto cleanup;
	elf_end(out);
	out = NULL;
	if (q7_outfile_commit(&of, st.st_mode & 07777) != 0) {
		q7_err_set(err, path, "cannot replace: %s", strerror(errno));
		goto cleanup;
	}
	rc = 0;
cleanup:
	if (out)
		elf_end(out);
	q7_outfile_abort(&of);
	if (in)
		elf_end(in);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* A GCC LTO object: its functions are in its IR, not its symbol table. */
static bool is_lto(Elf *elf)
{
	Elf_Scn *scn;
	size_t shstrndx;
	return find_section(elf, ".gnu.lto_", 9, &scn, &shstrndx) == 0 && scn;
}

/* The kernels the records of elf describe as defined there, against its
 * data model and its symbols. 0, or -1 with a message in err. */
static int check_kernels(Elf *elf, const char *what, const struct q7_op_table *t,
                         struct q7_err *err)
{
	unsigned long_bits = gelf_getclass(elf) == ELFCLASS64 ? 64 : 32;
	bool any = false;
	for (size_t i = 0; i < t->n; i++) {
		const struct q7_op *op = &t->ops[i];
		if (op->by_name_only)
			continue;
		for (size_t k = 0; k < op->nparams; k++) {
			if (!q7_cxx_param_type(op->params[k].kind, op->params[k].ctype, long_bits)) {
				q7_err_set(err, what,
				           "%s: damaged record: kernel '%s': parameter %zu's type '%s' is "
				           "no %s in a %u-bit object",
				           Q7_RECORD_SECTION, op->name, k + 1, op->params[k].ctype,
				           q7_kind_name(op->params[k].kind), long_bits);
				return -1;
			}
		}
		any |= op->defined;
	}
	if (!any || is_lto(elf))
		return 0;
	struct q7_strvec defined = {0};
	int rc = q7_symbols_defined_in(elf, what, &defined, err);
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		const struct q7_op *op = &t->ops[i];
		if (op->by_name_only || !op->defined)
			continue;
		char *sym = q7_cxx_symbol(op);
		if (!sym || !q7_sv_has(&defined, sym)) {
			q7_err_set(err, what,
			           "%s: damaged record: the object does not define kernel '%s' (symbol "
			           "%s) that its record describes",
			           Q7_RECORD_SECTION, *op->qualname ? op->qualname : op->name,
			           sym ? sym : "?");
			rc = -1;
		}
		free(sym);
	}
	q7_sv_free(&defined);
	return rc;
}

/* Records of one ELF object (a file or an archive member). */
static int read_object(Elf *elf, const char *what, void *ops, struct q7_err *err)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	if (check_object(elf, what, &eh, err) != 0)
		return -1;
	if (find_section(elf, Q7_RECORD_SECTION, sizeof Q7_RECORD_SECTION, &scn, &shstrndx) != 0) {
		q7_elf_error(err, what, "reading the object");
		return -1;
	}
	if (!scn)
		return 0;
	GElf_Shdr sh;
	if (!gelf_getshdr(scn, &sh)) {
		q7_elf_error(err, what, "reading " Q7_RECORD_SECTION);
		return -1;
	}
	if (sh.sh_type == SHT_NOBITS) {
		q7_err_set(err, what, "%s: section has no contents", Q7_RECORD_SECTION);
		return -1;
	}
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (!d) {
		q7_elf_error(err, what, "reading " Q7_RECORD_SECTION);
		return -1;
	}
	struct q7_op_table t = {0};
	int rc = q7_record_decode(d->d_buf, d->d_size, what, &t, err);
	if (rc == 0)
		rc = check_kernels(elf, what, &t, err);
	if (rc == 0) {
		struct q7_op_table *out = ops;
		for (size_t i = 0; i < t.n; i++) {
			t.ops[i].from = q7_xstrdup(what);
			*q7_ops_add(out) = t.ops[i]; /* moves */
		}
		free(t.ops);
	} else {
		q7_ops_free(&t);
	}
	return rc;
}

int q7_record_read(const char *path, struct q7_op_table *ops, struct q7_err *err)
{
	return q7_elf_each_object(path, read_object, ops, err);
}

/* The text of one object's section (a file or an archive member). */
struct section_text {
	const char *sec;
	struct q7_strvec *out;
};

static int read_text(Elf *elf, const char *what, void *arg, struct q7_err *err)
{
	const struct section_text *t = arg;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	if (check_object(elf, what, &eh, err) != 0)
		return -1;
	if (find_section(elf, t->sec, strlen(t->sec) + 1, &scn, &shstrndx) != 0) {
		q7_elf_error(err, what, "reading the object");
		return -1;
	}
	if (!scn)
		return 0;
	Elf_Data *d = gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS ? elf_rawdata(scn, NULL)
	                                                                 : NULL;
	if (!d || memchr(d->d_buf, '\0', d->d_size)) {
		q7_err_set(err, what, "%s: damaged section (not text)", t->sec);
		return -1;
	}
	char *text = q7_xstrndup(d->d_buf, d->d_size);
	q7_sv_add(t->out, text);
	free(text);
	return 0;
}

int q7_section_read(const char *path, const char *sec, struct q7_strvec *out, struct q7_err *err)
{
	struct section_text t = {sec, out};
	return q7_elf_each_object(path, read_text, &t, err);
}
