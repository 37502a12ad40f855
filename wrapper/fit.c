/* fit.h */
#include "fit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"
#include "memory_map.h"
#include "modes.h"

static void window_words(int core, char *buf, size_t size)
{
	const struct q7_lsp *l = q7_lsp_get(core);
	if (core < 0)
		snprintf(buf, size, "the single core's %" PRIu32 " MiB SRAM window (0x%08" PRIx32
		         "..0x%08" PRIx32 ")", l->sram_len >> 20, l->sram_org, l->sram_org + l->sram_len);
	else
		snprintf(buf, size, "core %d's %" PRIu32 " MiB SRAM window (0x%08" PRIx32 "..0x%08" PRIx32
		         ")", core, l->sram_len >> 20, l->sram_org, l->sram_org + l->sram_len);
}

int q7_fit_explain_link(const struct q7_drv *d, char *const *cmd, const char *name, int core)
{
	char *out = NULL;
	if (q7_step_query(d, cmd, 2, &out) == 0 || !out) {
		free(out);
		return 0;
	}
	/* "... section `.bss' will not fit in region `sram0_0_seg'" and
	 * "... region `sram0_0_seg' overflowed by 123 bytes" */
	const char *over = strstr(out, "region `sram0_0_seg' overflowed by ");
	if (over) {
		unsigned long long bytes = strtoull(over + strlen("region `sram0_0_seg' overflowed by "),
		                                    NULL, 10);
		char section[128] = "the image";
		const char *s = strstr(out, "section `");
		if (s && strstr(s, "' will not fit in region `sram0_0_seg'")) {
			s += strlen("section `");
			const char *e = strchr(s, '\'');
			snprintf(section, sizeof section, "section %.*s", (int)(e - s), s);
		}
		char win[160];
		window_words(core, win, sizeof win);
		q7_error("%s: the image does not fit %s: %s is %llu bytes over (everything past it too; "
		         "q7cc --q7-memory-map on a smaller build shows the window's use; a multicore "
		         "link's other cores alike)", name, win,
		         section, bytes);
	}
	free(out);
	return over != NULL;
}
