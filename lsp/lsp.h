/* lsp: the memory map of the GPSIMD cores, and the nine linker support
 * packages (lsp_fll_load_cpu0..7, lsp_fll_load_cpu_single) made from it.
 * One table; everything else (scripts, the prelinker's default bases, the
 * link plan) reads it. */
#ifndef Q7_LSP_H
#define Q7_LSP_H

#include <stdint.h>

#define Q7_NUM_CORES 8
#define Q7_LSP_SINGLE (-1)

struct q7_lsp {
	const char *name;  /* "lsp_fll_load_cpu3", "lsp_fll_load_cpu_single" */
	int core;          /* 0..7, or Q7_LSP_SINGLE */
	uint32_t iram_org, iram_len;
	uint32_t sram_org, sram_len;
};

/* core 0..7 or Q7_LSP_SINGLE; NULL for anything else. */
const struct q7_lsp *q7_lsp_get(int core);
/* "<prefix>/share/q7cc/lsp/<name>": caller frees. */
char *q7_lsp_dir(const struct q7_lsp *lsp);

#endif
