/* The prelinker on real device images (tests/emulated/fixture, linked with
 * the single-core LSP and packed by q7-pkg-loadlib): placement, relocation
 * arithmetic checked word by word against the unrelocated image, the header
 * and its checksums, and crafted damage made by editing the good image's
 * bytes. Then the symbol fixture (weak_refs.c): GLOB_DAT and JMP_SLOT bound
 * by symbol, checked word by word against what libelf reads from the
 * image, and its symbol table damaged; the same source linked with
 * -Bsymbolic-functions (wkf) and packed without -l, its symbols bound by
 * the packer, against its unpacked image. argv: fk's .stripped.so and
 * .packed.so, wk.so, wk.packed.so (-l), wkf.so and wkf.packed.so. */
#include <check.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelink.h"
#include "support.h"

static const char *stripped_path, *packed_path;
static unsigned char *img, *packed;
static size_t img_size, packed_size;

/* Where things are in the stripped image (by its section headers). */
static size_t rela_off, rela_size, dyn_off, dyn_size;
static uint32_t link_base, entry;

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void load_fixture(void)
{
	img = (unsigned char *)q7_read_file(stripped_path, &img_size);
	packed = (unsigned char *)q7_read_file(packed_path, &packed_size);
	elf_version(EV_CURRENT);
	Elf *e = img && packed ? elf_memory((char *)img, img_size) : NULL;
	if (!e) {
		fprintf(stderr, "check_prelink: cannot read the fixture images\n");
		exit(1);
	}
	GElf_Ehdr eh;
	gelf_getehdr(e, &eh);
	entry = (uint32_t)eh.e_entry;
	size_t shstrndx;
	elf_getshdrstrndx(e, &shstrndx);
	link_base = 0xffffffffu;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (strcmp(name, ".rela.dyn") == 0)
			rela_off = sh.sh_offset, rela_size = sh.sh_size;
		if (strcmp(name, ".dynamic") == 0)
			dyn_off = sh.sh_offset, dyn_size = sh.sh_size;
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_addr < link_base)
			link_base = (uint32_t)sh.sh_addr;
	}
	elf_end(e);
	if (rela_size < 12 * 4 || !dyn_size) {
		fprintf(stderr, "check_prelink: the fixture has too few relocations\n");
		exit(1);
	}
}

static void free_fixture(void)
{
	free(img);
	free(packed);
}

/* Prelinks buf; returns 0/1 and the message. */
static int run(const unsigned char *buf, size_t n, int core, int have_base, uint32_t base,
               struct q7_prelinked *pl, char *err)
{
	struct q7_prelink_opts o = {.symbol = "lib_func", .core = core, .have_base = have_base != 0,
	                            .base = base};
	return q7_prelink_memory(&o, buf, n, "fixture", pl, &(struct q7_err){.msg = err, .size = Q7_PL_ERR_SIZE});
}

/* Prelinks a damaged copy and expects the message to contain want. */
static void expect_refused(const unsigned char *buf, size_t n, const char *want)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(buf, n, -1, 1, 0x60100000u, &pl, err), 1);
	ck_assert_msg(strstr(err, want) != NULL, "expected \"%s\" in \"%s\"", want, err);
	ck_assert_msg(strncmp(err, "fixture: ", 9) == 0, "message does not name the file: %s", err);
	ck_assert_ptr_null(pl.bytes);
}

static unsigned char *copy_img(void)
{
	unsigned char *c = q7_xmalloc(img_size);
	memcpy(c, img, img_size);
	return c;
}

START_TEST(relocates_every_word)
{
	/* The file bytes of the image's single PT_LOAD, at link addresses. */
	struct q7_prelinked at_link, moved;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(img, img_size, -1, 0, 0, &at_link, err), 0);
	ck_assert_int_eq(run(img, img_size, -1, 1, 0x60100000u, &moved, err), 0);
	ck_assert_uint_eq(at_link.hdr.base, 0x84000000u);
	ck_assert_uint_eq(at_link.hdr.link_base, link_base);
	ck_assert_uint_eq(at_link.hdr.flags, Q7_PL_F_SINGLE);
	ck_assert_uint_eq(moved.hdr.flags, Q7_PL_F_BASE);
	ck_assert_uint_eq(moved.hdr.base, 0x60100000u);
	ck_assert_uint_eq(moved.hdr.entry, entry - link_base + 0x60100000u);
	ck_assert_uint_eq(moved.hdr.load_size, at_link.hdr.load_size);
	ck_assert_uint_eq(moved.size, at_link.size);
	uint32_t delta = 0x60100000u - link_base;
	/* Each RELATIVE word moved by delta; every other byte unchanged. */
	unsigned char *expect = q7_xmalloc(at_link.size);
	memcpy(expect, at_link.bytes, at_link.size);
	uint32_t n = 0;
	for (size_t o = 0; o < rela_size; o += 12) {
		uint32_t off = rd32(img + rela_off + o), info = rd32(img + rela_off + o + 4);
		ck_assert_uint_eq(info & 0xff, 5);
		unsigned char *w = expect + Q7_PL_HEADER_SIZE + (off - link_base);
		wr32(w, rd32(w) + delta);
		n++;
	}
	ck_assert_uint_eq(moved.hdr.nrelocs, n);
	ck_assert_uint_eq(at_link.hdr.nrelocs, n);
	ck_assert_int_eq(memcmp(expect + Q7_PL_HEADER_SIZE, moved.bytes + Q7_PL_HEADER_SIZE,
	                        moved.size - Q7_PL_HEADER_SIZE), 0);
	free(expect);
	q7_prelinked_free(&at_link);
	q7_prelinked_free(&moved);
}
END_TEST

