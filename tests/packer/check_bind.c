/* tests/packer/check_bind: binding without -l (packer/bind.c) on real
 * Xtensa images, fixture/bind.c linked four ways at build time (see
 * CMakeLists.txt). Each image is packed by q7_pack() into a temporary
 * folder, and the stripped image is read back with libelf and compared
 * with the input, relocation by relocation and byte by byte:
 *   - undefined weak GLOB_DAT/JMP_SLOT words become 0, their .rela.dyn
 *     entries and the two R_XTENSA_RTLD become R_XTENSA_NONE, nothing else
 *     changes, and the linked image is left as it was;
 *   - a defined symbol's GLOB_DAT becomes R_XTENSA_RELATIVE with the
 *     symbol's address in the word; an absolute one NONE with its value;
 *   - with -l nothing changes;
 *   - a defined symbol's JMP_SLOT (its table is dropped) and a strong
 *     undefined symbol are refused by name, type and offset, and so is
 *     damage to the symbol indexes and tables, with no output left.
 * argv: bind_weak.so bind_defined.so bind_plt.so bind_strong.so */
#include "pack.h"
#include "support.h"

#include <check.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { R_NONE = 0, R_32 = 1, R_RTLD = 2, R_GLOB_DAT = 3, R_JMP_SLOT = 4, R_RELATIVE = 5 };

static const char *weak_path, *defined_path, *plt_path, *strong_path;
static char *dir;

/* ---- reading an image ---- */

struct img {
	unsigned char *bytes;
	size_t size;
	Elf *e;
	size_t shstrndx;
};

struct rel {
	GElf_Rela r;
	unsigned type, sym;
	size_t pos; /* the entry's file offset */
};

static void img_open(struct img *m, const char *path)
{
	m->bytes = (unsigned char *)q7_read_file(path, &m->size);
	ck_assert_msg(m->bytes != NULL, "cannot read %s", path);
	m->e = elf_memory((char *)m->bytes, m->size);
	ck_assert_ptr_nonnull(m->e);
	ck_assert_int_eq(elf_getshdrstrndx(m->e, &m->shstrndx), 0);
}

static void img_close(struct img *m)
{
	elf_end(m->e);
	free(m->bytes);
}

/* The section called name, or NULL. */
static Elf_Scn *img_scn(const struct img *m, const char *name, GElf_Shdr *sh)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(m->e, s));) {
		gelf_getshdr(s, sh);
		if (strcmp(elf_strptr(m->e, m->shstrndx, sh->sh_name), name) == 0)
			return s;
	}
	return NULL;
}

/* The entries of RELA section name (none when it is absent). */
static size_t img_rels(const struct img *m, const char *name, struct rel *out, size_t max)
{
	GElf_Shdr sh;
	Elf_Scn *s = img_scn(m, name, &sh);
	if (!s)
		return 0;
	Elf_Data *d = elf_getdata(s, NULL);
	size_t n = sh.sh_size / 12;
	ck_assert_uint_le(n, max);
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(gelf_getrela(d, (int)i, &out[i].r));
		out[i].type = (unsigned)GELF_R_TYPE(out[i].r.r_info);
		out[i].sym = (unsigned)GELF_R_SYM(out[i].r.r_info);
		out[i].pos = sh.sh_offset + 12 * i;
	}
	return n;
}

/* Dynamic symbol i and its name. */
static const char *img_sym(const struct img *m, size_t i, GElf_Sym *sym)
{
	GElf_Shdr sh;
	Elf_Scn *s = img_scn(m, ".dynsym", &sh);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(gelf_getsym(elf_getdata(s, NULL), (int)i, sym));
	return elf_strptr(m->e, sh.sh_link, sym->st_name);
}

static size_t img_sym_index(const struct img *m, const char *name)
{
	GElf_Shdr sh;
	ck_assert_ptr_nonnull(img_scn(m, ".dynsym", &sh));
	for (size_t i = 1; i < sh.sh_size / 16; i++) {
		GElf_Sym sym;
		if (strcmp(img_sym(m, i, &sym), name) == 0)
			return i;
	}
	ck_abort_msg("no dynamic symbol %s", name);
	return 0;
}

/* The file offset of the word at link address va (in an allocated
 * section with contents). */
