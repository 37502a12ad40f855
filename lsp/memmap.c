/* The memory map (docs/vendor-flow.md, "Memory map"), the one table every
 * LSP, link and prelink reads. */
#include "lsp.h"
#include "support.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define IRAM_ORG 0x00000000u
#define IRAM_LEN 0x1000u
#define SRAM_BASE 0x84000000u
#define CORE_WINDOW 0x200000u
#define SINGLE_WINDOW 0x2000000u /* 32 MiB: all eight windows and more */

/* Core i's package: its own window of the SRAM. */
#define CORE(i)                                                                                 \
	{"lsp_fll_load_cpu" #i, (i), IRAM_ORG, IRAM_LEN, SRAM_BASE + (i) * CORE_WINDOW, CORE_WINDOW}

static const struct q7_lsp lsps[] = {
	CORE(0), CORE(1), CORE(2), CORE(3), CORE(4), CORE(5), CORE(6), CORE(7),
	{"lsp_fll_load_cpu_single", Q7_LSP_SINGLE, IRAM_ORG, IRAM_LEN, SRAM_BASE, SINGLE_WINDOW},
};

const struct q7_lsp *q7_lsp_get(int core)
{
	for (size_t i = 0; i < sizeof lsps / sizeof lsps[0]; i++)
		if (lsps[i].core == core)
			return &lsps[i];
	return NULL;
}

char *q7_lsp_dir(const struct q7_lsp *lsp)
{
	char *share = q7_prefix_path("share/q7cc/lsp");
	char *dir = q7_path_join(share, lsp->name);
	free(share);
	return dir;
}

int q7_lsp_segment_check(unsigned i, uint64_t vaddr, uint64_t filesz, uint64_t memsz, char *why,
                         size_t n)
{
	if (filesz > memsz)
		snprintf(why, n, "segment %u has more file bytes (0x%" PRIx64 ") than memory bytes (0x%" PRIx64 ")",
		         i, filesz, memsz);
	else if (memsz > Q7_LSP_IMAGE_SPAN_MAX || vaddr + memsz > UINT64_C(1) << 32 ||
	         vaddr + memsz < vaddr)
		snprintf(why, n, "segment %u (address 0x%" PRIx64 ", size 0x%" PRIx64 ") is too large: "
		         "past the 32-bit address space, or over the 64 MiB an image may span",
		         i, vaddr, memsz);
	else
		return 0;
	return -1;
}
