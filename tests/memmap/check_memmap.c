/* Unit tests of memmap/ on crafted images (docs/robustness.md, "The
 * pictures' readers"): each image is written byte by byte, so that it can
 * say what no linker writes: sections past the 32-bit address space or a
 * window's end, symbol tables larger than the file, launchers of
 * megabytes. Each is refused naming the file or mapped as it is, never
 * wrapped, and never read without bound. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "elf_syms.h"
#include "memory_map.h"
#include "support.h"
#include "tempfile.h"
#include "../analysis/run_suite.h"

#define WINDOW 0x84000000u /* the single core's SRAM window, 32 MiB */

/* A section of a crafted image: data (len bytes, or none for NOBITS);
 * size overrides sh_size when non-zero. */
struct tsec {
	const char *name;
	uint32_t type, flags, addr, size, link, entsize;
	const void *data;
	size_t len;
};

static void put_shdr(unsigned char *p, uint32_t name, const struct tsec *s, uint32_t off)
{
	uint32_t f[10] = {name, s->type, s->flags, s->addr, off,
	                  s->size ? s->size : (uint32_t)s->len, s->link, 0, 4, s->entsize};
	for (int i = 0; i < 10; i++)
		q7_put_le32(p + 4 * i, f[i]);
}

/* A little-endian ELF32 Xtensa executable of sections s in the temporary
 * directory; its path (caller frees). */
static char *craft(const char *name, const struct tsec *s, size_t n)
{
	struct q7_strbuf b = {0}, names = {0};
	q7_sb_addn(&b, (const char[52]){0}, 52);
	uint32_t *offs = q7_xcalloc(n + 1, sizeof *offs), *noff = q7_xcalloc(n + 1, sizeof *noff);
	q7_sb_addc(&names, 0);
	for (size_t i = 0; i < n; i++) {
		while (b.len % 4)
			q7_sb_addc(&b, 0);
		offs[i] = (uint32_t)b.len;
		if (s[i].data)
			q7_sb_addn(&b, s[i].data, s[i].len);
		noff[i] = (uint32_t)names.len;
		q7_sb_add(&names, s[i].name);
		q7_sb_addc(&names, 0);
	}
	uint32_t shstr_name = (uint32_t)names.len;
	q7_sb_add(&names, ".shstrtab");
	q7_sb_addc(&names, 0);
	uint32_t shstr_off = (uint32_t)b.len;
	q7_sb_addn(&b, names.s, names.len);
	while (b.len % 4)
		q7_sb_addc(&b, 0);
	uint32_t shoff = (uint32_t)b.len;
	unsigned char sh[40] = {0};
	q7_sb_addn(&b, (const char *)sh, 40);
	for (size_t i = 0; i < n; i++) {
		put_shdr(sh, noff[i], &s[i], offs[i]);
		q7_sb_addn(&b, (const char *)sh, 40);
	}
	struct tsec strtab = {".shstrtab", 3, 0, 0, 0, 0, 0, names.s, names.len};
	put_shdr(sh, shstr_name, &strtab, shstr_off);
	q7_sb_addn(&b, (const char *)sh, 40);
	unsigned char *e = (unsigned char *)b.s;
	memcpy(e, "\177ELF\1\1\1", 7);
	q7_put_le16(e + 16, 2);  /* ET_EXEC */
	q7_put_le16(e + 18, 94); /* EM_XTENSA */
	q7_put_le32(e + 20, 1);
	q7_put_le32(e + 32, shoff);
	q7_put_le16(e + 40, 52);
	q7_put_le16(e + 46, 40);
	q7_put_le16(e + 48, (uint16_t)(n + 2));
	q7_put_le16(e + 50, (uint16_t)(n + 1));
	char *path = q7_path_join(q7_temp_dir(), name);
	const char *what;
	ck_assert_int_eq(q7_outfile_write(path, b.s, b.len, 0644, &what), 0);
	q7_temp_register(path);
	q7_sb_free(&b);
	q7_sb_free(&names);
	free(offs);
	free(noff);
	return path;
}

/* q7_core_map_load of path fails, err starting with the path and
 * holding needle. */
static void map_refused(const char *path, const char *needle)
{
	struct q7_core_map m;
	char err[512];
	ck_assert_int_eq(q7_core_map_load(path, -2, &m, &Q7_ERR_OF(err)), -1);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, needle), "%s", err);
}

static const unsigned char text4[16] = {0};

