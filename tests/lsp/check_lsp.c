/* Unit tests of lsp/: the memory map against docs/vendor-flow.md's "Memory map", the generated
 * scripts against the map (MEMORY, section order, ENTRY, the _bss_table
 * pair, the variants), determinism, and the files the build staged.
 * Usage: check_lsp [STAGED_LSP_DIR] */
#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp.h"
#include "support.h"
#include "tempfile.h"

static const char *staged_dir; /* argv[1], or NULL */

static const struct q7_lsp *row(int i) /* 0..8: cpu0..7, then single */
{
	return q7_lsp_get(i < Q7_NUM_CORES ? i : Q7_LSP_SINGLE);
}

START_TEST(table_is_seed_memory_map)
{
	for (int core = 0; core < Q7_NUM_CORES; core++) {
		const struct q7_lsp *l = q7_lsp_get(core);
		ck_assert_ptr_nonnull(l);
		char name[32];
		snprintf(name, sizeof name, "lsp_fll_load_cpu%d", core);
		ck_assert_str_eq(l->name, name);
		ck_assert_int_eq(l->core, core);
		ck_assert_uint_eq(l->sram_org, 0x84000000u + (uint32_t)core * 0x200000u);
		ck_assert_uint_eq(l->sram_len, 0x200000u);
		ck_assert_uint_eq(l->iram_org, 0);
		ck_assert_uint_eq(l->iram_len, 0x1000u);
	}
	const struct q7_lsp *s = q7_lsp_get(Q7_LSP_SINGLE);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "lsp_fll_load_cpu_single");
	ck_assert_uint_eq(s->sram_org, 0x84000000u);
	ck_assert_uint_eq(s->sram_len, 0x2000000u);
	ck_assert_uint_eq(s->iram_len, 0x1000u);
	ck_assert_ptr_null(q7_lsp_get(8));
	ck_assert_ptr_null(q7_lsp_get(-2));
}
END_TEST

START_TEST(core_windows_are_disjoint)
{
	for (int a = 0; a < Q7_NUM_CORES; a++)
		for (int b = a + 1; b < Q7_NUM_CORES; b++) {
			const struct q7_lsp *x = q7_lsp_get(a), *y = q7_lsp_get(b);
			ck_assert(x->sram_org + x->sram_len <= y->sram_org);
		}
}
END_TEST

START_TEST(scripts_are_deterministic)
{
	for (int i = 0; i < 9; i++)
		for (int v = 0; v < Q7_LSP_NVARIANTS; v++) {
			char *a = q7_lsp_script_text(row(i), v);
			char *b = q7_lsp_script_text(row(i), v);
			ck_assert_ptr_nonnull(a);
			ck_assert_str_eq(a, b);
			free(a);
			free(b);
		}
	ck_assert_ptr_null(q7_lsp_script_text(row(0), Q7_LSP_NVARIANTS));
	ck_assert_ptr_null(q7_lsp_variant_suffix(Q7_LSP_NVARIANTS));
}
END_TEST

/* The org/len numbers of one MEMORY line, read back from the text. */
static void memory_line(const char *text, const char *seg, unsigned *org, unsigned *len)
{
	char key[64];
	snprintf(key, sizeof key, "%s : org = ", seg);
	const char *p = strstr(text, key);
	ck_assert_msg(p != NULL, "no %s line", seg);
	ck_assert_msg(strstr(p + 1, key) == NULL, "two %s lines", seg);
	ck_assert_int_eq(sscanf(p + strlen(key), "0x%x, len = 0x%x", org, len), 2);
}

START_TEST(memory_block_matches_table)
{
	for (int i = 0; i < 9; i++)
		for (int v = 0; v < Q7_LSP_NVARIANTS; v++) {
			char *t = q7_lsp_script_text(row(i), v);
			unsigned org, len;
			memory_line(t, "sram0_0_seg", &org, &len);
			ck_assert_uint_eq(org, row(i)->sram_org);
			ck_assert_uint_eq(len, row(i)->sram_len);
			memory_line(t, "iram0_0_seg", &org, &len);
			ck_assert_uint_eq(org, row(i)->iram_org);
			ck_assert_uint_eq(len, row(i)->iram_len);
			ck_assert_ptr_nonnull(strstr(t, row(i)->name));
			free(t);
		}
}
END_TEST

/* Position of the output section statement "\n  NAME " (or NULL). */
static const char *section_at(const char *text, const char *name)
{
	char key[64];
	snprintf(key, sizeof key, "\n  %s ", name);
	return strstr(text, key);
}

