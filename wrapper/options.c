/* The option table: one sorted array (strcmp order, checked by a test),
 * searched by exact name, then by the longest joined prefix. */
#include "options.h"

#include <stdlib.h>
#include <string.h>

static const struct q7_option table[] = {
	{"-###", 0, Q7_ID_DRYRUN},
	{"--compile", 0, Q7_ID_COMPILE},
	{"--define-macro", Q7_OPT_SEP | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--define-macro=", Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--help", 0, Q7_ID_INFO},
	{"--help=", Q7_OPT_JOINED, Q7_ID_INFO},
	{"--include-directory", Q7_OPT_SEP | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"--include-directory=", Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"--language", Q7_OPT_SEP | Q7_OPT_CPP, Q7_ID_LANG},
	{"--language=", Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_LANG},
	{"--output", Q7_OPT_SEP, Q7_ID_OUTPUT},
	{"--output=", Q7_OPT_JOINED, Q7_ID_OUTPUT},
	{"--param", Q7_OPT_SEP, Q7_ID_OTHER},
	{"--preprocess", 0, Q7_ID_PREPROCESS},
	{"--print-", Q7_OPT_JOINED, Q7_ID_INFO},
	{"--q7-emit-wrapper=", Q7_OPT_JOINED | Q7_OPT_Q7, Q7_ID_Q7_EMIT},
	{"--q7-format=", Q7_OPT_JOINED | Q7_OPT_Q7, Q7_ID_Q7_FORMAT},
	{"--q7-help", Q7_OPT_Q7, Q7_ID_Q7_HELP},
	{"--q7-kernel=", Q7_OPT_JOINED | Q7_OPT_Q7, Q7_ID_Q7_KERNEL},
	{"--q7-lint", Q7_OPT_Q7, Q7_ID_Q7_LINT},
	{"--q7-multicore", Q7_OPT_Q7, Q7_ID_Q7_MULTICORE},
	{"--q7-print-schema", Q7_OPT_Q7, Q7_ID_Q7_SCHEMA},
	{"--q7-toolchain=", Q7_OPT_JOINED | Q7_OPT_Q7, Q7_ID_Q7_TOOLCHAIN},
	{"--shared", Q7_OPT_LINK, Q7_ID_SHARED},
	{"--sysroot", Q7_OPT_SEP | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--sysroot=", Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--target=", Q7_OPT_JOINED, Q7_ID_OTHER},
	{"--undefine-macro", Q7_OPT_SEP | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--undefine-macro=", Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"--version", 0, Q7_ID_INFO},
	{"--xtensa-core=", Q7_OPT_JOINED | Q7_OPT_VENDOR | Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"--xtensa-params=", Q7_OPT_JOINED | Q7_OPT_VENDOR | Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"--xtensa-system=", Q7_OPT_JOINED | Q7_OPT_VENDOR | Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-D", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-E", 0, Q7_ID_PREPROCESS},
	{"-I", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-L", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_LINK, Q7_ID_OTHER},
	{"-M", 0, Q7_ID_PREPROCESS},
	{"-MD", Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MF", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MG", Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MJ", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MM", 0, Q7_ID_PREPROCESS},
	{"-MMD", Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MP", Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MQ", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-MT", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_COMPILE | Q7_OPT_DEP, Q7_ID_OTHER},
	{"-O", Q7_OPT_JOINED, Q7_ID_OTHER},
	{"-S", 0, Q7_ID_ASSEMBLE},
	{"-T", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_LINK, Q7_ID_OTHER},
	{"-U", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-W", Q7_OPT_JOINED, Q7_ID_WARN},
	{"-Wa,", Q7_OPT_JOINED | Q7_OPT_COMPILE, Q7_ID_OTHER},
	{"-Wl,", Q7_OPT_JOINED | Q7_OPT_LINK | Q7_OPT_POSITIONAL, Q7_ID_OTHER},
	{"-Wno-c99-designator", Q7_OPT_VENDOR, Q7_ID_OTHER},
	{"-Wp,", Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_COMPILE, Q7_ID_OTHER},
	{"-Xassembler", Q7_OPT_SEP | Q7_OPT_COMPILE, Q7_ID_OTHER},
	{"-Xclang", Q7_OPT_SEP, Q7_ID_OTHER},
	{"-Xlinker", Q7_OPT_SEP | Q7_OPT_LINK | Q7_OPT_POSITIONAL, Q7_ID_OTHER},
	{"-Xpreprocessor", Q7_OPT_SEP | Q7_OPT_CPP | Q7_OPT_COMPILE, Q7_ID_OTHER},
	{"-ansi", Q7_OPT_CPP, Q7_ID_OTHER},
	{"-arch", Q7_OPT_SEP, Q7_ID_OTHER},
	{"-aux-info", Q7_OPT_SEP | Q7_OPT_COMPILE, Q7_ID_OTHER},
	{"-c", 0, Q7_ID_COMPILE},
	{"-dumpbase", Q7_OPT_SEP, Q7_ID_OTHER},
	{"-dumpdir", Q7_OPT_SEP, Q7_ID_OTHER},
	{"-dumpfullversion", 0, Q7_ID_INFO},
	{"-dumpmachine", 0, Q7_ID_INFO},
	{"-dumpspecs", 0, Q7_ID_INFO},
	{"-dumpversion", 0, Q7_ID_INFO},
	{"-e", Q7_OPT_SEP | Q7_OPT_LINK, Q7_ID_OTHER},
	{"-fcolor-diagnostics", 0, Q7_ID_COLOR},
	{"-fdiagnostics-color", 0, Q7_ID_COLOR},
	{"-fdiagnostics-color=", Q7_OPT_JOINED, Q7_ID_COLOR},
	{"-fno-color-diagnostics", 0, Q7_ID_COLOR},
	{"-fno-diagnostics-color", 0, Q7_ID_COLOR},
	{"-fsyntax-only", 0, Q7_ID_SYNTAX},
	{"-g", Q7_OPT_JOINED, Q7_ID_DEBUG},
	{"-idirafter", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-imacros", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-include", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-include-pch", Q7_OPT_SEP | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-iprefix", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-iquote", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-isysroot", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-isystem", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-iwithprefix", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-iwithprefixbefore", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP | Q7_OPT_INCLUDE, Q7_ID_OTHER},
	{"-l", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_LINK | Q7_OPT_POSITIONAL, Q7_ID_OTHER},
	{"-mauto-litpools", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mcoproc", Q7_OPT_VENDOR | Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mforce-no-pic", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mlongcalls", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mlsp=", Q7_OPT_JOINED | Q7_OPT_VENDOR | Q7_OPT_XTENSA | Q7_OPT_LINK, Q7_ID_LSP},
	{"-mno-auto-litpools", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mno-longcalls", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mno-serialize-volatile", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mno-text-section-literals", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mserialize-volatile", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-mtext-section-literals", Q7_OPT_XTENSA, Q7_ID_OTHER},
	{"-no-pie", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-nodefaultlibs", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-nostartfiles", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-nostdinc", Q7_OPT_CPP, Q7_ID_OTHER},
	{"-nostdinc++", Q7_OPT_CPP, Q7_ID_OTHER},
	{"-nostdlib", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-o", Q7_OPT_SEP | Q7_OPT_JOINED, Q7_ID_OUTPUT},
	{"-pie", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-print-", Q7_OPT_JOINED, Q7_ID_INFO},
	{"-rdynamic", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-shared", Q7_OPT_LINK, Q7_ID_SHARED},
	{"-static", Q7_OPT_LINK, Q7_ID_OTHER},
	{"-std=", Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_OTHER},
	{"-stdlib=", Q7_OPT_JOINED, Q7_ID_STDLIB},
	{"-target", Q7_OPT_SEP, Q7_ID_OTHER},
	{"-u", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_LINK, Q7_ID_OTHER},
	{"-undef", Q7_OPT_CPP, Q7_ID_OTHER},
	{"-v", 0, Q7_ID_VERBOSE},
	{"-w", 0, Q7_ID_WARN},
	{"-x", Q7_OPT_SEP | Q7_OPT_JOINED | Q7_OPT_CPP, Q7_ID_LANG},
	{"-z", Q7_OPT_SEP | Q7_OPT_LINK, Q7_ID_OTHER},
};

#define NOPTS (sizeof table / sizeof table[0])
/* No name in the table is longer than this; prefixes beyond it cannot match. */
#define MAX_NAME 32

static int cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct q7_option *)elem)->name);
}

static const struct q7_option *exact(const char *name)
{
	return bsearch(name, table, NOPTS, sizeof table[0], cmp);
}

const struct q7_option *q7_option_find(const char *arg, bool *joined)
{
	*joined = false;
	const struct q7_option *o = exact(arg);
	if (o)
		return o;
	char buf[MAX_NAME + 1];
	size_t n = strlen(arg);
	if (n > MAX_NAME)
		n = MAX_NAME;
	/* Longest prefix first, so -Wl, wins over -W and -include-pch over
	 * -include. */
	for (size_t len = n; len > 1; len--) {
		memcpy(buf, arg, len);
		buf[len] = '\0';
		if (len == strlen(arg))
			continue;
		o = exact(buf);
		if (o && (o->flags & Q7_OPT_JOINED)) {
			*joined = true;
			return o;
		}
	}
	return NULL;
}

const struct q7_option *q7_option_table(size_t *n)
{
	*n = NOPTS;
	return table;
}