START_TEST(header_and_checksums)
{
	struct q7_prelinked pl;
	struct q7_pl_header h;
	char err[Q7_PL_ERR_SIZE];
	const char *why = NULL;
	ck_assert_int_eq(run(img, img_size, 3, 0, 0, &pl, err), 0);
	ck_assert_uint_eq(pl.hdr.base, 0x84000000u + 3 * 0x200000u);
	ck_assert_int_eq(pl.hdr.core, 3);
	ck_assert_uint_eq(pl.hdr.flags, Q7_PL_F_CORE);
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, pl.size, &h, &why), 0);
	ck_assert_uint_eq(h.magic, Q7_PL_MAGIC);
	ck_assert_uint_eq(h.version, Q7_PL_VERSION);
	ck_assert_uint_eq(h.entry, pl.hdr.entry);
	ck_assert_uint_eq(h.checksum, q7_crc32(0, pl.bytes + 64, pl.size - 64));
	/* CRC-32's check value. */
	ck_assert_uint_eq(q7_crc32(0, "123456789", 9), 0xcbf43926u);
	pl.bytes[64 + pl.size / 2 - 32] ^= 0x10;
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, pl.size, &h, &why), 1);
	ck_assert_str_eq(why, "prelinked image checksum mismatch");
	pl.bytes[64 + pl.size / 2 - 32] ^= 0x10;
	pl.bytes[8] ^= 1; /* base */
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, pl.size, &h, &why), 1);
	ck_assert_str_eq(why, "prelinked image header checksum mismatch");
	pl.bytes[8] ^= 1;
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, pl.size - 1, &h, &why), 1);
	ck_assert_str_eq(why, "prelinked image is truncated");
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, 10, &h, &why), 1);
	pl.bytes[0] = 'X';
	ck_assert_int_eq(q7_prelinked_check(pl.bytes, pl.size, &h, &why), 1);
	ck_assert_str_eq(why, "not a prelinked image (bad magic)");
	q7_prelinked_free(&pl);
}
END_TEST

/* Every field of a header whose checksum matches is checked (they
 * passed before): made-up values with the header CRC recomputed, against the
 * image prelinked at core 3's window. window: refused only by the
 * placement check of q7-prelink --check (q7_prelinked_check_window). */
#define ADD(n) (((int64_t)1 << 40) + (n)) /* adds n to the field */
#define MOVE16 {8, ADD(16)}, {32, ADD(16)}, {20, ADD(16)} /* base, link base, entry */
static const struct {
	const char *what;
	struct {
		unsigned off; /* field offset in the header; 0 ends the list */
		int64_t value;
	} edit[4];
	const char *why; /* NULL: accepted */
	bool window;
} fields[] = {
	{"core 0x8000", {{40, 0x8000}}, "core field", false},
	{"core -2", {{40, 0xfffffffe}}, "core field", false},
	{"core -1 at a core window", {{40, 0xffffffff}}, "core field", false},
	{"flags 0xfffffff8", {{24, 0xfffffff8}}, "flags are not one of", false},
	{"flags 0", {{24, 0}}, "flags are not one of", false},
	{"flags core|single", {{24, 3}}, "flags are not one of", false},
	{"single-core window naming core 3", {{24, Q7_PL_F_SINGLE}}, "core field", false},
	{"reserved byte 48", {{48, 1}}, "reserved", false},
	{"reserved byte 63", {{60, 0x01000000}}, "reserved", false},
	{"link base 4 bytes off", {{32, ADD(4)}}, "16 bytes", false},
	{"link base at the top", {{32, 0xffffff00}}, "link base range", false},
	{"nrelocs 0xffffffff", {{36, 0xffffffff}}, "relocations", false},
	{"nrelocs past the load bytes", {{36, ADD(1 << 20)}}, "relocations", false},
	{"moved off its window", {MOVE16}, "not that window's", true},
	{"at a chosen base", {{24, Q7_PL_F_BASE}}, NULL, false},
	{"moved, at a chosen base", {{24, Q7_PL_F_BASE}, MOVE16}, NULL, false},
	{"at a chosen base, no core", {{24, Q7_PL_F_BASE}, {40, 0xffffffff}}, NULL, false},
};
#undef MOVE16

START_TEST(header_fields_checked)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(img, img_size, 3, 0, 0, &pl, err), 0);
	unsigned char *b = pl.bytes;
	for (int k = 0; k < 4 && fields[_i].edit[k].off; k++) {
		unsigned off = fields[_i].edit[k].off;
		int64_t v = fields[_i].edit[k].value;
		wr32(b + off, v >> 40 ? rd32(b + off) + (uint32_t)(v & 0xffffffff) : (uint32_t)v);
	}
	wr32(b + 44, q7_crc32(0, b, Q7_PL_HEADER_CRC_SPAN));
	struct q7_pl_header h;
	const char *why = NULL;
	int rc = q7_prelinked_check(b, pl.size, &h, &why);
	if (rc == 0)
		rc = q7_prelinked_check_window(&h, &why);
	if (!fields[_i].why) {
		ck_assert_msg(rc == 0, "%s: refused: %s", fields[_i].what, why);
	} else {
		ck_assert_msg(rc == 1, "%s: accepted", fields[_i].what);
		ck_assert_msg(strstr(why, fields[_i].why), "%s: \"%s\"", fields[_i].what, why);
		/* The shared check (the boot program's) leaves placement alone. */
		ck_assert_int_eq(q7_prelinked_check(b, pl.size, &h, &why), fields[_i].window ? 0 : 1);
	}
	q7_prelinked_free(&pl);
}
END_TEST
#undef ADD

START_TEST(packed_equals_plain_and_is_deterministic)
{
	struct q7_prelinked a, b, c;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(img, img_size, -1, 1, 0x60300000u, &a, err), 0);
	ck_assert_int_eq(run(packed, packed_size, -1, 1, 0x60300000u, &b, err), 0);
	ck_assert_int_eq(run(packed, packed_size, -1, 1, 0x60300000u, &c, err), 0);
	ck_assert_uint_eq(a.size, b.size);
	ck_assert_int_eq(memcmp(a.bytes, b.bytes, a.size), 0);
	ck_assert_int_eq(memcmp(b.bytes, c.bytes, b.size), 0);
	q7_prelinked_free(&a);
	q7_prelinked_free(&b);
	q7_prelinked_free(&c);
}
END_TEST

