/* The q7-prelink command line:
 *   q7-prelink [--core=N | --base=ADDR] [-e NAME] [-v] -o OUT IN
 *   q7-prelink --check FILE
 * IN is a .packed.so (or a plain linked image); OUT the loadable image;
 * --check verifies a loadable image and prints its header. */
#include "prelink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"
#include "support.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: q7-prelink [--core=N | --base=ADDR] [-e NAME] [-v] -o OUT IN.packed.so\n"
	        "  --core=N     place at core N's SRAM window (0..7); default: the single-core\n"
	        "               window\n"
	        "  --base=ADDR  place at ADDR (decimal, or 0x hex)\n"
	        "  -e NAME      the image's symbol in the packed object (default lib_func)\n"
	        "  -o OUT       the loadable image to write\n"
	        "  -v           print where the image went\n"
	        "       q7-prelink --check FILE\n"
	        "  checks a prelinked image's header and checksums and prints the header\n");
}

static int check_main(const char *path)
{
	size_t len;
	char *buf = q7_read_file(path, &len);
	if (!buf) {
		q7_error("%s: cannot read: %s", path, strerror(errno));
		return Q7_EXIT_IO;
	}
	struct q7_pl_header h;
	const char *why;
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

/* The value of an option given as "--opt=V", "--opt V", "-oV" or "-o V". */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	const char *a = argv[*i];
	if (strncmp(a, opt, n) != 0)
		return NULL;
	if (a[n] == '=' && opt[1] == '-')
		return a + n + 1;
	if (a[n] && opt[1] != '-')
		return a + n;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		q7_error("%s needs a value", opt);
		exit(Q7_EXIT_USAGE);
	}
	return argv[++*i];
}

int q7_prelink_main(int argc, char **argv)
{
	struct q7_prelink_opts opts = {.symbol = "lib_func", .core = Q7_LSP_SINGLE};
	const char *output = NULL, *input = NULL, *v;
	bool verbose = false, have_core = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--check") == 0) {
			if (i + 2 != argc) {
				q7_error("--check takes one file");
				return Q7_EXIT_USAGE;
			}
			return check_main(argv[i + 1]);
		} else if (strcmp(a, "-v") == 0) {
			verbose = true;
		} else if ((v = opt_value(argc, argv, &i, "--core"))) {
			uint32_t c;
			if (!parse_u32(v, &c) || c >= Q7_NUM_CORES) {
				q7_error("--core=%s: cores are 0..%d", v, Q7_NUM_CORES - 1);
				return Q7_EXIT_USAGE;
			}
			opts.core = (int)c;
			have_core = true;
		} else if ((v = opt_value(argc, argv, &i, "--base"))) {
			if (!parse_u32(v, &opts.base)) {
				q7_error("--base=%s: not an address", v);
				return Q7_EXIT_USAGE;
			}
			opts.have_base = true;
		} else if ((v = opt_value(argc, argv, &i, "-o"))) {
			output = v;
		} else if ((v = opt_value(argc, argv, &i, "-e"))) {
			opts.symbol = v;
		} else if (a[0] == '-' && a[1]) {
			q7_error("unknown option '%s'", a);
			usage(stderr);
			return Q7_EXIT_USAGE;
		} else if (input) {
			q7_error("more than one input ('%s' and '%s')", input, a);
			return Q7_EXIT_USAGE;
		} else {
			input = a;
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
	struct q7_prelinked pl;
	char err[Q7_PL_ERR_SIZE];
	if (q7_prelink_file(&opts, input, &pl, err, sizeof err)) {
		q7_error("%s", err);
		return Q7_EXIT_ERROR;
	}
	int rc = q7_prelinked_write(&pl, output, err, sizeof err);
	if (rc)
		q7_error("%s", err);
	else if (verbose)
		fprintf(stderr,
		        "q7-prelink: %s: linked at 0x%08x, placed at 0x%08x, %u load bytes + %u bss, "
		        "entry 0x%08x, %u relocations\n",
		        output, pl.hdr.link_base, pl.hdr.base, pl.hdr.load_size, pl.hdr.bss_size,
		        pl.hdr.entry, pl.hdr.nrelocs);
	q7_prelinked_free(&pl);
	return rc ? Q7_EXIT_IO : 0;
}