START_TEST(sections_past_32_bits_are_refused)
{
	/* .bss of 0x7ffff000 bytes from the window's base: it printed "free
	 * 31.96 MiB, 99.9% of the window" (the end wrapped to 0x03fff000) */
	struct tsec big[] = {{".text", 1, 6, WINDOW, 0, 0, 0, text4, 16},
	                     {".bss", 8, 3, WINDOW + 16, 0x7ffff000u, 0, 0, NULL, 0}};
	char *p = craft("big.so", big, 2);
	map_refused(p, "section .bss at 0x84000010 of 2147479552 bytes runs past the 32-bit");
	free(p);
	/* a section at 0xfffffff0 was left out of the map */
	struct tsec top[] = {{".text", 1, 6, WINDOW, 0, 0, 0, text4, 16},
	                     {".data", 8, 3, 0xfffffff0u, 0x20, 0, 0, NULL, 0}};
	p = craft("top.so", top, 2);
	map_refused(p, "section .data at 0xfffffff0 of 32 bytes runs past the 32-bit");
	free(p);
}
END_TEST

/* A crafted image of one .text with one loadable segment (at vaddr, memsz
 * bytes in memory, the .text's 16 in the file) appended: its path. */
static char *craft_segment(const char *name, uint32_t vaddr, uint32_t memsz)
{
	struct tsec t[] = {{".text", 1, 6, vaddr, 0, 0, 0, text4, 16}};
	char *path = craft(name, t, 1);
	size_t n;
	char *b = q7_read_file(path, &n);
	ck_assert_ptr_nonnull(b);
	b = q7_xrealloc(b, n + 32);
	uint32_t ph[8] = {1 /* PT_LOAD */, 52, vaddr, vaddr, 16, memsz, 7, 4};
	for (int i = 0; i < 8; i++)
		q7_put_le32((unsigned char *)b + n + 4 * i, ph[i]);
	q7_put_le32((unsigned char *)b + 28, (uint32_t)n);
	q7_put_le16((unsigned char *)b + 42, 32);
	q7_put_le16((unsigned char *)b + 44, 1);
	const char *what;
	ck_assert_int_eq(q7_outfile_write(path, b, n + 32, 0644, &what), 0);
	free(b);
	return path;
}

START_TEST(segments_past_32_bits_are_refused)
{
	/* p_memsz 0xfffffff0 and a range that wraps were drawn "99.9% free";
	 * the message is q7-pkg-loadlib's and q7-prelink's (lsp.h) */
	char *p = craft_segment("huge.so", WINDOW, 0xfffffff0u);
	map_refused(p, "segment 0 (address 0x84000000, size 0xfffffff0) is too large");
	free(p);
	p = craft_segment("wrap.so", 0xfffff000u, 0x2000u);
	map_refused(p, "segment 0 (address 0xfffff000, size 0x2000) is too large");
	free(p);
	p = craft_segment("fine.so", WINDOW, 0x1000u);
	struct q7_core_map m;
	char err[512];
	ck_assert_int_eq(q7_core_map_load(p, -2, &m, &Q7_ERR_OF(err)), 0);
	q7_core_map_free(&m);
	free(p);
}
END_TEST

START_TEST(an_image_past_the_window_shows_by_how_much)
{
	struct tsec s[] = {{".text", 1, 6, WINDOW, 0, 0, 0, text4, 16},
	                   {".bss", 8, 3, WINDOW + 0x1fff000u, 0x3000, 0, 0, NULL, 0}};
	char *p = craft("over.so", s, 2);
	struct q7_core_map m;
	char err[512];
	ck_assert_int_eq(q7_core_map_load(p, -2, &m, &Q7_ERR_OF(err)), 0);
	ck_assert_uint_eq(m.image_end, (uint64_t)WINDOW + 0x2002000u);
	ck_assert_int_eq(q7_core_map_free_bytes(&m), -0x2000);
	char *text = q7_memory_map_text(&m, 1);
	ck_assert_msg(strstr(text, "8192 bytes past the window's end"), "%s", text);
	ck_assert_msg(strstr(text, "33562624 bytes (the loaded sections"), "%s", text);
	char *svg = q7_memory_map_svg(&m, 1, "over");
	ck_assert_msg(!strstr(svg, "y=\"-"), "a box above the picture: %s", svg);
	free(svg);
	free(text);
	q7_core_map_free(&m);
	free(p);
}
END_TEST