START_TEST(refuses_damaged_headers)
{
	unsigned char *c = copy_img();
	c[4] = 2; /* ELFCLASS64 */
	expect_refused(c, img_size, "not ELF32");
	memcpy(c, img, img_size);
	c[5] = 2; /* big-endian */
	expect_refused(c, img_size, "not little-endian");
	memcpy(c, img, img_size);
	c[18] = 3; /* EM_386 */
	expect_refused(c, img_size, "not for Xtensa (machine 3)");
	memcpy(c, img, img_size);
	wr32(c + 28, 0x7fffff00u); /* e_phoff */
	expect_refused(c, img_size, "program headers (offset 0x7fffff00");
	memcpy(c, img, img_size);
	c[42] = 40; /* e_phentsize */
	expect_refused(c, img_size, "program header entries of 40 bytes");
	memcpy(c, img, img_size);
	wr32(c + 24, 0x10); /* e_entry */
	expect_refused(c, img_size, "entry point 0x10 is outside");
	memcpy(c, img, img_size);
	/* The first program header's file size past the end of the file. */
	uint32_t ph = rd32(img + 28);
	wr32(c + ph + 16, 0x00ffffffu);
	expect_refused(c, img_size, "is outside the image");
	memcpy(c, img, img_size);
	expect_refused(c, 3, "not an ELF file");
	c[0] = 'X';
	expect_refused(c, img_size, "not an ELF file");
	free(c);
}
END_TEST

START_TEST(truncation_never_crashes)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	/* Cut inside the headers or the loadable bytes: always refused. */
	uint32_t ph = rd32(img + 28);
	size_t file_end = rd32(img + ph + 4) + rd32(img + ph + 16);
	for (size_t n = 0; n < file_end; n += 7) {
		ck_assert_int_eq(run(img, n, -1, 1, 0x60100000u, &pl, err), 1);
		ck_assert_ptr_nonnull(strstr(err, "fixture: "));
	}
	for (size_t n = 0; n < packed_size; n += 13)
		if (run(packed, n, -1, 1, 0x60100000u, &pl, err) == 0)
			q7_prelinked_free(&pl);
}
END_TEST

/* Rewrites relocation i of a copy and expects a refusal naming it. */
static void bad_reloc(unsigned i, uint32_t off, uint32_t info, const char *want)
{
	unsigned char *c = copy_img();
	if (off)
		wr32(c + rela_off + 12 * i, off);
	wr32(c + rela_off + 12 * i + 4, info);
	expect_refused(c, img_size, want);
	free(c);
}

START_TEST(refuses_unsupported_relocations)
{
	uint32_t first = rd32(img + rela_off);
	char want[128];
	snprintf(want, sizeof want, "unsupported relocation R_XTENSA_32 (type 1) at offset 0x%x",
	         first);
	bad_reloc(0, 0, 1, want);
	bad_reloc(0, 0, (2u << 8) | 1, "no Xtensa dynamic linker applies it");
	/* A symbol needs the symbol table, which the packer removed from fk. */
	bad_reloc(2, 0, (7u << 8) | 4, "DT_HASH has no buckets");
	uint32_t second = rd32(img + rela_off + 12);
	snprintf(want, sizeof want, "R_XTENSA_GLOB_DAT (type 3) at offset 0x%x names no symbol",
	         second);
	bad_reloc(1, 0, 3, want);
	bad_reloc(1, 0, 6, "unsupported relocation R_XTENSA_PLT (type 6)");
	bad_reloc(1, 0, 200, "an unknown relocation (type 200)");
	bad_reloc(1, 0, 52, "R_XTENSA_TLS");
	bad_reloc(3, 0, (3u << 8) | 5, "names symbol 3");
	bad_reloc(3, 0x90000000u, 5, "R_XTENSA_RELATIVE at offset 0x90000000 is outside");
	bad_reloc(3, link_base - 4, 5, "is outside the image's file bytes");
	/* R_XTENSA_NONE is skipped, not applied. */
	unsigned char *c = copy_img();
	wr32(c + rela_off + 4, 0);
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(c, img_size, -1, 1, 0x60100000u, &pl, err), 0);
	ck_assert_uint_eq(pl.hdr.nrelocs, rela_size / 12 - 1);
	q7_prelinked_free(&pl);
	free(c);
}
END_TEST

/* Retags the first entry tagged tag of the dynamic section at doff (dsize
 * bytes) in c and sets its value. */
static void retag_in(unsigned char *c, size_t doff, size_t dsize, int32_t tag, int32_t new_tag,
                     uint32_t val)
{
	for (size_t o = 0; o + 8 <= dsize; o += 8)
		if ((int32_t)rd32(c + doff + o) == tag) {
			wr32(c + doff + o, (uint32_t)new_tag);
			wr32(c + doff + o + 4, val);
			return;
		}
	ck_abort_msg("no dynamic tag %d in the fixture", tag);
}

static void retag(unsigned char *c, int32_t tag, int32_t new_tag, uint32_t val)
{
	retag_in(c, dyn_off, dyn_size, tag, new_tag, val);
}

/* A copy of the image with one dynamic entry retagged. */
static unsigned char *with_dyn(int32_t tag, int32_t new_tag, uint32_t val)
{
	unsigned char *c = copy_img();
	retag(c, tag, new_tag, val);
	return c;
}

