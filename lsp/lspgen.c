/* q7-lspgen OUTDIR: the build-time tool that writes the nine LSP packages
 * (lsp_fll_load_cpu0..7, lsp_fll_load_cpu_single) from the memory map into
 * OUTDIR. Not installed: the build stages its output to share/q7cc/lsp. */
#include "lsp.h"
#include "support.h"
#include "tempfile.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	q7_set_progname("q7-lspgen");
	if (argc != 2) {
		fprintf(stderr, "usage: q7-lspgen OUTDIR\n");
		return Q7_EXIT_USAGE;
	}
	int rc = q7_lsp_write_all(argv[1]);
	q7_temp_cleanup();
	return rc == 0 ? 0 : Q7_EXIT_IO;
}
