/* q7cc --q7-memory-map IMAGE [-o MAP.svg] (memmap/memory_map.h): the
 * images of a manifest found as q7-run finds them (run/run_image.h), which is
 * why this tool's main is here, beside the one executable's, and not in
 * memmap/. */
#include "memory_map_main.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "run_image.h"
#include "lsp.h"
#include "memory_map.h"
#include "support.h"
#include "tempfile.h"

enum { OPT_OUTPUT = 1, OPT_HELP, OPT_VERSION };
/* Every spelling exactly as written: "-oMAP.svg", "-o=MAP.svg" and
 * "--help=" are unknown options, as they always were. */
static const struct q7_args_opt options[] = {
	{"-o", OPT_OUTPUT, true, true, "MAP.svg", "also draw the map as an SVG picture"},
	Q7_ARGS_EXACT_H("--help", OPT_HELP, "print this help and exit"),
	Q7_ARGS_EXACT("-h", OPT_HELP),
	Q7_ARGS_EXACT_H("--version", OPT_VERSION, "print the version and exit"),
	Q7_ARGS_TABLE_END,
};

/* The synopsis, then the table; --help's on stdout, else a usage error. */
static int usage(FILE *f)
{
	fprintf(f, "usage: q7cc --q7-memory-map IMAGE [-o MAP.svg]\n"
	           "Prints each core's SRAM window, the image's sections, the ops' largest stack\n"
	           "and what is free.\n"
	           "  IMAGE  a gnu-profile image: single-core, one core's (..._cpuN.so), or a\n"
	           "         multicore manifest (every core)\n");
	q7_args_help(f, options);
	return f == stdout ? 0 : Q7_EXIT_USAGE;
}

int q7_memory_map_main(int argc, char **argv)
{
	const char *image = NULL, *out = NULL;
	struct q7_args args;
	q7_args_init(&args, argc, argv, options, 0);
	const char *v;
	for (int id; (id = q7_args_next(&args, &v)) != Q7_ARGS_END;) {
		if (id == OPT_OUTPUT)
			out = v;
		else if (id == OPT_HELP)
			return usage(stdout);
		else if (id == OPT_VERSION)
			return q7_args_version("q7cc --q7-memory-map"), 0;
		else if (id != Q7_ARGS_POS || v[0] == '-' || image)
			return usage(stderr); /* "-" too: no standard input */
		else
			image = v;
	}
	if (!image)
		return usage(stderr);
	struct q7_err why = Q7_ERR_GROWING;
	struct q7_strvec paths = {0};
	int k = q7_run_images(image, 0, &paths, &why);
	if (k < 0) {
		q7_err_print(&why);
		return Q7_EXIT_ERROR;
	}
	struct q7_core_map maps[Q7_NUM_CORES] = {0};
	char err[512];
	int rc = 0;
	for (int i = 0; i < k && rc == 0; i++)
		if (q7_core_map_load(paths.v[i], k > 1 ? i : -2, &maps[i], &Q7_ERR_OF(err)) != 0) {
			q7_error("%s", err);
			rc = Q7_EXIT_ERROR;
		}
	if (rc == 0) {
		char *text = q7_memory_map_text(maps, (size_t)k);
		fputs(text, stdout);
		free(text);
	}
	if (rc == 0 && out) {
		char *title = q7_xasprintf("memory map of %s", q7_path_basename(image));
		char *svg = q7_memory_map_svg(maps, (size_t)k, title);
		const char *what;
		if (q7_outfile_write(out, svg, strlen(svg), 0666, &what) != 0) {
			q7_error("%s: %s: %s", out, what, strerror(errno));
			rc = Q7_EXIT_IO;
		}
		free(svg);
		free(title);
	}
	for (int i = 0; i < k; i++)
		q7_core_map_free(&maps[i]);
	q7_sv_free(&paths);
	return rc;
}