START_TEST(refuses_damaged_dynamic)
{
	unsigned char *c = with_dyn(DT_RELASZ, DT_RELASZ, 12 * 0x10000);
	expect_refused(c, img_size, "DT_RELA (address 0x");
	free(c);
	c = with_dyn(DT_RELASZ, DT_RELASZ, 13);
	expect_refused(c, img_size, "not a multiple of 12");
	free(c);
	c = with_dyn(DT_RELA, DT_RELA, 0x1000);
	expect_refused(c, img_size, "is outside the image's file bytes");
	free(c);
	c = with_dyn(DT_RELAENT, DT_RELAENT, 8);
	expect_refused(c, img_size, "DT_RELAENT is 8");
	free(c);
	c = with_dyn(DT_RELA, DT_NEEDED, 1);
	expect_refused(c, img_size, "needs another shared library");
	free(c);
	c = with_dyn(DT_RELA, DT_REL, rd32(img + rela_off));
	expect_refused(c, img_size, "REL relocations (DT_REL) are not supported");
	free(c);
	/* No relocation names a symbol: the symbol table is not read. */
	c = with_dyn(DT_HASH, DT_HASH, 0x10);
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_msg(run(c, img_size, -1, 1, 0x60100000u, &pl, err) == 0, "%s", err);
	q7_prelinked_free(&pl);
	free(c);
	c = with_dyn(DT_NULL, DT_DEBUG, 0);
	for (size_t o = 0; o + 8 <= dyn_size; o += 8)
		if (rd32(c + dyn_off + o) == DT_NULL)
			wr32(c + dyn_off + o, DT_DEBUG);
	expect_refused(c, img_size, "no DT_NULL end");
	free(c);
}
END_TEST

/* The last RELA entry as a PLT table: outside DT_RELASZ it is applied on
 * its own (and its type checked), inside it only once. */
START_TEST(plt_relocations)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	uint32_t rela_va = 0, last;
	for (size_t o = 0; o + 8 <= dyn_size; o += 8)
		if (rd32(img + dyn_off + o) == DT_RELA)
			rela_va = rd32(img + dyn_off + o + 4);
	last = rela_va + (uint32_t)rela_size - 12;
	unsigned char *c = with_dyn(DT_STRSZ, DT_JMPREL, last);
	retag(c, DT_SYMENT, DT_PLTRELSZ, 12);
	ck_assert_int_eq(run(c, img_size, -1, 1, 0x60100000u, &pl, err), 0);
	ck_assert_uint_eq(pl.hdr.nrelocs, rela_size / 12);
	q7_prelinked_free(&pl);
	for (size_t o = 0; o + 8 <= dyn_size; o += 8)
		if (rd32(c + dyn_off + o) == DT_RELASZ)
			wr32(c + dyn_off + o + 4, (uint32_t)rela_size - 12);
	ck_assert_int_eq(run(c, img_size, -1, 1, 0x60100000u, &pl, err), 0);
	ck_assert_uint_eq(pl.hdr.nrelocs, rela_size / 12);
	q7_prelinked_free(&pl);
	wr32(c + rela_off + rela_size - 8, 4); /* R_XTENSA_JMP_SLOT, no symbol */
	expect_refused(c, img_size, "R_XTENSA_JMP_SLOT (type 4) at offset");
	expect_refused(c, img_size, "names no symbol");
	free(c);
}
END_TEST

START_TEST(refuses_bad_placement)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_int_eq(run(img, img_size, -1, 1, 0x60100004u, &pl, err), 1);
	ck_assert_ptr_nonnull(strstr(err, "not a multiple of 16 bytes"));
	ck_assert_int_eq(run(img, img_size, -1, 1, 0xffffff00u, &pl, err), 1);
	ck_assert_ptr_nonnull(strstr(err, "does not fit above base"));
	ck_assert_int_eq(run(img, img_size, 9, 0, 0, &pl, err), 1);
	ck_assert_ptr_nonnull(strstr(err, "no core 9"));
	/* 3 MiB of bss: fits the single window, not a core's 2 MiB. */
	unsigned char *c = copy_img();
	uint32_t ph = rd32(img + 28), phnum = rd32(img + 44) & 0xffff;
	for (uint32_t i = 0; i < phnum; i++)
		if (rd32(c + ph + 32 * i) == 1 /* PT_LOAD */)
			wr32(c + ph + 32 * i + 20, 0x300000);
	ck_assert_int_eq(run(c, img_size, 0, 0, 0, &pl, err), 1);
	ck_assert_msg(strstr(err, "more than the 0x200000 of lsp_fll_load_cpu0's window"), "%s", err);
	ck_assert_int_eq(run(c, img_size, -1, 0, 0, &pl, err), 0);
	ck_assert_uint_eq(pl.hdr.load_size + pl.hdr.bss_size, 0x300000);
	q7_prelinked_free(&pl);
	free(c);
}
END_TEST

START_TEST(packed_object_lookup)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	struct q7_prelink_opts o = {.symbol = "nope", .core = -1};
	ck_assert_int_eq(q7_prelink_memory(&o, packed, packed_size, "p", &pl, &Q7_ERR_OF(err)), 1);
	ck_assert_msg(strstr(err, "no global symbol 'nope'") && strstr(err, "lib_func"), "%s", err);
	/* The image's section moved past the end of the packed file. */
	unsigned char *c = q7_xmalloc(packed_size);
	memcpy(c, packed, packed_size);
	uint32_t shoff = rd32(c + 32), shentsize = rd32(c + 46) & 0xffff, shnum = rd32(c + 48) & 0xffff;
	int hit = 0;
	for (uint32_t i = 1; i < shnum; i++) {
		unsigned char *sh = c + shoff + i * shentsize;
		if (rd32(sh + 4) == SHT_PROGBITS && rd32(sh + 20) > 1000) {
			wr32(sh + 16, (uint32_t)packed_size - 8); /* sh_offset */
			hit = 1;
		}
	}
	ck_assert_int_eq(hit, 1);
	ck_assert_int_eq(run(c, packed_size, -1, 0, 0, &pl, err), 1);
	ck_assert_msg(strstr(err, "outside the file") || strstr(err, "not an ELF"), "%s", err);
	free(c);
}
END_TEST

