/* lsp: the memory map of the GPSIMD cores, and the nine linker support
 * packages (lsp_fll_load_cpu0..7, lsp_fll_load_cpu_single) made from it.
 * One table; everything else (scripts, the prelinker's default bases, the
 * link plan) reads it. docs/lsp.md describes the packages. */
#ifndef Q7_LSP_H
#define Q7_LSP_H

#include <stddef.h>
#include <stdint.h>

#include "q7/xtensa.h" /* Q7_NUM_CORES */

#define Q7_LSP_SINGLE (-1)

struct q7_lsp {
	const char *name;  /* "lsp_fll_load_cpu3", "lsp_fll_load_cpu_single" */
	int core;          /* 0..7, or Q7_LSP_SINGLE */
	uint32_t iram_org, iram_len;
	uint32_t sram_org, sram_len;
};

/* The most a device image's loadable segments may span: twice the
 * single-core window. */
#define Q7_LSP_IMAGE_SPAN_MAX 0x4000000u /* 64 MiB */
/* Whether loadable segment i of a device image (at vaddr, filesz bytes of
 * the file, memsz in memory) is one a core could hold: 0, or -1 with why
 * (n bytes) saying what is wrong. The one check of every reader of device
 * images' segments: q7-pkg-loadlib, q7-prelink (so q7-run's emulated
 * target) and --q7-memory-map. */
int q7_lsp_segment_check(unsigned i, uint64_t vaddr, uint64_t filesz, uint64_t memsz, char *why,
                         size_t n);

/* core 0..7 or Q7_LSP_SINGLE; NULL for anything else. */
const struct q7_lsp *q7_lsp_get(int core);
/* "<prefix>/share/q7cc/lsp/<name>": caller frees. */
char *q7_lsp_dir(const struct q7_lsp *lsp);

/* The five section scripts of a package: docs/lsp.md, "The five variants". */
enum q7_lsp_variant {
	Q7_LSP_X,
	Q7_LSP_XBN,
	Q7_LSP_XN,
	Q7_LSP_XR,
	Q7_LSP_XU,
	Q7_LSP_NVARIANTS
};
/* "x", "xbn", "xn", "xr", "xu". */
const char *q7_lsp_variant_suffix(enum q7_lsp_variant v);
/* "<q7_lsp_dir>/ldscripts/elf32xtensa.<suffix>": caller frees. */
char *q7_lsp_ldscript(const struct q7_lsp *lsp, enum q7_lsp_variant v);

/* The text of a section script, generated from the table: caller frees.
 * Same table, same bytes. */
char *q7_lsp_script_text(const struct q7_lsp *lsp, enum q7_lsp_variant v);
/* The text of the package's gcc specs file (the same in all nine). */
const char *q7_lsp_specs_text(void);

/* Writes "<outdir>/<name>/specs" and "<outdir>/<name>/ldscripts/..." for
 * all nine packages, each file whole or not at all; creates the
 * directories. Returns 0, or -1 after printing "q7cc: <file>: <what>:
 * <why>". */
int q7_lsp_write_all(const char *outdir);

#endif