static size_t img_word_pos(const struct img *m, uint64_t va)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(m->e, s));) {
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_type != SHT_NOBITS && va >= sh.sh_addr &&
		    va + 4 <= sh.sh_addr + sh.sh_size)
			return sh.sh_offset + (va - sh.sh_addr);
	}
	ck_abort_msg("0x%llx is in no section", (unsigned long long)va);
	return 0;
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t img_word(const struct img *m, uint64_t va)
{
	return rd32(m->bytes + img_word_pos(m, va));
}

static bool is_weak_undef(const struct img *m, unsigned sym)
{
	GElf_Sym s;
	img_sym(m, sym, &s);
	return s.st_shndx == SHN_UNDEF && GELF_ST_BIND(s.st_info) == STB_WEAK;
}

/* ---- packing ---- */

static char *out_path(const char *tag, const char *what)
{
	return q7_xasprintf("%s/%s.%s.so", dir, tag, what);
}

/* Packs in into dir/<tag>.{stripped,packed}.so; returns q7_pack's result
 * and its messages in *msg (caller frees). */
static int pack(const char *in, bool symlookup, bool verbose, const char *tag, char **msg)
{
	char *spath = out_path(tag, "stripped"), *ppath = out_path(tag, "packed");
	char *mpath = out_path(tag, "msg");
	struct q7_strvec notes = {0};
	struct q7_err err = Q7_ERR_GROWING;
	struct q7_pack_opts o = {.input = in, .output = ppath, .stripped = spath,
	                         .symlookup = symlookup, .notes = verbose ? &notes : NULL};
	fflush(stderr);
	int saved = dup(2), fd = open(mpath, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	/* Shown as q7-pkg-loadlib shows them (packer/cli.c). */
	int rc = q7_pack(&o, &err);
	for (size_t i = 0; i < notes.n; i++)
		q7_note("%s", notes.v[i]);
	q7_err_print(&err);
	q7_sv_free(&notes);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	size_t len;
	*msg = q7_read_file(mpath, &len);
	ck_assert_ptr_nonnull(*msg);
	unlink(mpath);
	free(spath);
	free(ppath);
	free(mpath);
	return rc;
}

static bool exists(const char *tag, const char *what)
{
	char *p = out_path(tag, what);
	bool yes = access(p, F_OK) == 0;
	free(p);
	return yes;
}

/* Opens the stripped image of tag. */
static void open_stripped(struct img *m, const char *tag)
{
	char *p = out_path(tag, "stripped");
	img_open(m, p);
	free(p);
}

/* Input and stripped image, and their relocations. */
struct case_ {
	struct img in, st;
	struct rel dyn[32], plt[8], sdyn[32];
	size_t ndyn, nplt, nsdyn;
};

static void case_open(struct case_ *c, const char *in, const char *tag)
{
	img_open(&c->in, in);
	open_stripped(&c->st, tag);
	c->ndyn = img_rels(&c->in, ".rela.dyn", c->dyn, 32);
	c->nplt = img_rels(&c->in, ".rela.plt", c->plt, 8);
	c->nsdyn = img_rels(&c->st, ".rela.dyn", c->sdyn, 32);
}

static void case_close(struct case_ *c)
{
	img_close(&c->in);
	img_close(&c->st);
}

static size_t count(const struct rel *r, size_t n, unsigned type)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += r[i].type == type;
	return k;
}

/* Whether byte at offset o of input section sh may differ: the word of a
 * relocation that names a symbol, or a .rela.dyn entry that does (or is
 * an RTLD). */
static bool may_differ(const struct case_ *c, const GElf_Shdr *sh, const char *name, size_t o)
{
	if (strcmp(name, ".rela.dyn") == 0) {
		unsigned t = c->dyn[o / 12].type;
		return t == R_GLOB_DAT || t == R_JMP_SLOT || t == R_RTLD;
	}
	uint64_t va = sh->sh_addr + o;
	for (size_t i = 0; i < c->ndyn + c->nplt; i++) {
		const struct rel *r = i < c->ndyn ? &c->dyn[i] : &c->plt[i - c->ndyn];
		if ((r->type == R_GLOB_DAT || r->type == R_JMP_SLOT) && (sh->sh_flags & SHF_ALLOC) &&
		    va >= r->r.r_offset && va < r->r.r_offset + 4)
			return true;
	}
	return false;
}

/* Every section of the stripped image holds its input's bytes, but for
 * what binding may change. */
