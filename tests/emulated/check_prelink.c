/* The prelinker on a real device image (tests/emulated/fixture, linked with
 * the single-core LSP and packed by q7-pkg-loadlib): placement, relocation
 * arithmetic checked word by word against the unrelocated image, the header
 * and its checksums, and crafted damage made by editing the good image's
 * bytes. argv: the .stripped.so and the .packed.so. */
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
	return q7_prelink_memory(&o, buf, n, "fixture", pl, err, Q7_PL_ERR_SIZE);
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
	uint32_t third = rd32(img + rela_off + 24);
	snprintf(want, sizeof want, "R_XTENSA_JMP_SLOT (type 4) at offset 0x%x", third);
	bad_reloc(2, 0, (7u << 8) | 4, want);
	bad_reloc(1, 0, 3, "R_XTENSA_GLOB_DAT (type 3)");
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

/* Retags the first dynamic entry tagged tag in c and sets its value. */
static void retag(unsigned char *c, int32_t tag, int32_t new_tag, uint32_t val)
{
	for (size_t o = 0; o + 8 <= dyn_size; o += 8)
		if ((int32_t)rd32(c + dyn_off + o) == tag) {
			wr32(c + dyn_off + o, (uint32_t)new_tag);
			wr32(c + dyn_off + o + 4, val);
			return;
		}
	ck_abort_msg("no dynamic tag %d in the fixture", tag);
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
	wr32(c + rela_off + rela_size - 8, 4); /* R_XTENSA_JMP_SLOT */
	expect_refused(c, img_size, "unsupported relocation R_XTENSA_JMP_SLOT (type 4)");
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
	ck_assert_int_eq(q7_prelink_memory(&o, packed, packed_size, "p", &pl, err, sizeof err), 1);
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

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: check_prelink IMAGE.stripped.so IMAGE.packed.so\n");
		return 2;
	}
	stripped_path = argv[1];
	packed_path = argv[2];
	load_fixture();
	Suite *s = suite_create("prelink");
	TCase *t = tcase_create("prelink");
	tcase_add_test(t, relocates_every_word);
	tcase_add_test(t, header_and_checksums);
	tcase_add_test(t, packed_equals_plain_and_is_deterministic);
	tcase_add_test(t, refuses_damaged_headers);
	tcase_add_test(t, truncation_never_crashes);
	tcase_add_test(t, refuses_unsupported_relocations);
	tcase_add_test(t, refuses_damaged_dynamic);
	tcase_add_test(t, plt_relocations);
	tcase_add_test(t, refuses_bad_placement);
	tcase_add_test(t, packed_object_lookup);
	suite_add_tcase(s, t);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free_fixture();
	return failed ? 1 : 0;
}
