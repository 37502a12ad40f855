/* q7cc's one executable. The tools of the table below answer to their
 * names (argv[0]) and as a first-argument subcommand (q7cc --q7-run ...);
 * every other name (q7cc, xt-clang++, q7cc-gnu-g++, ...: toolchain.c) is
 * the compiler driver (wrapper/driver.c). */
#include "driver.h"
#include "memory_map_main.h"
#include "pack.h"
#include "prelink.h"
#include "run.h"
#include "support.h"
#include "tempfile.h"

#include <signal.h>
#include <string.h>

struct tool {
	const char *name;
	const char *subcommand;
	int (*main)(int argc, char **argv);
	const char *prog; /* its messages' name, when not name (a subcommand only) */
};

static const struct tool tools[] = {
	{"q7-pkg-loadlib", "--q7-pkg-loadlib", q7_pkg_loadlib_main, NULL},
	{"xt-pkg-loadlib", NULL, q7_pkg_loadlib_main, NULL},
	{"q7-run", "--q7-run", q7_run_main, NULL},
	{"q7-prelink", "--q7-prelink", q7_prelink_main, NULL},
	{"q7-memory-map", "--q7-memory-map", q7_memory_map_main, "q7cc"},
};

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? q7_path_basename(argv[0]) : "q7cc";
	if (argc > 0)
		q7_set_self_argv0(argv[0]);
	/* Past a file size limit (ulimit -f) a write fails with EFBIG, which
	 * every tool reports naming the file and cleans up after, instead of
	 * the process dying by SIGXFSZ with its temporaries left behind. */
	signal(SIGXFSZ, SIG_IGN);
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		const struct tool *t = &tools[i];
		bool named = strcmp(self, t->name) == 0;
		bool sub = !named && argc > 1 && t->subcommand && strcmp(argv[1], t->subcommand) == 0;
		if (!named && !sub)
			continue;
		q7_set_progname(sub && t->prog ? t->prog : t->name);
		q7_temp_cleanup_on_signals();
		if (sub)
			argv[1] = (char *)t->name;
		return t->main(argc - sub, argv + sub);
	}
	return q7_driver_main(argc, argv);
}