/* ---- the symbol fixture: relocations that name symbols ---- */

#define WK_MAX 64

struct wk_rel {
	size_t pos; /* the entry's file offset */
	uint32_t off, type, sym, addend;
};

struct wk_sym {
	char name[40];
	uint32_t value;
	unsigned bind, type, shndx;
};

static const char *wk_path, *wk_packed_path, *wkf_path, *wkf_packed_path;
static unsigned char *wk, *wk_packed, *wkf, *wkf_packed;
static size_t wk_size, wk_packed_size, wkf_size, wkf_packed_size;
static struct wk_rel wk_rels[WK_MAX];
static struct wk_sym wk_syms[WK_MAX];
static GElf_Phdr wk_loads[4];
static unsigned wk_nrels, wk_nsyms, wk_nloads;
static size_t wk_dynsym_off, wk_hash_off, wk_dyn_off, wk_dyn_size;
/* .hash .dynsym .dynstr .rela.plt: what the packer removes without -l. */
struct span {
	size_t off, size;
};
static struct span wk_lookup[4];
static unsigned wk_nlookup;

/* .rela.dyn, then .rela.plt: the order the prelinker applies them in. */
static void wk_read_relocs(Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	for (size_t i = 0; i < sh->sh_size / 12 && wk_nrels < WK_MAX; i++) {
		GElf_Rela r;
		gelf_getrela(d, (int)i, &r);
		wk_rels[wk_nrels++] = (struct wk_rel){
			sh->sh_offset + 12 * i, (uint32_t)r.r_offset, (uint32_t)GELF_R_TYPE(r.r_info),
			(uint32_t)GELF_R_SYM(r.r_info), (uint32_t)r.r_addend};
	}
}

static void wk_read_syms(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	wk_dynsym_off = sh->sh_offset;
	for (size_t i = 0; i < sh->sh_size / 16 && wk_nsyms < WK_MAX; i++) {
		GElf_Sym sym;
		gelf_getsym(d, (int)i, &sym);
		struct wk_sym *w = &wk_syms[wk_nsyms++];
		snprintf(w->name, sizeof w->name, "%s", elf_strptr(e, sh->sh_link, sym.st_name));
		w->value = (uint32_t)sym.st_value;
		w->bind = GELF_ST_BIND(sym.st_info);
		w->type = GELF_ST_TYPE(sym.st_info);
		w->shndx = sym.st_shndx;
	}
}

static void load_wk(void)
{
	wk = (unsigned char *)q7_read_file(wk_path, &wk_size);
	wk_packed = (unsigned char *)q7_read_file(wk_packed_path, &wk_packed_size);
	wkf = (unsigned char *)q7_read_file(wkf_path, &wkf_size);
	wkf_packed = (unsigned char *)q7_read_file(wkf_packed_path, &wkf_packed_size);
	Elf *e = wk && wk_packed && wkf && wkf_packed ? elf_memory((char *)wk, wk_size) : NULL;
	if (!e) {
		fprintf(stderr, "check_prelink: cannot read the symbol fixture\n");
		exit(1);
	}
	size_t shstrndx, phnum;
	elf_getshdrstrndx(e, &shstrndx);
	elf_getphdrnum(e, &phnum);
	for (size_t i = 0; i < phnum && wk_nloads < 4; i++)
		if (gelf_getphdr(e, (int)i, &wk_loads[wk_nloads]) &&
		    wk_loads[wk_nloads].p_type == PT_LOAD)
			wk_nloads++;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (strcmp(name, ".hash") == 0 || strcmp(name, ".dynsym") == 0 ||
		    strcmp(name, ".dynstr") == 0 || strcmp(name, ".rela.plt") == 0)
			wk_lookup[wk_nlookup++] = (struct span){sh.sh_offset, sh.sh_size};
		if (strcmp(name, ".rela.dyn") == 0 || strcmp(name, ".rela.plt") == 0)
			wk_read_relocs(s, &sh);
		else if (strcmp(name, ".dynsym") == 0)
			wk_read_syms(e, s, &sh);
		else if (strcmp(name, ".hash") == 0)
			wk_hash_off = sh.sh_offset;
		else if (strcmp(name, ".dynamic") == 0)
			wk_dyn_off = sh.sh_offset, wk_dyn_size = sh.sh_size;
	}
	elf_end(e);
	if (!wk_nrels || !wk_nsyms || !wk_hash_off || !wk_dyn_size || !wk_nloads ||
	    wk_nlookup != 4) {
		fprintf(stderr, "check_prelink: the symbol fixture lacks its dynamic tables\n");
		exit(1);
	}
}

static void free_wk(void)
{
	free(wk);
	free(wk_packed);
	free(wkf);
	free(wkf_packed);
}

static unsigned wk_sym_index(const char *name)
{
	for (unsigned i = 0; i < wk_nsyms; i++)
		if (strcmp(wk_syms[i].name, name) == 0)
			return i;
	ck_abort_msg("no symbol %s in the fixture", name);
	return 0;
}

/* The first relocation of a type that names symbol sym (any if sym is
 * -1u). */
static const struct wk_rel *wk_find(uint32_t type, uint32_t sym)
{
	for (unsigned i = 0; i < wk_nrels; i++)
		if (wk_rels[i].type == type && (sym == -1u || wk_rels[i].sym == sym))
			return &wk_rels[i];
	ck_abort_msg("no relocation of type %u naming symbol %u in the fixture", type, sym);
	return NULL;
}

/* The word at link address va in wk's file bytes. */
static const unsigned char *wk_file_word(uint32_t va)
{
	for (unsigned i = 0; i < wk_nloads; i++)
		if (va >= wk_loads[i].p_vaddr && va + 4 <= wk_loads[i].p_vaddr + wk_loads[i].p_filesz)
			return wk + wk_loads[i].p_offset + (va - wk_loads[i].p_vaddr);
	ck_abort_msg("0x%x is not in the fixture's file bytes", va);
	return NULL;
}

