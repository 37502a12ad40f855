/* q7cc-clangd: clangd with q7cc's lint and kernel schemas, for editors
 * (docs/editors.md). Options of its own: --clangd=PATH (else clangd on
 * PATH), --q7-debounce=MS and --q7-analysis-limit=MS;
 * --compile-commands-dir=DIR is read and passed on; every other argument
 * goes to clangd as it is. */
#include "args.h"
#include "clangd_config.h"
#include "relay.h"
#include "tempfile.h"
#include "proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The quiet a burst of changes waits for, clangd's own least debounce
 * (its default adapts from 50 ms up). A lone change is analysed at once,
 * so q7cc's findings come before clangd's rebuild (bench/editor). */
#define DEBOUNCE_MS 50
/* The longest analysis (a TU that takes longer is no editor's). */
#define LIMIT_MS 60000

/* q7cc-clangd's own options, for --help and its manual page (made from
 * --help: docs/man/README.md); main() reads them. */
static const struct q7_args_opt options[] = {
	Q7_ARGS_VALUE_H("--clangd", 1, "PATH", "the clangd to run (default: clangd on PATH)"),
	Q7_ARGS_VALUE_H("--q7-debounce", 2, "MS",
	                "the quiet a burst of changes waits for before q7cc analyses (default 50)"),
	Q7_ARGS_VALUE_H("--q7-analysis-limit", 3, "MS",
	                "the longest one analysis may take (default 60000)"),
	Q7_ARGS_VALUE_H("--compile-commands-dir", 4, "DIR",
	                "where compile_commands.json is, for clangd and for q7cc's lint"),
	Q7_ARGS_FLAG_H("--help", 5, "print this help and exit"),
	Q7_ARGS_FLAG("-h", 5),
	Q7_ARGS_FLAG_H("--version", 6, "print clangd's version (what an editor asks), then exit"),
	Q7_ARGS_FLAG_H("--q7-version", 7, "print q7cc-clangd's version and exit"),
	Q7_ARGS_TABLE_END,
};

static void usage(void)
{
	fputs("usage: q7cc-clangd [--clangd=PATH] [--q7-debounce=MS] [--q7-analysis-limit=MS]\n"
	      "                   [CLANGD-OPTIONS...]\n"
	      "A language server on stdin/stdout: clangd (PATH, or on PATH) with q7cc's\n"
	      "kernel lint merged into its diagnostics and kernel schemas in its hover.\n"
	      "Other options go to clangd.\n",
	      stdout);
	char *doc = q7_doc_path("editors.md");
	printf("See %s.\n", doc);
	free(doc);
	q7_args_help(stdout, options);
}

/* An option's value v: milliseconds from least to 10 minutes. */
static bool milliseconds(const char *opt, const char *v, long least, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || end == v || n < least || n > 600000) {
		q7_error("%s: not a number of milliseconds (%ld to 600000)", opt, least);
		return false;
	}
	*out = (int)n;
	return true;
}

/* PATH without its empty and relative entries: the editor starts the
 * server in a project's folder and the analysis runs in a compile's, and
 * no program there may be found by its name (docs/editors.md, "Which
 * files are analysed"). */
static void absolute_path_only(void)
{
	char *path = q7_xstrdup(getenv("PATH") ? getenv("PATH") : ""), *at;
	struct q7_strbuf b = {0};
	for (char *p = strtok_r(path, ":", &at); p; p = strtok_r(NULL, ":", &at))
		if (p[0] == '/')
			q7_sb_addf(&b, "%s%s", b.len ? ":" : "", p);
	/* An empty PATH would mean the current folder to some. */
	setenv("PATH", b.len ? b.s : "/usr/bin:/bin", 1);
	q7_sb_free(&b);
	free(path);
}

int main(int argc, char **argv)
{
	q7_set_progname("q7cc-clangd");
	q7_set_self_argv0(argv[0]);
	absolute_path_only();
	struct q7_strvec extra = {0};
	struct q7_relay_opts o = {.clangd = "clangd", .extra = &extra, .debounce_ms = DEBOUNCE_MS,
	                          .limit_ms = LIMIT_MS};
	struct q7_args args;
	q7_args_init(&args, argc, argv, options, 0);
	const char *v;
	for (int id; (id = q7_args_next(&args, &v)) != Q7_ARGS_END;) {
		const char *a = argv[args.next - 1];
		if (id == 1) {
			o.clangd = v;
		} else if (id == 2 || id == 3) {
			if (!milliseconds(a, v, id == 3, id == 2 ? &o.debounce_ms : &o.limit_ms))
				return Q7_EXIT_USAGE;
		} else if (id == 4) {
			o.ccdir = v;
		} else if (id == 5) {
			usage();
			return 0;
		} else if (id == 7) {
			q7_args_version("q7cc-clangd");
			return 0;
		} else { /* --version, and every option of clangd's */
			q7_sv_add(&extra, a);
		}
	}
	char *found = q7_path_search(o.clangd, NULL);
	if (!found) {
		q7_error("%s: cannot run clangd: not found (install the Debian package clangd, or "
		         "give --clangd=PATH)", o.clangd);
		q7_sv_free(&extra);
		return Q7_EXIT_TOOL;
	}
	o.clangd = found;
	/* clangd's modes that are no server (the VS Code extension asks
	 * --version): clangd itself, given what the relay would give it. */
	for (size_t i = 0; i < extra.n; i++)
		if (strcmp(extra.v[i], "--version") == 0 || strncmp(extra.v[i], "--check", 7) == 0) {
			struct q7_strvec cmd = {0};
			q7_relay_clangd_argv(&o, &cmd);
			execv(found, cmd.v);
			q7_error("%s: cannot run clangd: %s", found, strerror(errno));
			return Q7_EXIT_TOOL;
		}
	q7_proc_signals_install();
	q7_clangd_config();
	int rc = q7_relay_run(&o);
	q7_temp_cleanup();
	free(found);
	q7_sv_free(&extra);
	return rc;
}
