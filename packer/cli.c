/* packer/cli: the q7-pkg-loadlib / xt-pkg-loadlib command line, as the
 * vendor's Perl packager takes it (Getopt::Long: one or two dashes, a
 * value joined with '=' or in the next argument, short options also as
 * -oFILE), so existing scripts keep working. */
#include "pack.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: %s [-v] [-l] [-p PAGESIZE] [-e SYMBOL] [-s STRIPPED] -o PACKED IMAGE\n"
	        "  -o FILE   the packed load-lib: a relocatable object whose .rodata holds\n"
	        "            the stripped image under SYMBOL\n"
	        "  -s FILE   also save the stripped image\n"
	        "  -e NAME   the symbol at the image's first byte (default lib_func)\n"
	        "  -p SIZE   page-mapped layout: segments at page-congruent offsets and\n"
	        "            the image page-aligned in .rodata (default: overlay layout)\n"
	        "  -l        keep .hash .dynstr .dynsym .rela.plt (symbol lookup)\n"
	        "  -v        say what is removed\n"
	        "  --xtensa-core=, --xtensa-system=, --xtensa-params= are accepted and\n"
	        "  ignored: the image says everything the packer needs.\n",
	        q7_progname());
}

/* Matches arg against option name (without dashes). Returns the value for
 * options that take one (joined or from the next argument), "" for flags,
 * NULL when arg is not this option. */
static const char *match(char **argv, int *i, const char *name, bool takes_value, int *err)
{
	const char *a = argv[*i];
	if (a[0] != '-')
		return NULL;
	a += a[1] == '-' ? 2 : 1;
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '\0') {
		if (!takes_value)
			return "";
		if (!argv[*i + 1]) {
			q7_error("option %s needs a value", argv[*i]);
			*err = 1;
			return NULL;
		}
		return argv[++*i];
	}
	if (!takes_value)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (n == 1 && argv[*i][1] != '-') /* -oFILE */
		return a + 1;
	return NULL;
}

static int parse_size(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (!*s || *end || v == 0 || v > (1ul << 24) || (v & (v - 1)))
		return -1;
	*out = v;
	return 0;
}

int q7_pkg_loadlib_main(int argc, char **argv)
{
	struct q7_pack_opts o = {.symbol = "lib_func"};
	const char *v;
	int err = 0;
	(void)argc;
	for (int i = 1; argv[i]; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		}
		if ((v = match(argv, &i, "o", true, &err)))
			o.output = v;
		else if ((v = match(argv, &i, "s", true, &err)))
			o.stripped = v;
		else if ((v = match(argv, &i, "e", true, &err)))
			o.symbol = v;
		else if ((v = match(argv, &i, "p", true, &err))) {
			if (parse_size(v, &o.pagesize) != 0) {
				q7_error("-p %s: expected a power of two page size", v);
				return Q7_EXIT_USAGE;
			}
		} else if ((v = match(argv, &i, "v", false, &err)))
			o.verbose = true;
		else if ((v = match(argv, &i, "l", false, &err)))
			o.symlookup = true;
		else if ((v = match(argv, &i, "xtensa-core", true, &err)) ||
		         (v = match(argv, &i, "xtensa-system", true, &err)) ||
		         (v = match(argv, &i, "xtensa-params", true, &err)))
			; /* one Xtensa core description is all the image needs */
		else if (err)
			return Q7_EXIT_USAGE;
		else if (a[0] == '-' && a[1]) {
			q7_error("unknown option %s", a);
			usage(stderr);
			return Q7_EXIT_USAGE;
		} else if (o.input) {
			q7_error("more than one input image (%s, %s)", o.input, a);
			return Q7_EXIT_USAGE;
		} else
			o.input = a;
		if (err)
			return Q7_EXIT_USAGE;
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
	return q7_pack(&o);
}
