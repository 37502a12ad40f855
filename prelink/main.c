/* The q7-prelink command line (its synopsis: usage() below). */
#include "prelink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "lsp.h"
#include "support.h"
#include "tempfile.h"

static int check_main(const char *path)
{
	size_t len;
	const char *why;
	char *buf = q7_read_regular(path, Q7_READ_IMAGE_MAX, &len, &why);
	if (!buf) {
		q7_error("%s: cannot read: %s", path, why);
		return Q7_EXIT_IO;
	}
	struct q7_pl_header h;
	int rc = q7_prelinked_check(buf, len, &h, &why) || q7_prelinked_check_window(&h, &why);
	free(buf);
	if (rc) {
		q7_error("%s: %s", path, why);
		return Q7_EXIT_ERROR;
	}
	char where[32];
	if (h.flags & Q7_PL_F_CORE)
		snprintf(where, sizeof where, "core %d's window", h.core);
	else
		snprintf(where, sizeof where, "%s", h.flags & Q7_PL_F_SINGLE ? "the single-core window"
		                                                             : "a chosen base");
	printf("%s: Q7PL version %u, %s\n"
	       "  base 0x%08x, %u load bytes + %u bss, entry 0x%08x\n"
	       "  linked at 0x%08x, %u relocations applied, checksums 0x%08x/0x%08x ok\n",
	       path, h.version, where, h.base, h.load_size, h.bss_size, h.entry, h.link_base,
	       h.nrelocs, h.checksum, h.header_crc);
	return 0;
}

static bool parse_u32(const char *s, uint32_t *v)
{
	if (!*s || *s == '-')
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end || x > 0xffffffffull)
		return false;
	*v = (uint32_t)x;
	return true;
}

enum { OPT_HELP = 1, OPT_CHECK, OPT_VERBOSE, OPT_CORE, OPT_BASE, OPT_OUTPUT, OPT_SYMBOL,
       OPT_VERSION };

static const struct q7_args_opt options[] = {
	Q7_ARGS_VALUE_H("--core", OPT_CORE, "N",
	                "place at core N's SRAM window (0..7); default: the single-core window"),
	Q7_ARGS_VALUE_H("--base", OPT_BASE, "ADDR", "place at ADDR (decimal, or 0x hex)"),
	Q7_ARGS_VALUE_H("-e", OPT_SYMBOL, "NAME",
	                "the image's symbol in the packed object (default lib_func)"),
	Q7_ARGS_VALUE_H("-o", OPT_OUTPUT, "OUT", "the loadable image to write"),
	Q7_ARGS_FLAG_H("-v", OPT_VERBOSE, "print where the image went"),
	Q7_ARGS_FLAG_H("--check", OPT_CHECK,
	               "check a prelinked image's header and checksums and print the header"),
	Q7_ARGS_FLAG_H("--help", OPT_HELP, "print this help and exit"),
	Q7_ARGS_FLAG("-h", OPT_HELP),
	Q7_ARGS_FLAG_H("--version", OPT_VERSION, "print the version and exit"),
	Q7_ARGS_TABLE_END,
};

/* The synopsis, then the table (the manual page is made from this text:
 * docs/man/README.md). */
static void usage(FILE *f)
{
	fprintf(f, "usage: q7-prelink [--core=N | --base=ADDR] [-e NAME] [-v] -o OUT IN.packed.so\n"
	           "       q7-prelink --check FILE\n"
	           "Relocates a packed device image to a core's window of the emulated machine.\n");
	q7_args_help(f, options);
}

/* Prelinks input as opts say and writes the loadable image to output
 * (-v: says where it went); the exit code. */
static int prelink_and_write(const struct q7_prelink_opts *opts, const char *input,
                             const char *output, bool verbose)
{
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	if (q7_prelink_file(opts, input, &pl, &Q7_ERR_OF(err))) {
		q7_error("%s", err);
		return Q7_EXIT_ERROR;
	}
	const char *what; /* written whole or not at all */
	int rc = q7_outfile_write(output, pl.bytes, pl.size, 0666, &what);
	if (rc)
		q7_error("%s: %s: %s", output, what, strerror(errno));
	else if (verbose)
		fprintf(stderr,
		        "q7-prelink: %s: linked at 0x%08x, placed at 0x%08x, %u load bytes + %u bss, "
		        "entry 0x%08x, %u relocations\n",
		        output, pl.hdr.link_base, pl.hdr.base, pl.hdr.load_size, pl.hdr.bss_size,
		        pl.hdr.entry, pl.hdr.nrelocs);
	q7_prelinked_free(&pl);
	return rc ? Q7_EXIT_IO : 0;
}

int q7_prelink_main(int argc, char **argv)
{
	struct q7_prelink_opts opts = {.symbol = "lib_func", .core = Q7_LSP_SINGLE};
	const char *output = NULL, *input = NULL, *v;
	bool verbose = false, have_core = false;
	struct q7_args args;
	q7_args_init(&args, argc, argv, options, Q7_ARGS_LONG_NEXT);
	for (int id; (id = q7_args_next(&args, &v)) != Q7_ARGS_END;) {
		switch (id) {
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			q7_args_version("q7-prelink");
			return 0;
		case OPT_CHECK:
			if (args.next + 1 != argc) {
				q7_error("--check takes one file");
				return Q7_EXIT_USAGE;
			}
			return check_main(argv[args.next]);
		case OPT_VERBOSE:
			verbose = true;
			break;
		case OPT_CORE: {
			uint32_t c;
			if (!parse_u32(v, &c) || c >= Q7_NUM_CORES) {
				q7_error("--core=%s: cores are 0..%d", v, Q7_NUM_CORES - 1);
				return Q7_EXIT_USAGE;
			}
			opts.core = (int)c;
			have_core = true;
			break;
		}
		case OPT_BASE:
			if (!parse_u32(v, &opts.base)) {
				q7_error("--base=%s: not an address", v);
				return Q7_EXIT_USAGE;
			}
			opts.have_base = true;
			break;
		case OPT_OUTPUT:
			output = v;
			break;
		case OPT_SYMBOL:
			opts.symbol = v;
			break;
		case Q7_ARGS_NO_VALUE:
			q7_error("%s needs a value", v);
			return Q7_EXIT_USAGE;
		case Q7_ARGS_UNKNOWN:
			q7_error("unknown option '%s'", v);
			usage(stderr);
			return Q7_EXIT_USAGE;
		default: /* Q7_ARGS_POS */
			if (input) {
				q7_error("more than one input ('%s' and '%s')", input, v);
				return Q7_EXIT_USAGE;
			}
			input = v;
		}
	}
	if (have_core && opts.have_base) {
		q7_error("--core and --base exclude each other");
		return Q7_EXIT_USAGE;
	}
	if (!input || !output) {
		q7_error(!input ? "no input image" : "no output (-o OUT)");
		usage(stderr);
		return Q7_EXIT_USAGE;
	}
	return prelink_and_write(&opts, input, output, verbose);
}