static void only_bound_bytes_differ(const struct case_ *c)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(c->st.e, s));) {
		GElf_Shdr sh, ish;
		gelf_getshdr(s, &sh);
		const char *name = elf_strptr(c->st.e, c->st.shstrndx, sh.sh_name);
		if (strcmp(name, ".shstrtab") == 0 || sh.sh_type == SHT_NOBITS)
			continue;
		ck_assert_msg(img_scn(&c->in, name, &ish) != NULL, "%s is not in the input", name);
		ck_assert_uint_eq(sh.sh_size, ish.sh_size);
		for (size_t o = 0; o < sh.sh_size; o++)
			if (c->st.bytes[sh.sh_offset + o] != c->in.bytes[ish.sh_offset + o])
				ck_assert_msg(may_differ(c, &ish, name, o), "%s+0x%zx changed", name, o);
	}
}

/* The packed object's .rodata is the stripped image, byte for byte. */
static void packed_holds_stripped(const struct case_ *c, const char *tag)
{
	struct img p;
	char *path = out_path(tag, "packed");
	img_open(&p, path);
	GElf_Shdr sh;
	ck_assert_ptr_nonnull(img_scn(&p, ".rodata", &sh));
	ck_assert_uint_eq(sh.sh_size, c->st.size);
	ck_assert_int_eq(memcmp(p.bytes + sh.sh_offset, c->st.bytes, c->st.size), 0);
	img_close(&p);
	free(path);
}

/* ---- the cases ---- */

START_TEST(weak_references_bound)
{
	size_t before_size;
	char *before = q7_read_file(weak_path, &before_size), *msg;
	ck_assert_int_eq(pack(weak_path, false, false, "weak", &msg), 0);
	ck_assert_str_eq(msg, "");
	struct case_ c;
	case_open(&c, weak_path, "weak");
	/* Not blind: the input has every kind, and only weak references. */
	ck_assert_uint_ge(count(c.dyn, c.ndyn, R_GLOB_DAT), 2);
	ck_assert_uint_eq(count(c.dyn, c.ndyn, R_RTLD), 2);
	ck_assert_uint_ge(count(c.dyn, c.ndyn, R_RELATIVE), 1);
	ck_assert_uint_eq(count(c.plt, c.nplt, R_JMP_SLOT), 1);
	for (size_t i = 0; i < c.ndyn + c.nplt; i++) {
		const struct rel *r = i < c.ndyn ? &c.dyn[i] : &c.plt[i - c.ndyn];
		if (r->type == R_GLOB_DAT || r->type == R_JMP_SLOT)
			ck_assert(is_weak_undef(&c.in, r->sym));
	}
	/* The symbol lookup is gone. */
	GElf_Shdr sh;
	ck_assert_ptr_null(img_scn(&c.st, ".dynsym", &sh));
	ck_assert_ptr_null(img_scn(&c.st, ".rela.plt", &sh));
	ck_assert_ptr_null(img_scn(&c.st, ".hash", &sh));
	/* .rela.dyn: RELATIVE as it was, the rest NONE at the same offset. */
	ck_assert_uint_eq(c.nsdyn, c.ndyn);
	for (size_t k = 0; k < c.ndyn; k++) {
		const struct rel *r = &c.dyn[k], *s = &c.sdyn[k];
		ck_assert_uint_eq(s->r.r_offset, r->r.r_offset);
		if (r->type == R_RELATIVE) {
			ck_assert_uint_eq(s->r.r_info, r->r.r_info);
			ck_assert_int_eq(s->r.r_addend, r->r.r_addend);
		} else {
			ck_assert_uint_eq(s->r.r_info, 0);
			ck_assert_int_eq(s->r.r_addend, 0);
		}
	}
	/* The words are 0 + addend; the PLT slot held its entry's address. */
	for (size_t i = 0; i < c.ndyn + c.nplt; i++) {
		const struct rel *r = i < c.ndyn ? &c.dyn[i] : &c.plt[i - c.ndyn];
		if (r->type != R_GLOB_DAT && r->type != R_JMP_SLOT)
			continue;
		ck_assert_uint_eq(img_word(&c.st, r->r.r_offset), (uint32_t)r->r.r_addend);
		if (r->type == R_JMP_SLOT)
			ck_assert_uint_ne(img_word(&c.in, r->r.r_offset), 0);
	}
	only_bound_bytes_differ(&c);
	packed_holds_stripped(&c, "weak");
	/* The linked image itself is never modified. */
	ck_assert_uint_eq(c.in.size, before_size);
	ck_assert_int_eq(memcmp(c.in.bytes, before, before_size), 0);
	case_close(&c);
	free(before);
	free(msg);
}
END_TEST