/* The load bytes the prelinker must make of wk at base, worked out here
 * from what libelf reads: RELATIVE words moved, GLOB_DAT and JMP_SLOT
 * words S + addend (S = 0 for an undefined weak symbol, else its value
 * moved), R_XTENSA_RTLD words left alone. Returns how many relocations
 * that applies. */
static uint32_t wk_expect(unsigned char *load, uint32_t base)
{
	uint32_t lo = (uint32_t)wk_loads[0].p_vaddr, delta = base - lo, n = 0;
	for (unsigned i = 0; i < wk_nloads; i++)
		memcpy(load + (wk_loads[i].p_vaddr - lo), wk + wk_loads[i].p_offset,
		       wk_loads[i].p_filesz);
	for (unsigned i = 0; i < wk_nrels; i++) {
		const struct wk_rel *r = &wk_rels[i];
		const struct wk_sym *s = &wk_syms[r->sym];
		unsigned char *w = load + (r->off - lo);
		if (r->type == 5)
			wr32(w, rd32(w) + r->addend + delta);
		else if (r->type == 3 || r->type == 4)
			wr32(w, (s->shndx == SHN_UNDEF ? 0 : s->value + delta) + r->addend);
		else
			ck_assert_uint_eq(r->type, 2); /* R_XTENSA_RTLD */
		n += r->type != 2;
	}
	return n;
}

START_TEST(binds_symbols)
{
	/* The fixture has every case: weak undefined and defined symbols, by
	 * GLOB_DAT and by JMP_SLOT, a PLT and a RELATIVE. */
	unsigned hook = wk_sym_index("optional_hook"), bias = wk_sym_index("optional_bias");
	unsigned helper = wk_sym_index("wk_helper");
	ck_assert_uint_eq(wk_syms[hook].shndx, SHN_UNDEF);
	ck_assert_uint_eq(wk_syms[hook].bind, STB_WEAK);
	ck_assert_uint_eq(wk_syms[bias].bind, STB_WEAK);
	ck_assert_uint_ne(wk_syms[helper].shndx, SHN_UNDEF);
	const struct wk_rel *hook_slot = wk_find(4, hook), *helper_slot = wk_find(4, helper);
	wk_find(3, hook);
	wk_find(3, bias);
	wk_find(3, helper);
	wk_find(2, -1u);
	wk_find(5, -1u);
	uint32_t lo = (uint32_t)wk_loads[0].p_vaddr;
	const uint32_t bases[] = {lo, 0x60100000u, 0x60300010u};
	for (unsigned b = 0; b < 3; b++) {
		struct q7_prelinked pl, packed_pl;
		char err[Q7_PL_ERR_SIZE];
		ck_assert_msg(run(wk, wk_size, -1, 1, bases[b], &pl, err) == 0, "%s", err);
		unsigned char *want = q7_xcalloc(1, pl.hdr.load_size);
		ck_assert_uint_eq(pl.hdr.nrelocs, wk_expect(want, bases[b]));
		ck_assert_int_eq(memcmp(want, pl.bytes + Q7_PL_HEADER_SIZE, pl.hdr.load_size), 0);
		/* The hook's PLT slot held its PLT entry's address; now 0. */
		const unsigned char *slot = pl.bytes + Q7_PL_HEADER_SIZE + (hook_slot->off - lo);
		ck_assert_uint_ne(rd32(wk_file_word(hook_slot->off)), 0);
		ck_assert_uint_eq(rd32(slot), 0);
		slot = pl.bytes + Q7_PL_HEADER_SIZE + (helper_slot->off - lo);
		ck_assert_uint_eq(rd32(slot), wk_syms[helper].value - lo + bases[b]);
		/* Packed with -l, the image keeps its symbols: the same words
		 * (the packer zeroes other sections, .got among them). */
		ck_assert_msg(run(wk_packed, wk_packed_size, -1, 1, bases[b], &packed_pl, err) == 0,
		              "%s", err);
		ck_assert_uint_eq(packed_pl.size, pl.size);
		ck_assert_uint_eq(packed_pl.hdr.nrelocs, pl.hdr.nrelocs);
		for (unsigned i = 0; i < wk_nrels; i++) {
			size_t at = Q7_PL_HEADER_SIZE + (wk_rels[i].off - lo);
			ck_assert_uint_eq(rd32(packed_pl.bytes + at), rd32(pl.bytes + at));
		}
		free(want);
		q7_prelinked_free(&pl);
		q7_prelinked_free(&packed_pl);
	}
}
END_TEST

static unsigned char *copy_wk(void)
{
	unsigned char *c = q7_xmalloc(wk_size);
	memcpy(c, wk, wk_size);
	return c;
}

/* A copy of wk with symbol i's binding made GLOBAL: a strong undefined
 * symbol, refused by name with the first relocation that names it. */
static void expect_strong_undefined(const char *name)
{
	unsigned i = wk_sym_index(name);
	const struct wk_rel *r = NULL;
	for (unsigned k = 0; k < wk_nrels && !r; k++)
		if (wk_rels[k].sym == i)
			r = &wk_rels[k];
	ck_assert_ptr_nonnull(r);
	unsigned char *c = copy_wk();
	unsigned char *info = c + wk_dynsym_off + 16 * i + 12;
	*info = (unsigned char)(STB_GLOBAL << 4 | (*info & 0xf));
	char want[160];
	snprintf(want, sizeof want, "undefined symbol '%s' in %s at offset 0x%x", name,
	         r->type == 3 ? "R_XTENSA_GLOB_DAT (type 3)" : "R_XTENSA_JMP_SLOT (type 4)", r->off);
	expect_refused(c, wk_size, want);
	free(c);
}

START_TEST(refuses_strong_undefined)
{
	expect_strong_undefined("optional_hook");
	expect_strong_undefined("optional_bias");
}
END_TEST