/* A symbol table of n FUNC symbols in section 1, named by name(i), each
 * at addr of size bytes; its string table in *strtab (caller frees). */
static unsigned char *symbols(size_t n, uint32_t addr, uint32_t size, struct q7_strbuf *strtab)
{
	unsigned char *v = q7_xcalloc(n + 1, 16);
	q7_sb_addc(strtab, 0);
	for (size_t i = 1; i <= n; i++) {
		unsigned char *e = v + 16 * i;
		q7_put_le32(e, (uint32_t)strtab->len);
		q7_sb_addf(strtab, "k%zu_stack_switch", i);
		q7_sb_addc(strtab, 0);
		q7_put_le32(e + 4, addr);
		q7_put_le32(e + 8, size);
		e[12] = 0x12; /* STB_GLOBAL, STT_FUNC */
		q7_put_le16(e + 14, 1);
	}
	return v;
}

START_TEST(a_symbol_table_larger_than_its_file_is_refused)
{
	struct q7_strbuf str = {0};
	unsigned char *syms = symbols(2, WINDOW, 16, &str);
	/* .symtab's sh_size 0xfffffff0, then its sh_entsize 1: "out of
	 * memory", exit 70, naming no file */
	struct tsec s[] = {{".text", 1, 6, WINDOW, 0, 0, 0, text4, 16},
	                   {".symtab", 2, 0, 0, 0xfffffff0u, 3, 16, syms, 48},
	                   {".strtab", 3, 0, 0, 0, 0, 0, str.s, str.len}};
	char *p = craft("hugesym.so", s, 3);
	map_refused(p, "damaged symbol table (.symtab of 4294967280 bytes");
	struct q7_syms out;
	char err[512];
	ck_assert_int_eq(q7_syms_load(p, 0, &out, &Q7_ERR_OF(err)), -1);
	ck_assert_msg(strncmp(err, p, strlen(p)) == 0, "%s", err);
	free(p);
	s[1].size = 0;
	s[1].entsize = 1;
	p = craft("entsize.so", s, 3);
	map_refused(p, "damaged symbol table (.symtab of 48 bytes in entries of 1");
	free(p);
	/* the same image whole maps, its launcher found */
	s[1].entsize = 16;
	p = craft("good.so", s, 3);
	struct q7_core_map m;
	ck_assert_int_eq(q7_core_map_load(p, -2, &m, &Q7_ERR_OF(err)), 0);
	ck_assert_str_eq(m.stack_op, "k1");
	q7_core_map_free(&m);
	free(p);
	free(syms);
	q7_sb_free(&str);
}
END_TEST

START_TEST(many_large_launchers_map_in_bounded_time)
{
	/* 200,000 *_stack_switch symbols over 4 MB of .text, each as large as
	 * it (an 11 MB file): each was decoded whole, for minutes */
	enum { N = 200000, TEXT = 4u << 20 };
	unsigned char *text = q7_xcalloc(TEXT, 1);
	struct q7_strbuf str = {0};
	unsigned char *syms = symbols(N, WINDOW, TEXT, &str);
	struct tsec s[] = {{".text", 1, 6, WINDOW, 0, 0, 0, text, TEXT},
	                   {".symtab", 2, 0, 0, 0, 3, 16, syms, 16 * (N + 1)},
	                   {".strtab", 3, 0, 0, 0, 0, 0, str.s, str.len}};
	char *p = craft("launchers.so", s, 3);
	struct q7_core_map m;
	char err[512];
	ck_assert_int_eq(q7_core_map_load(p, -2, &m, &Q7_ERR_OF(err)), 0);
	ck_assert_uint_eq(m.stack, 0); /* no a3 set: none known */
	q7_core_map_free(&m);
	free(p);
	free(syms);
	free(text);
	q7_sb_free(&str);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("memmap");
	TCase *tc = tcase_create("crafted");
	/* Forked, each test within this (they take well under a second). */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, sections_past_32_bits_are_refused);
	tcase_add_test(tc, an_image_past_the_window_shows_by_how_much);
	tcase_add_test(tc, segments_past_32_bits_are_refused);
	tcase_add_test(tc, a_symbol_table_larger_than_its_file_is_refused);
	tcase_add_test(tc, many_large_launchers_map_in_bounded_time);
	suite_add_tcase(s, tc);
	/* Forked: each test's temporary directory is removed at its exit. */
	return run_suite(s, true);
}