START_TEST(linked_scripts_follow_seed_order)
{
	static const char *const order[] = {
		".text", ".clib.rodata", ".rtos.rodata", ".clib.data", ".eh_frame", ".ctors",
		".dtors", ".rodata", ".clib.text", ".rtos.text", ".clib.percpu.data",
		".rtos.percpu.data", ".rtos.data", ".interp", ".data", ".note.gnu.build-id",
		".bss", NULL,
	};
	for (int i = 0; i < 9; i++)
		for (int v = Q7_LSP_X; v <= Q7_LSP_XN; v++) {
			char *t = q7_lsp_script_text(row(i), v);
			ck_assert_ptr_nonnull(strstr(t, "\nENTRY(_start)\n"));
			const char *prev = section_at(t, ".iram0.text");
			ck_assert_ptr_nonnull(prev);
			for (int k = 0; order[k]; k++) {
				const char *at = section_at(t, order[k]);
				ck_assert_msg(at != NULL, "%s missing", order[k]);
				ck_assert_msg(at > prev, "%s out of order", order[k]);
				ck_assert_ptr_nonnull(strstr(at, "} >sram0_0_seg\n"));
				prev = at;
			}
			/* The BSS-clear pair closes .rodata, and names .bss's ends. */
			const char *rod = section_at(t, ".rodata"), *ctext = section_at(t, ".clib.text");
			const char *pair = strstr(t, "LONG(_bss_start)\n    LONG(_bss_end)\n");
			ck_assert(pair && pair > rod && pair < ctext);
			const char *bss = section_at(t, ".bss");
			ck_assert(strstr(bss, "_bss_start = .") && strstr(bss, "_bss_end = ."));
			/* Every allocated kind a GNU shared link makes has a place. */
			static const char *const dyn[] = {".hash", ".gnu.hash", ".dynsym", ".dynstr",
							  ".rela.dyn", ".rela.plt", ".dynamic",
							  ".got", ".got.loc", ".tbss", NULL};
			for (int k = 0; dyn[k]; k++)
				ck_assert_msg(section_at(t, dyn[k]) != NULL, "%s missing", dyn[k]);
			ck_assert_ptr_nonnull(strstr(t, "*(.got.plt* .plt*)"));
			ck_assert_ptr_nonnull(strstr(t, ".xt.lit 0 :"));
			ck_assert_ptr_nonnull(strstr(t, ".debug_info 0 :"));
			free(t);
		}
}
END_TEST

static const char *after_header(const char *t)
{
	const char *p = strstr(t, "*/\n");
	ck_assert_ptr_nonnull(p);
	return p + 3;
}

START_TEST(variants_differ_as_gnu_ld_does)
{
	for (int i = 0; i < 9; i++) {
		char *t[Q7_LSP_NVARIANTS];
		for (int v = 0; v < Q7_LSP_NVARIANTS; v++)
			t[v] = q7_lsp_script_text(row(i), v);
		/* x, xbn, xn: one placement, different header comments. */
		ck_assert_str_eq(after_header(t[Q7_LSP_X]), after_header(t[Q7_LSP_XBN]));
		ck_assert_str_eq(after_header(t[Q7_LSP_X]), after_header(t[Q7_LSP_XN]));
		ck_assert_str_ne(t[Q7_LSP_X], t[Q7_LSP_XBN]);
		ck_assert_str_ne(t[Q7_LSP_X], t[Q7_LSP_XN]);
		ck_assert_ptr_nonnull(strstr(t[Q7_LSP_XBN], "-N"));
		ck_assert_ptr_nonnull(strstr(t[Q7_LSP_XN], "-n"));
		/* xr, xu: relocatable; no entry, no placement, no symbols. */
		for (int v = Q7_LSP_XR; v <= Q7_LSP_XU; v++) {
			ck_assert_ptr_null(strstr(t[v], "ENTRY("));
			ck_assert_ptr_null(strstr(t[v], ">sram0_0_seg"));
			ck_assert_ptr_null(strstr(t[v], "LONG("));
			ck_assert_ptr_null(strstr(t[v], "HIDDEN("));
			ck_assert_ptr_nonnull(strstr(t[v], "\n  .text 0 :"));
		}
		ck_assert_ptr_null(strstr(t[Q7_LSP_XR], "CONSTRUCTORS"));
		ck_assert_ptr_nonnull(strstr(t[Q7_LSP_XU], "SORT(CONSTRUCTORS)"));
		for (int v = 0; v < Q7_LSP_NVARIANTS; v++)
			free(t[v]);
	}
}
END_TEST

