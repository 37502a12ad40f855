/* The lint's command line from a compile command: see lintcmd.h.
 *
 * What a word of the project's command is comes from the driver's own
 * option table (model/options.h, docs/driver.md "The option tables"), so
 * the editor and q7cc read a command alike. Kept are what q7cc's analysis
 * reads of a compile: the options the table marks as shaping the parse,
 * the -W options of the lint's policy (lint-rules.md), -x and q7cc's
 * kernel options. A word passes only as one of these, or as the value
 * right after one that takes the next word; any other option that takes
 * the next word leaves with it (-o FILE, -Xclang -load). So no word of
 * the project's can become a mode (-E, --version, -###), a program (-B,
 * -fplugin=, -wrapper) or a file q7cc writes. */
#include "lintcmd.h"
#include "options.h"

#include <string.h>

#define COUNT(t) (sizeof t / sizeof t[0])

static const char *const toolchains[] = {"xt", "gnu", "host"};

/* The toolchain a compiler's name says (q7cc-gnu, q7cc-host-g++ -> "gnu",
 * "host"), or NULL (q7cc, xt-clang++: q7cc's own detection). */
static const char *toolchain_of(const char *compiler)
{
	const char *base = q7_path_basename(compiler);
	if (strncmp(base, "q7cc-", 5) != 0)
		return NULL;
	for (size_t i = 0; i < COUNT(toolchains); i++) {
		size_t n = strlen(toolchains[i]);
		const char *tail = base + 5 + n;
		if (strncmp(base + 5, toolchains[i], n) == 0 &&
		    (!*tail || (i > 0 && (strcmp(tail, "-g++") == 0 || strcmp(tail, "-gcc") == 0))))
			return toolchains[i];
	}
	return NULL;
}

/* Whether the lint keeps the driver option o. */
static bool kept(const struct q7_option *o)
{
	switch (o->id) {
	case Q7_ID_WARN:
	case Q7_ID_LANG:
	case Q7_ID_Q7_KERNEL:
	case Q7_ID_Q7_MULTICORE:
	case Q7_ID_Q7_TOOLCHAIN:
		return true;
	default:
		return (o->flags & Q7_OPT_PARSE) != 0;
	}
}

/* Whether o's value v may go to q7cc. */
static bool value_ok(const struct q7_option *o, const char *v)
{
	if (strcmp(o->name, "-O") == 0) /* -O, -O2, -Os, -Ofast */
		return strspn(v, "0123456789abcdefghijklmnopqrstuvwxyz") == strlen(v);
	if (!(o->flags & (Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_EQ)))
		return true; /* takes none */
	if (!*v || v[0] == '-') /* no value, or another option taken for one */
		return false;
	if (o->id == Q7_ID_LANG)
		return strcmp(v, "c++") == 0;
	if (o->id == Q7_ID_Q7_TOOLCHAIN)
		return strcmp(v, "xt") == 0 || strcmp(v, "gnu") == 0 || strcmp(v, "host") == 0;
	if (o->id == Q7_ID_WARN) /* -Wl, -Wa, -Wp, have rows of their own */
		return !strchr(v, ',');
	return true;
}

/* Adds to out the flags of argv (argv[0] the compiler) that pass. */
static void keep_flags(const struct q7_strvec *argv, struct q7_strvec *out)
{
	for (size_t i = 1; i < argv->n; i++) {
		const char *a = argv->v[i], *v = NULL;
		const struct q7_option *o = a[0] == '-' ? q7_option_find(a, &v) : NULL;
		if (!o)
			continue;
		if (!v && (o->flags & Q7_OPT_SEP)) {
			/* The value is the next word: both go, or neither. */
			const char *next = i + 1 < argv->n ? argv->v[i + 1] : "";
			i += i + 1 < argv->n;
			if (kept(o) && value_ok(o, next)) {
				q7_sv_add(out, a);
				q7_sv_add(out, next);
			}
		} else if (kept(o) && value_ok(o, v ? v : "")) {
			q7_sv_add(out, a);
		}
	}
}

void q7_lintcmd_argv(const struct q7_ccmd *cmd, const char *q7cc, const char *mode,
                     const char *orig_dir, const char *text, struct q7_strvec *out)
{
	q7_sv_add(out, q7cc);
	const char *toolchain = toolchain_of(cmd->argv.v[0]);
	if (toolchain)
		q7_sv_addf(out, "--q7-toolchain=%s", toolchain);
	q7_sv_add(out, mode);
	q7_sv_add(out, "--q7-format=json");
	keep_flags(&cmd->argv, out);
	/* Its "..." includes: the editor's text is in a folder of its own. */
	q7_sv_add(out, "-iquote");
	q7_sv_add(out, orig_dir);
	q7_sv_add(out, text);
}