/* The GLOB_DAT in .rela.dyn that names symbol name. */
static size_t glob_dat_of(const struct case_ *c, const char *name)
{
	size_t sym = img_sym_index(&c->in, name);
	for (size_t k = 0; k < c->ndyn; k++)
		if (c->dyn[k].type == R_GLOB_DAT && c->dyn[k].sym == sym)
			return k;
	ck_abort_msg("no GLOB_DAT names %s", name);
	return 0;
}

START_TEST(defined_symbol_becomes_relative)
{
	char *msg;
	ck_assert_int_eq(pack(defined_path, false, true, "defined", &msg), 0);
	struct case_ c;
	case_open(&c, defined_path, "defined");
	size_t k = glob_dat_of(&c, "table");
	GElf_Sym table;
	img_sym(&c.in, c.dyn[k].sym, &table);
	ck_assert_uint_ne(table.st_shndx, SHN_UNDEF);
	/* GNU ld leaves 0 in the word; now it is the link-time address. */
	ck_assert_uint_eq(img_word(&c.in, c.dyn[k].r.r_offset), 0);
	ck_assert_uint_eq(img_word(&c.st, c.dyn[k].r.r_offset),
	                  (uint32_t)(table.st_value + c.dyn[k].r.r_addend));
	ck_assert_uint_eq(c.sdyn[k].r.r_info, R_RELATIVE);
	ck_assert_int_eq(c.sdyn[k].r.r_addend, 0);
	ck_assert_uint_eq(c.sdyn[k].r.r_offset, c.dyn[k].r.r_offset);
	ck_assert_uint_eq(c.nsdyn, c.ndyn);
	size_t weak = 0, defined = 0;
	for (size_t i = 0; i < c.ndyn + c.nplt; i++) {
		const struct rel *r = i < c.ndyn ? &c.dyn[i] : &c.plt[i - c.ndyn];
		if (r->type == R_GLOB_DAT || r->type == R_JMP_SLOT)
			*(is_weak_undef(&c.in, r->sym) ? &weak : &defined) += 1;
	}
	for (size_t i = 0; i < c.nsdyn; i++)
		ck_assert(c.sdyn[i].type == R_NONE || c.sdyn[i].type == R_RELATIVE);
	ck_assert_uint_eq(count(c.sdyn, c.nsdyn, R_RELATIVE),
	                  count(c.dyn, c.ndyn, R_RELATIVE) + defined);
	only_bound_bytes_differ(&c);
	packed_holds_stripped(&c, "defined");
	/* -v says how many were bound and how, in one line. */
	char want[300];
	snprintf(want, sizeof want, "bound %zu relocations for loading without the symbol "
	         "table: %zu undefined weak to 0, %zu defined to R_XTENSA_RELATIVE, 0 absolute "
	         "to their value, 2 R_XTENSA_RTLD to R_XTENSA_NONE\n", weak + defined + 2, weak,
	         defined);
	ck_assert_msg(strstr(msg, want) != NULL, "expected \"%s\" in \"%s\"", want, msg);
	ck_assert_uint_eq(defined, 1);
	case_close(&c);
	free(msg);
}
END_TEST

/* A copy of path, edited by fn, written to dir/<tag>.so. */
static char *edited(const char *path, const char *tag, void (*fn)(struct img *, void *),
                    void *arg)
{
	struct img m;
	img_open(&m, path);
	fn(&m, arg);
	char *out = q7_xasprintf("%s/%s.so", dir, tag);
	FILE *f = fopen(out, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(m.bytes, 1, m.size, f), m.size);
	fclose(f);
	img_close(&m);
	return out;
}

/* Symbol table's file offset of its entry i. */
static size_t sym_pos(const struct img *m, size_t i)
{
	GElf_Shdr sh;
	ck_assert_ptr_nonnull(img_scn(m, ".dynsym", &sh));
	return sh.sh_offset + 16 * i;
}

static void make_table_absolute(struct img *m, void *arg)
{
	(void)arg;
	size_t at = sym_pos(m, img_sym_index(m, "table"));
	wr32(m->bytes + at + 4, 0x1234);
	m->bytes[at + 14] = SHN_ABS & 0xff;
	m->bytes[at + 15] = SHN_ABS >> 8;
}

