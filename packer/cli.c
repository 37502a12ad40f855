/* packer/cli: the q7-pkg-loadlib / xt-pkg-loadlib command line, read as
 * the vendor's Perl packager reads it (docs/packer.md, "The command"), so
 * existing scripts keep working. */
#include "args.h"
#include "pack.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (!*s || *end || v == 0 || v > (1ul << 24) || (v & (v - 1)))
		return -1;
	*out = v;
	return 0;
}

enum { OPT_HELP = 1, OPT_OUTPUT, OPT_STRIPPED, OPT_SYMBOL, OPT_PAGESIZE, OPT_VERBOSE,
       OPT_SYMLOOKUP, OPT_XTENSA, OPT_VERSION };

/* Getopt::Long's spellings, but for -h, --help and --version. */
static const struct q7_args_opt options[] = {
	Q7_ARGS_VALUE_H("-o", OPT_OUTPUT, "FILE",
	                "the packed load-lib: a relocatable object whose .rodata holds the "
	                "stripped image under SYMBOL"),
	Q7_ARGS_VALUE_H("-s", OPT_STRIPPED, "FILE", "also save the stripped image"),
	Q7_ARGS_VALUE_H("-e", OPT_SYMBOL, "NAME",
	                "the symbol at the image's first byte (default lib_func)"),
	Q7_ARGS_VALUE_H("-p", OPT_PAGESIZE, "SIZE",
	                "page-mapped layout: segments at page-congruent offsets and the image "
	                "page-aligned in .rodata (default: overlay layout)"),
	Q7_ARGS_FLAG_H("-l", OPT_SYMLOOKUP, "keep .hash .dynstr .dynsym .rela.plt (symbol lookup)"),
	Q7_ARGS_FLAG_H("-v", OPT_VERBOSE, "say what is removed"),
	/* one Xtensa core description is all the image needs */
	Q7_ARGS_VALUE_H("--xtensa-core", OPT_XTENSA, "NAME",
	                "accepted and ignored: the image says everything the packer needs"),
	{"--xtensa-system", OPT_XTENSA, true, false, "DIR", NULL},
	{"--xtensa-params", OPT_XTENSA, true, false, "FILE", NULL},
	Q7_ARGS_EXACT_H("--help", OPT_HELP, "print this help and exit"),
	Q7_ARGS_EXACT("-h", OPT_HELP),
	Q7_ARGS_EXACT_H("--version", OPT_VERSION, "print the version and exit"),
	Q7_ARGS_TABLE_END,
};

/* The synopsis, then the table (the manual page is made from this text:
 * docs/man/README.md). */
static void usage(FILE *f)
{
	fprintf(f,
	        "usage: %s [-v] [-l] [-p PAGESIZE] [-e SYMBOL] [-s STRIPPED] -o PACKED IMAGE\n"
	        "Strips the device image IMAGE and packs it into a load-lib, as xt-pkg-loadlib.\n",
	        q7_progname());
	q7_args_help(f, options);
}

int q7_pkg_loadlib_main(int argc, char **argv)
{
	struct q7_pack_opts o = {.symbol = "lib_func"};
	bool verbose = false;
	const char *v;
	struct q7_args args;
	q7_args_init(&args, argc, argv, options, Q7_ARGS_GETOPT);
	for (int id; (id = q7_args_next(&args, &v)) != Q7_ARGS_END;) {
		switch (id) {
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			q7_args_version(q7_progname());
			return 0;
		case OPT_OUTPUT:
			o.output = v;
			break;
		case OPT_STRIPPED:
			o.stripped = v;
			break;
		case OPT_SYMBOL:
			o.symbol = v;
			break;
		case OPT_PAGESIZE:
			if (parse_size(v, &o.pagesize) != 0) {
				q7_error("-p %s: expected a power of two page size", v);
				return Q7_EXIT_USAGE;
			}
			break;
		case OPT_VERBOSE:
			verbose = true;
			break;
		case OPT_SYMLOOKUP:
			o.symlookup = true;
			break;
		case OPT_XTENSA:
			break;
		case Q7_ARGS_NO_VALUE:
			q7_error("option %s needs a value", v);
			return Q7_EXIT_USAGE;
		case Q7_ARGS_UNKNOWN:
			q7_error("unknown option %s", v);
			usage(stderr);
			return Q7_EXIT_USAGE;
		default: /* Q7_ARGS_POS */
			if (o.input) {
				q7_error("more than one input image (%s, %s)", o.input, v);
				return Q7_EXIT_USAGE;
			}
			o.input = v;
		}
	}
	if (!o.input) {
		q7_error("no input image");
		usage(stderr);
		return Q7_EXIT_USAGE;
	}
	if (!o.output && !o.stripped) {
		q7_error("%s: nothing to do: give -o and/or -s", o.input);
		return Q7_EXIT_USAGE;
	}
	/* Packs, then shows what the packer reports: the -v notes, the error. */
	struct q7_strvec notes = {0};
	struct q7_err err = Q7_ERR_GROWING;
	o.notes = verbose ? &notes : NULL;
	int rc = q7_pack(&o, &err);
	for (size_t i = 0; i < notes.n; i++)
		q7_note("%s", notes.v[i]);
	q7_err_print(&err);
	q7_sv_free(&notes);
	return rc != 0 ? Q7_EXIT_ERROR : 0;
}