/* A copy of wk with the 32-bit word at file offset pos set to v. */
static unsigned char *wk_with(size_t pos, uint32_t v)
{
	unsigned char *c = copy_wk();
	wr32(c + pos, v);
	return c;
}

static void wk_refused(size_t pos, uint32_t v, const char *want)
{
	unsigned char *c = wk_with(pos, v);
	expect_refused(c, wk_size, want);
	free(c);
}

static void wk_retag_refused(int32_t tag, int32_t new_tag, uint32_t val, const char *want)
{
	unsigned char *c = copy_wk();
	retag_in(c, wk_dyn_off, wk_dyn_size, tag, new_tag, val);
	expect_refused(c, wk_size, want);
	free(c);
}

START_TEST(refuses_damaged_symbol_table)
{
	char want[160];
	wk_retag_refused(DT_SYMENT, DT_SYMENT, 24, "DT_SYMENT is 24, not 16");
	wk_retag_refused(DT_SYMTAB, DT_SYMTAB, 0x10, "DT_SYMTAB (address 0x10, ");
	wk_retag_refused(DT_SYMTAB, DT_DEBUG, 0, "the dynamic section has no DT_SYMTAB");
	wk_retag_refused(DT_HASH, DT_HASH, 0x10, "DT_HASH (address 0x10) is outside");
	wk_retag_refused(DT_HASH, 0x6ffffef5 /* DT_GNU_HASH */, 0,
	                 "no DT_HASH (link with --hash-style=sysv)");
	wk_retag_refused(DT_STRTAB, DT_STRTAB, 0x7ffffff0, "DT_STRTAB (address 0x7ffffff0");
	wk_retag_refused(DT_STRSZ, DT_STRSZ, 0x7fffffff, "size 0x7fffffff) is outside");
	wk_retag_refused(DT_STRSZ, DT_STRSZ, 1, "does not end inside the dynamic string table "
	                                        "(0x1 bytes)");
	/* DT_HASH's counts: too many symbols for the file, fewer than the
	 * relocations name, no buckets. */
	wk_refused(wk_hash_off + 4, 0x7fffffff, "buckets, 2147483647 symbols) is outside");
	wk_refused(wk_hash_off + 4, 0xffffffff, "4294967295 symbols) is outside");
	wk_refused(wk_hash_off, 0xfffffff0, "4294967280 buckets");
	wk_refused(wk_hash_off + 4, 1, "but the dynamic symbol table has 1 (DT_HASH)");
	wk_refused(wk_hash_off, 0, "DT_HASH has no buckets");
	/* A symbol's name outside the string table. */
	unsigned table = wk_sym_index("wk_table");
	snprintf(want, sizeof want, "symbol %u's name (offset 0xffffff) does not end", table);
	wk_refused(wk_dynsym_off + 16 * table, 0xffffff, want);
	/* A defined symbol outside the image, or thread-local. */
	const struct wk_rel *r = wk_find(3, table);
	snprintf(want, sizeof want, "symbol 'wk_table' (0x10) in R_XTENSA_GLOB_DAT (type 3) at "
	         "offset 0x%x lies outside the image", r->off);
	wk_refused(wk_dynsym_off + 16 * table + 4, 0x10, want);
	unsigned char *c = copy_wk();
	c[wk_dynsym_off + 16 * table + 12] = STB_GLOBAL << 4 | STT_TLS;
	expect_refused(c, wk_size, "symbol 'wk_table' in R_XTENSA_GLOB_DAT (type 3)");
	expect_refused(c, wk_size, "is thread-local");
	free(c);
}
END_TEST

START_TEST(absolute_symbol)
{
	/* SHN_ABS: the value as it is, not moved with the image. */
	unsigned table = wk_sym_index("wk_table");
	unsigned char *c = copy_wk();
	wr32(c + wk_dynsym_off + 16 * table + 4, 0x1234);
	c[wk_dynsym_off + 16 * table + 14] = SHN_ABS & 0xff;
	c[wk_dynsym_off + 16 * table + 15] = SHN_ABS >> 8;
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	ck_assert_msg(run(c, wk_size, -1, 1, 0x60100000u, &pl, err) == 0, "%s", err);
	const struct wk_rel *r = wk_find(3, table);
	uint32_t lo = (uint32_t)wk_loads[0].p_vaddr;
	ck_assert_uint_eq(rd32(pl.bytes + Q7_PL_HEADER_SIZE + (r->off - lo)), 0x1234 + r->addend);
	q7_prelinked_free(&pl);
	free(c);
}
END_TEST

START_TEST(refuses_bad_symbol_relocations)
{
	char want[200];
	const struct wk_rel *glob = wk_find(3, -1u), *rtld = wk_find(2, -1u);
	snprintf(want, sizeof want, "R_XTENSA_GLOB_DAT (type 3) at offset 0x%x names no symbol",
	         glob->off);
	wk_refused(glob->pos + 4, 3, want);
	snprintf(want, sizeof want, "names symbol 16777215, but the dynamic symbol table has %u",
	         wk_nsyms);
	wk_refused(glob->pos + 4, 0xffffff03u, want);
	snprintf(want, sizeof want, "unsupported relocation R_XTENSA_32 (type 1) at offset 0x%x; "
	         "no Xtensa dynamic linker applies it", glob->off);
	wk_refused(glob->pos + 4, (glob->sym << 8) | 1, want);
	snprintf(want, sizeof want, "R_XTENSA_RTLD at offset 0x%x has addend 3", rtld->off);
	wk_refused(rtld->pos + 8, 3, want);
	wk_refused(rtld->pos, 0x90000000u, "R_XTENSA_RTLD at offset 0x90000000 is outside");
	/* A PLT whose slots nothing binds: what a packed image without -l has. */
	unsigned char *c = copy_wk();
	for (unsigned i = 0; i < wk_nrels; i++)
		if (wk_rels[i].type == 3 || wk_rels[i].type == 4)
			wr32(c + wk_rels[i].pos + 4, 0);
	expect_refused(c, wk_size, "the image has a PLT (R_XTENSA_RTLD) but no R_XTENSA_JMP_SLOT");
	free(c);
}
END_TEST