START_TEST(absolute_symbol)
{
	char *path = edited(defined_path, "abs", make_table_absolute, NULL), *msg;
	ck_assert_int_eq(pack(path, false, false, "abs", &msg), 0);
	struct case_ c;
	case_open(&c, path, "abs");
	size_t k = glob_dat_of(&c, "table");
	ck_assert_uint_eq(img_word(&c.st, c.dyn[k].r.r_offset), 0x1234 + c.dyn[k].r.r_addend);
	ck_assert_uint_eq(c.sdyn[k].r.r_info, R_NONE);
	ck_assert_int_eq(c.sdyn[k].r.r_addend, 0);
	case_close(&c);
	free(path);
	free(msg);
}
END_TEST

START_TEST(symlookup_changes_nothing)
{
	char *msg;
	ck_assert_int_eq(pack(defined_path, true, true, "lookup", &msg), 0);
	ck_assert_ptr_null(strstr(msg, "bound"));
	struct case_ c;
	case_open(&c, defined_path, "lookup");
	GElf_Shdr sh;
	ck_assert_ptr_nonnull(img_scn(&c.st, ".dynsym", &sh));
	struct rel splt[8];
	size_t nsplt = img_rels(&c.st, ".rela.plt", splt, 8);
	ck_assert_uint_eq(c.nsdyn, c.ndyn);
	ck_assert_uint_eq(nsplt, c.nplt);
	ck_assert_uint_gt(c.nplt, 0);
	for (size_t i = 0; i < c.ndyn + c.nplt; i++) {
		const struct rel *r = i < c.ndyn ? &c.dyn[i] : &c.plt[i - c.ndyn];
		const struct rel *s = i < c.ndyn ? &c.sdyn[i] : &splt[i - c.ndyn];
		ck_assert_int_eq(memcmp(&s->r, &r->r, sizeof r->r), 0);
		ck_assert_uint_eq(img_word(&c.st, r->r.r_offset), img_word(&c.in, r->r.r_offset));
	}
	case_close(&c);
	free(msg);
}
END_TEST

/* Refused: rc -1, one message naming the file and holding want, and no
 * output left behind. */
static void expect_refused(const char *path, const char *tag, const char *want)
{
	char *msg;
	ck_assert_int_eq(pack(path, false, false, tag, &msg), -1);
	char *head = q7_xasprintf("q7-pkg-loadlib: error: %s: ", path);
	ck_assert_msg(strncmp(msg, head, strlen(head)) == 0, "does not name the file: %s", msg);
	ck_assert_msg(strstr(msg, want) != NULL, "expected \"%s\" in \"%s\"", want, msg);
	ck_assert_msg(strchr(msg, '\n') == msg + strlen(msg) - 1, "not one line: %s", msg);
	ck_assert(!exists(tag, "stripped") && !exists(tag, "packed"));
	free(head);
	free(msg);
}

START_TEST(defined_plt_slot_refused)
{
	struct img m;
	struct rel plt[8];
	img_open(&m, plt_path);
	size_t n = img_rels(&m, ".rela.plt", plt, 8), helper = img_sym_index(&m, "helper"), k = 0;
	while (k < n && plt[k].sym != helper)
		k++;
	ck_assert_uint_lt(k, n);
	char want[200];
	snprintf(want, sizeof want, "R_XTENSA_JMP_SLOT (type 4) at offset 0x%llx binds 'helper', "
	         "which the image defines", (unsigned long long)plt[k].r.r_offset);
	expect_refused(plt_path, "plt", want);
	expect_refused(plt_path, "plt", "link with -Wl,-Bsymbolic, or pack with -l");
	/* With -l it packs as it always did. */
	char *msg;
	ck_assert_int_eq(pack(plt_path, true, false, "plt", &msg), 0);
	img_close(&m);
	free(msg);
}
END_TEST

START_TEST(strong_undefined_refused)
{
	struct img m;
	img_open(&m, strong_path);
	struct case_ c = {.in = m};
	c.ndyn = img_rels(&m, ".rela.dyn", c.dyn, 32);
	size_t k = glob_dat_of(&c, "required_value");
	char want[200];
	snprintf(want, sizeof want, "undefined symbol 'required_value' in R_XTENSA_GLOB_DAT "
	         "(type 3) at offset 0x%llx", (unsigned long long)c.dyn[k].r.r_offset);
	expect_refused(strong_path, "strong", want);
	img_close(&m);
}
END_TEST