START_TEST(cores_differ_only_in_their_window)
{
	char *a = q7_lsp_script_text(row(0), Q7_LSP_X);
	for (int i = 1; i < 9; i++) {
		char *b = q7_lsp_script_text(row(i), Q7_LSP_X);
		const char *pa = strstr(a, "\n  sram0_0_seg"), *pb = strstr(b, "\n  sram0_0_seg");
		ck_assert(pa && pb);
		/* Same text after the header up to the sram line, and after it. */
		const char *ha = after_header(a), *hb = after_header(b);
		ck_assert_int_eq(pa - ha, pb - hb);
		ck_assert(strncmp(ha, hb, (size_t)(pa - ha)) == 0);
		ck_assert_str_eq(strchr(pa + 1, '\n'), strchr(pb + 1, '\n'));
		ck_assert_str_ne(a, b);
		free(b);
	}
	free(a);
}
END_TEST

static char *slurp(const char *dir, const char *pkg, const char *file)
{
	char *path = q7_xasprintf("%s/%s/%s", dir, pkg, file);
	size_t len;
	char *s = q7_read_file(path, &len);
	ck_assert_msg(s != NULL, "cannot read %s", path);
	ck_assert_uint_eq(strlen(s), len);
	free(path);
	return s;
}

/* Every file of every package under dir is the generator's text. */
static void check_tree(const char *dir)
{
	for (int i = 0; i < 9; i++) {
		char *specs = slurp(dir, row(i)->name, "specs");
		ck_assert_str_eq(specs, q7_lsp_specs_text());
		free(specs);
		for (int v = 0; v < Q7_LSP_NVARIANTS; v++) {
			char *file = q7_xasprintf("ldscripts/elf32xtensa.%s", q7_lsp_variant_suffix(v));
			char *got = slurp(dir, row(i)->name, file);
			char *want = q7_lsp_script_text(row(i), v);
			ck_assert_str_eq(got, want);
			free(want);
			free(got);
			free(file);
		}
	}
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(written_packages_are_the_text_twice)
{
	char tmpl[] = "/tmp/check_lsp.XXXXXX";
	char *dir = mkdtemp(tmpl);
	ck_assert_ptr_nonnull(dir);
	char *out = q7_path_join(dir, "nested/lsp"); /* also makes parents */
	ck_assert_int_eq(q7_lsp_write_all(out), 0);
	check_tree(out);
	ck_assert_int_eq(q7_lsp_write_all(out), 0); /* over the first run */
	check_tree(out);
	ck_assert_int_eq(count_entries(out), 9);
	char *scripts = q7_xasprintf("%s/lsp_fll_load_cpu4/ldscripts", out);
	ck_assert_int_eq(count_entries(scripts), Q7_LSP_NVARIANTS); /* no temporaries */
	free(scripts);
	char *rm = q7_xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(out);
}
END_TEST

START_TEST(staged_packages_are_current)
{
	ck_assert_msg(staged_dir != NULL, "usage: check_lsp STAGED_LSP_DIR");
	check_tree(staged_dir);
}
END_TEST

START_TEST(specs_is_minimal_stub)
{
	const char *s = q7_lsp_specs_text();
	ck_assert_ptr_nonnull(strstr(s, "*startfile:\ncrti%O%s crtbegin%O%s\n\n"));
	ck_assert_ptr_nonnull(strstr(s, "*endfile:\ncrtend%O%s crtn%O%s\n\n"));
	/* gcc needs "\n\n\n" after an empty spec's name. */
	const char *lib = strstr(s, "*lib:\n");
	ck_assert_ptr_nonnull(lib);
	ck_assert_str_eq(lib, "*lib:\n\n\n");
}
END_TEST

START_TEST(ldscript_path_names_package_and_variant)
{
	setenv("Q7CC_PREFIX", "/opt/q 7", 1);
	char *p = q7_lsp_ldscript(q7_lsp_get(3), Q7_LSP_XBN);
	const char *tail = "/share/q7cc/lsp/lsp_fll_load_cpu3/ldscripts/elf32xtensa.xbn";
	ck_assert_uint_ge(strlen(p), strlen(tail));
	ck_assert_str_eq(p + strlen(p) - strlen(tail), tail);
	free(p);
}
END_TEST

int main(int argc, char **argv)
{
	staged_dir = argc > 1 ? argv[1] : NULL;
	Suite *s = suite_create("lsp");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, table_is_seed_memory_map);
	tcase_add_test(tc, core_windows_are_disjoint);
	tcase_add_test(tc, scripts_are_deterministic);
	tcase_add_test(tc, memory_block_matches_table);
	tcase_add_test(tc, linked_scripts_follow_seed_order);
	tcase_add_test(tc, variants_differ_as_gnu_ld_does);
	tcase_add_test(tc, cores_differ_only_in_their_window);
	tcase_add_test(tc, written_packages_are_the_text_twice);
	tcase_add_test(tc, staged_packages_are_current);
	tcase_add_test(tc, specs_is_minimal_stub);
	tcase_add_test(tc, ldscript_path_names_package_and_variant);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