START_TEST(removed_symbols_unbound)
{
	/* The vendor's packer without -l removes the symbol lookup and binds
	 * nothing: .hash .dynsym .dynstr .rela.plt are zeros in its image, and
	 * the relocations still name symbols. */
	unsigned char *c = copy_wk();
	for (unsigned i = 0; i < wk_nlookup; i++)
		memset(c + wk_lookup[i].off, 0, wk_lookup[i].size);
	expect_refused(c, wk_size, "DT_HASH has no buckets");
	expect_refused(c, wk_size, "pack with q7-pkg-loadlib, which binds them");
	free(c);
}
END_TEST

/* The r_offset and type of every entry of the RELA tables of an image. */
static unsigned rela_list(unsigned char *buf, size_t n, uint32_t *off, uint32_t *type)
{
	Elf *e = elf_memory((char *)buf, n);
	ck_assert_ptr_nonnull(e);
	unsigned k = 0;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		gelf_getshdr(s, &sh);
		Elf_Data *d = sh.sh_type == SHT_RELA ? elf_getdata(s, NULL) : NULL;
		for (size_t i = 0; d && i < sh.sh_size / 12 && k < WK_MAX; i++, k++) {
			GElf_Rela r;
			ck_assert_ptr_nonnull(gelf_getrela(d, (int)i, &r));
			off[k] = (uint32_t)r.r_offset;
			type[k] = (uint32_t)GELF_R_TYPE(r.r_info);
		}
	}
	elf_end(e);
	return k;
}

START_TEST(packer_bound_symbols)
{
	/* q7cc packs without -l: the packer binds what names a symbol (wkf:
	 * undefined weak GLOB_DAT and JMP_SLOT, the PLT's RTLD, defined data by
	 * GLOB_DAT), so the packed image prelinks with no symbol table to the
	 * words the unpacked one gets from its symbols, at every base. */
	uint32_t off[WK_MAX], type[WK_MAX];
	unsigned n = rela_list(wkf, wkf_size, off, type), kinds = 0;
	for (unsigned i = 0; i < n; i++)
		kinds |= 1u << type[i];
	ck_assert_uint_eq(kinds, 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5);
	uint32_t lo = (uint32_t)wk_loads[0].p_vaddr;
	const uint32_t bases[] = {lo, 0x60100000u, 0x60300010u};
	for (unsigned b = 0; b < 3; b++) {
		struct q7_prelinked plain, bound;
		char err[Q7_PL_ERR_SIZE];
		ck_assert_msg(run(wkf, wkf_size, -1, 1, bases[b], &plain, err) == 0, "%s", err);
		ck_assert_msg(run(wkf_packed, wkf_packed_size, -1, 1, bases[b], &bound, err) == 0,
		              "%s", err);
		ck_assert_uint_eq(bound.size, plain.size);
		for (unsigned i = 0; i < n; i++) {
			size_t at = Q7_PL_HEADER_SIZE + (off[i] - plain.hdr.link_base);
			ck_assert_uint_eq(rd32(bound.bytes + at), rd32(plain.bytes + at));
			/* The hook's PLT slot (the one JMP_SLOT) is 0: the call is
			 * skipped. */
			if (type[i] == 4)
				ck_assert_uint_eq(rd32(bound.bytes + at), 0);
		}
		q7_prelinked_free(&plain);
		q7_prelinked_free(&bound);
	}
}
END_TEST

START_TEST(symbol_truncation_never_crashes)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	size_t file_end = wk_loads[wk_nloads - 1].p_offset + wk_loads[wk_nloads - 1].p_filesz;
	for (size_t n = 0; n < file_end; n += 5) {
		ck_assert_int_eq(run(wk, n, -1, 1, 0x60100000u, &pl, err), 1);
		ck_assert_ptr_nonnull(strstr(err, "fixture: "));
	}
}
END_TEST

int main(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: check_prelink IMAGE.stripped.so IMAGE.packed.so WK.so "
		                "WK.packed.so WKF.so WKF.packed.so\n");
		return 2;
	}
	stripped_path = argv[1];
	packed_path = argv[2];
	wk_path = argv[3];
	wk_packed_path = argv[4];
	wkf_path = argv[5];
	wkf_packed_path = argv[6];
	load_fixture();
	load_wk();
	Suite *s = suite_create("prelink");
	TCase *t = tcase_create("prelink");
	tcase_add_test(t, relocates_every_word);
	tcase_add_test(t, header_and_checksums);
	tcase_add_loop_test(t, header_fields_checked, 0, sizeof fields / sizeof fields[0]);
	tcase_add_test(t, packed_equals_plain_and_is_deterministic);
	tcase_add_test(t, refuses_damaged_headers);
	tcase_add_test(t, truncation_never_crashes);
	tcase_add_test(t, refuses_unsupported_relocations);
	tcase_add_test(t, refuses_damaged_dynamic);
	tcase_add_test(t, plt_relocations);
	tcase_add_test(t, refuses_bad_placement);
	tcase_add_test(t, packed_object_lookup);
	tcase_add_test(t, binds_symbols);
	tcase_add_test(t, refuses_strong_undefined);
	tcase_add_test(t, refuses_damaged_symbol_table);
	tcase_add_test(t, absolute_symbol);
	tcase_add_test(t, refuses_bad_symbol_relocations);
	tcase_add_test(t, removed_symbols_unbound);
	tcase_add_test(t, packer_bound_symbols);
	tcase_add_test(t, symbol_truncation_never_crashes);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free_fixture();
	free_wk();
	return failed ? 1 : 0;
}