/* ---- damage to the symbol indexes and tables ---- */

struct edit {
	enum { E_RELA_SYM, E_RELA_TYPE, E_RELA_OFFSET, E_SYM_FIELD, E_SHDR_FIELD } what;
	const char *name; /* the symbol (E_SYM_FIELD) or section (E_SHDR_FIELD) */
	size_t field;     /* byte offset in the symbol entry or section header */
	uint32_t value;
	int byte;         /* E_SYM_FIELD: >= 0 writes this one byte instead */
};

static size_t shdr_pos(const struct img *m, const char *name)
{
	GElf_Ehdr eh;
	gelf_getehdr(m->e, &eh);
	GElf_Shdr sh;
	Elf_Scn *s = img_scn(m, name, &sh);
	ck_assert_ptr_nonnull(s);
	return eh.e_shoff + elf_ndxscn(s) * eh.e_shentsize;
}

/* The first GLOB_DAT of .rela.dyn naming an undefined weak symbol. */
static const struct rel *weak_glob_dat(const struct img *m, struct rel *dyn)
{
	size_t n = img_rels(m, ".rela.dyn", dyn, 32);
	for (size_t k = 0; k < n; k++)
		if (dyn[k].type == R_GLOB_DAT && is_weak_undef(m, dyn[k].sym))
			return &dyn[k];
	ck_abort_msg("no weak GLOB_DAT");
	return NULL;
}

static void apply_edit(struct img *m, void *arg)
{
	const struct edit *e = arg;
	struct rel dyn[32];
	const struct rel *r = weak_glob_dat(m, dyn);
	switch (e->what) {
	case E_RELA_SYM:
		wr32(m->bytes + r->pos + 4, e->value << 8 | r->type);
		break;
	case E_RELA_TYPE:
		wr32(m->bytes + r->pos + 4, r->sym << 8 | e->value);
		break;
	case E_RELA_OFFSET:
		wr32(m->bytes + r->pos, e->value);
		break;
	case E_SYM_FIELD: {
		size_t at = sym_pos(m, img_sym_index(m, e->name)) + e->field;
		if (e->byte >= 0)
			m->bytes[at] = (unsigned char)e->byte;
		else
			wr32(m->bytes + at, e->value);
		break;
	}
	case E_SHDR_FIELD:
		wr32(m->bytes + shdr_pos(m, e->name) + e->field, e->value);
		break;
	}
}

static void damaged(const struct edit *e, const char *tag, const char *want)
{
	char *path = edited(defined_path, tag, apply_edit, (void *)e);
	expect_refused(path, tag, want);
	free(path);
}

