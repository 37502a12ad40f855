/* The lint's command line from a compile command: see lintcmd.h.
 *
 * The table keeps what q7cc's analysis reads of a compile (the options
 * its own table marks as shaping the parse, docs/driver.md; the -W
 * options of the lint's policy, lint-rules.md; q7cc's kernel options).
 * A word passes only as one of these, or as the value right after one
 * that takes the next word, so q7cc reads the result as the table does:
 * no word of the project's can become a mode (-E, --version, -###), a
 * program (-B, -fplugin=, -wrapper) or a file q7cc writes. */
#include "lintcmd.h"

#include <string.h>

enum { ALONE = 0, SEP = 1, JOINED = 2, EQ = 4 };

/* Sorted by name; SEP: the value may be the next word. */
static const struct {
	const char *name;
	unsigned form;
} kept[] = {
	{"--define-macro", SEP | EQ}, {"--include-directory", SEP | EQ},
	{"--q7-kernel=", JOINED}, {"--q7-multicore", ALONE}, {"--q7-toolchain=", JOINED},
	{"--sysroot", SEP | EQ}, {"--undefine-macro", SEP | EQ},
	{"-D", SEP | JOINED}, {"-I", SEP | JOINED}, {"-O", JOINED}, {"-U", SEP | JOINED},
	{"-W", JOINED}, {"-ansi", ALONE},
	{"-fchar8_t", ALONE}, {"-fexceptions", ALONE}, {"-fgnu-keywords", ALONE},
	{"-fms-extensions", ALONE}, {"-fno-char8_t", ALONE}, {"-fno-exceptions", ALONE},
	{"-fno-gnu-keywords", ALONE}, {"-fno-operator-names", ALONE}, {"-fno-rtti", ALONE},
	{"-frtti", ALONE}, {"-fshort-enums", ALONE}, {"-fshort-wchar", ALONE},
	{"-fsigned-char", ALONE}, {"-funsigned-char", ALONE},
	{"-idirafter", SEP | JOINED}, {"-imacros", SEP | JOINED}, {"-include", SEP | JOINED},
	{"-iprefix", SEP | JOINED}, {"-iquote", SEP | JOINED}, {"-isysroot", SEP | JOINED},
	{"-isystem", SEP | JOINED}, {"-iwithprefix", SEP | JOINED},
	{"-iwithprefixbefore", SEP | JOINED},
	{"-nostdinc", ALONE}, {"-nostdinc++", ALONE}, {"-pthread", ALONE}, {"-std=", JOINED},
	{"-trigraphs", ALONE}, {"-w", ALONE}, {"-x", SEP | JOINED},
};

/* The options of a compile that take the next word and are left out:
 * their word goes with them (-o FILE, -Xclang -load). */
static const char *const dropped_sep[] = {
	"--language", "--output", "--param", "-L", "-MF", "-MJ", "-MQ", "-MT", "-T",
	"-Xassembler", "-Xclang", "-Xlinker", "-Xpreprocessor", "-arch", "-aux-info",
	"-dumpbase", "-dumpdir", "-e", "-include-pch", "-l", "-mllvm", "-o", "-target", "-u",
	"-z",
};

#define COUNT(t) (sizeof t / sizeof t[0])

static const char *const profiles[] = {"xt", "gnu", "host"};

const char *q7_lintcmd_profile(const char *compiler)
{
	const char *base = q7_path_basename(compiler);
	if (strncmp(base, "q7cc-", 5) != 0)
		return NULL;
	for (size_t i = 0; i < COUNT(profiles); i++) {
		size_t n = strlen(profiles[i]);
		const char *tail = base + 5 + n;
		if (strncmp(base + 5, profiles[i], n) == 0 &&
		    (!*tail || (i > 0 && (strcmp(tail, "-g++") == 0 || strcmp(tail, "-gcc") == 0))))
			return profiles[i];
	}
	return NULL;
}

/* The row of kept that a starts with, the longest, or -1; *value: what
 * follows the name (after '=' for EQ), NULL for the exact name. */
static int match(const char *a, const char **value)
{
	int best = -1;
	size_t best_n = 0;
	*value = NULL;
	if (strncmp(a, "-include-pch", 12) == 0)
		return -1; /* q7cc's own option, not -include */
	for (size_t i = 0; i < COUNT(kept); i++) {
		size_t n = strlen(kept[i].name);
		if (strncmp(a, kept[i].name, n) != 0 || n <= best_n)
			continue;
		const char *v = !a[n]                                    ? NULL
		                : kept[i].form & JOINED                  ? a + n
		                : (kept[i].form & EQ) && a[n] == '='     ? a + n + 1
		                                                         : "";
		if (v && !*v && a[n])
			continue; /* a longer word: another option */
		best = (int)i;
		best_n = n;
		*value = v;
	}
	return best;
}

/* Whether the option's value may go to q7cc. */
static bool value_ok(const char *name, const char *v)
{
	if (strcmp(name, "-O") == 0) /* -O, -O2, -Os, -Ofast */
		return strspn(v, "0123456789abcdefghijklmnopqrstuvwxyz") == strlen(v);
	if (!*v || v[0] == '-') /* no value, or another option taken for one */
		return false;
	if (strcmp(name, "-x") == 0)
		return strcmp(v, "c++") == 0;
	if (strcmp(name, "--q7-toolchain=") == 0)
		return strcmp(v, "xt") == 0 || strcmp(v, "gnu") == 0 || strcmp(v, "host") == 0;
	if (strcmp(name, "-W") == 0) /* -Wl, -Wa, -Wp,: words for other tools */
		return !strchr(v, ',');
	return true;
}

/* Adds to out the flags of argv (argv[0] the compiler) that pass. */
static void keep_flags(const struct q7_strvec *argv, struct q7_strvec *out)
{
	for (size_t i = 1; i < argv->n; i++) {
		const char *a = argv->v[i], *v;
		int k = a[0] == '-' ? match(a, &v) : -1;
		if (k < 0) {
			for (size_t d = 0; d < COUNT(dropped_sep); d++)
				if (strcmp(a, dropped_sep[d]) == 0 && i + 1 < argv->n)
					i++;
			continue;
		}
		unsigned form = kept[k].form;
		if (!v && (form & SEP)) {
			/* The value is the next word: both go, or neither. */
			const char *next = i + 1 < argv->n ? argv->v[i + 1] : "";
			i += i + 1 < argv->n;
			if (value_ok(kept[k].name, next)) {
				q7_sv_add(out, a);
				q7_sv_add(out, next);
			}
		} else if (form == ALONE || value_ok(kept[k].name, v ? v : "")) {
			q7_sv_add(out, a);
		}
	}
}

void q7_lintcmd_argv(const struct q7_ccmd *cmd, const char *q7cc, const char *mode,
                     const char *orig_dir, const char *text, struct q7_strvec *out)
{
	q7_sv_add(out, q7cc);
	const char *profile = q7_lintcmd_profile(cmd->argv.v[0]);
	if (profile)
		q7_sv_addf(out, "--q7-toolchain=%s", profile);
	q7_sv_add(out, mode);
	q7_sv_add(out, "--q7-format=json");
	keep_flags(&cmd->argv, out);
	/* Its "..." includes: the editor's text is in a folder of its own. */
	q7_sv_add(out, "-iquote");
	q7_sv_add(out, orig_dir);
	q7_sv_add(out, text);
}