START_TEST(damaged_symbol_indexes_refused)
{
	struct img m;
	img_open(&m, defined_path);
	GElf_Shdr dynsym, text;
	ck_assert_ptr_nonnull(img_scn(&m, ".dynsym", &dynsym));
	Elf_Scn *ts = img_scn(&m, ".text", &text);
	size_t nsyms = dynsym.sh_size / 16, table = img_sym_index(&m, "table");
	struct rel dyn[32];
	const struct rel *r = weak_glob_dat(&m, dyn);
	char want[240];
	snprintf(want, sizeof want, "R_XTENSA_GLOB_DAT (type 3) at offset 0x%llx names symbol "
	         "16777215, but .dynsym has %zu", (unsigned long long)r->r.r_offset, nsyms);
	damaged(&(struct edit){E_RELA_SYM, NULL, 0, 0xffffff, -1}, "sym-huge", want);
	snprintf(want, sizeof want, "names symbol %zu, but .dynsym has %zu", nsyms, nsyms);
	damaged(&(struct edit){E_RELA_SYM, NULL, 0, (uint32_t)nsyms, -1}, "sym-past", want);
	snprintf(want, sizeof want, "R_XTENSA_GLOB_DAT (type 3) at offset 0x%llx names no symbol",
	         (unsigned long long)r->r.r_offset);
	damaged(&(struct edit){E_RELA_SYM, NULL, 0, 0, -1}, "sym-zero", want);
	snprintf(want, sizeof want, "R_XTENSA_32 (type 1) at offset 0x%llx names symbol %u; "
	         "without -l only R_XTENSA_GLOB_DAT and R_XTENSA_JMP_SLOT can be bound",
	         (unsigned long long)r->r.r_offset, r->sym);
	damaged(&(struct edit){E_RELA_TYPE, NULL, 0, R_32, -1}, "type-32", want);
	damaged(&(struct edit){E_RELA_OFFSET, NULL, 0, 0xfffffff0u, -1}, "word-outside",
	        "R_XTENSA_GLOB_DAT (type 3) at offset 0xfffffff0: its word lies in no section "
	        "the stripped image keeps");
	snprintf(want, sizeof want, "symbol %zu's name (offset 0xffffff) does not end inside the "
	         "string table of .dynsym", table);
	damaged(&(struct edit){E_SYM_FIELD, "table", 0, 0xffffff, -1}, "name-outside", want);
	damaged(&(struct edit){E_SYM_FIELD, "table", 4, 0x10, -1}, "value-outside",
	        "symbol 'table' (0x10) in R_XTENSA_GLOB_DAT (type 3)");
	damaged(&(struct edit){E_SYM_FIELD, "table", 12, 0, STB_GLOBAL << 4 | STT_TLS}, "tls",
	        "is thread-local, which cannot be bound at pack time");
	/* The weak reference made strong: refused by name. */
	snprintf(want, sizeof want, "undefined symbol '%s' in R_XTENSA_GLOB_DAT (type 3) at "
	         "offset 0x%llx", img_sym(&m, r->sym, &(GElf_Sym){0}),
	         (unsigned long long)r->r.r_offset);
	damaged(&(struct edit){E_SYM_FIELD, img_sym(&m, r->sym, &(GElf_Sym){0}), 12, 0,
	                       STB_GLOBAL << 4 | STT_NOTYPE}, "strong", want);
	damaged(&(struct edit){E_SHDR_FIELD, ".dynsym", 36, 12, -1}, "dynsym-entsize",
	        "section .dynsym: entry size 12, expected 16");
	snprintf(want, sizeof want, "section .dynsym: size %llu is not a multiple of its entry "
	         "size 16", (unsigned long long)dynsym.sh_size - 4);
	damaged(&(struct edit){E_SHDR_FIELD, ".dynsym", 20, (uint32_t)dynsym.sh_size - 4, -1},
	        "dynsym-size", want);
	damaged(&(struct edit){E_SHDR_FIELD, ".rela.dyn", 36, 8, -1}, "rela-entsize",
	        "section .rela.dyn: entry size 8, expected 12");
	/* libelf would read a compression header from these when writing
	 * the stripped image, and fail naming nothing but the output. */
	damaged(&(struct edit){E_SHDR_FIELD, ".rela.dyn", 8, SHF_ALLOC | SHF_COMPRESSED, -1},
	        "rela-compressed", "section .rela.dyn: compressed, but allocated");
	damaged(&(struct edit){E_SHDR_FIELD, ".symtab", 8, SHF_COMPRESSED, -1}, "symtab-compressed",
	        "section .symtab: compressed, but made of entries");
	snprintf(want, sizeof want, ".rela.dyn names symbols, but its link (section %zu) is not "
	         "a dynamic symbol table", elf_ndxscn(ts));
	damaged(&(struct edit){E_SHDR_FIELD, ".rela.dyn", 24, (uint32_t)elf_ndxscn(ts), -1},
	        "rela-link", want);
	img_close(&m);
}
END_TEST

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: check_bind BIND_WEAK BIND_DEFINED BIND_PLT BIND_STRONG\n");
		return 2;
	}
	weak_path = argv[1];
	defined_path = argv[2];
	plt_path = argv[3];
	strong_path = argv[4];
	q7_set_progname("q7-pkg-loadlib");
	elf_version(EV_CURRENT);
	const char *tmp = getenv("TMPDIR");
	dir = q7_xasprintf("%s/q7-check-bind.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("check_bind: mkdtemp");
		return 1;
	}
	Suite *s = suite_create("bind");
	TCase *t = tcase_create("bind");
	tcase_add_test(t, weak_references_bound);
	tcase_add_test(t, defined_symbol_becomes_relative);
	tcase_add_test(t, absolute_symbol);
	tcase_add_test(t, symlookup_changes_nothing);
	tcase_add_test(t, defined_plt_slot_refused);
	tcase_add_test(t, strong_undefined_refused);
	tcase_add_test(t, damaged_symbol_indexes_refused);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	char *rm = q7_xasprintf("rm -rf '%s'", dir);
	int rc = system(rm);
	free(rm);
	free(dir);
	return failed || rc != 0 ? 1 : 0;
}
