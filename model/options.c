/* The option tables (options.h): sorted arrays (strcmp order, checked by
 * a test). */
#include "options.h"

#include <stdlib.h>
#include <string.h>

/* Short names for the flag bits, so that each row fits one line. */
#define SEP Q7_OPT_SEP
#define JOINED Q7_OPT_JOINED
#define EQ Q7_OPT_EQ
#define PARSE Q7_OPT_PARSE
#define COMPILE Q7_OPT_COMPILE
#define LINK Q7_OPT_LINK
#define Q7 Q7_OPT_Q7
#define INC Q7_OPT_INCLUDE
#define VENDOR Q7_OPT_VENDOR
#define XTENSA Q7_OPT_XTENSA
#define POSITIONAL Q7_OPT_POSITIONAL
#define DEP Q7_OPT_DEP
#define RES Q7_OPT_LD_RESOLVE
#define IMG Q7_OPT_LD_IMAGE
#define IGN Q7_OPT_LD_IGNORES
/* ld's argument forms: LONG takes the next word or "=value" (ld reads
 * -name=value as --name=value); SHORT is glued to its letter (-lfoo) or
 * the next word. */
#define LONG (SEP | EQ)
#define SHORT (SEP | JOINED)

/* The compiler driver's options. Driver flags on a link line that carry
 * none of RES, IMG or IGN (-T, -flto, -fuse-ld=, ...) keep the eight full
 * links of a split 8-core link. */
static const struct q7_option driver[] = {
	{"-###", 0, Q7_ID_DRYRUN},
	{"--compile", 0, Q7_ID_COMPILE},
	{"--define-macro", SEP | EQ | PARSE, Q7_ID_OTHER},
	{"--help", EQ, Q7_ID_HELP},
	{"--include-directory", SEP | EQ | PARSE | INC, Q7_ID_OTHER},
	{"--language", SEP | EQ, Q7_ID_LANG},
	{"--output", SEP | EQ, Q7_ID_OUTPUT},
	{"--param", SEP, Q7_ID_OTHER},
	{"--preprocess", 0, Q7_ID_PREPROCESS},
	{"--print-", JOINED, Q7_ID_INFO},
	{"--q7-emit-wrapper=", JOINED | Q7, Q7_ID_Q7_EMIT},
	{"--q7-format=", JOINED | Q7, Q7_ID_Q7_FORMAT},
	{"--q7-help", Q7, Q7_ID_Q7_HELP},
	{"--q7-kernel=", JOINED | Q7, Q7_ID_Q7_KERNEL},
	{"--q7-lint", Q7, Q7_ID_Q7_LINT},
	{"--q7-multicore", Q7, Q7_ID_Q7_MULTICORE},
	{"--q7-pack", Q7, Q7_ID_Q7_PACK},
	{"--q7-print-schema", Q7, Q7_ID_Q7_SCHEMA},
	{"--q7-toolchain=", JOINED | Q7, Q7_ID_Q7_TOOLCHAIN},
	{"--shared", LINK, Q7_ID_SHARED},
	{"--sysroot", SEP | EQ | PARSE, Q7_ID_OTHER},
	{"--target=", JOINED, Q7_ID_OTHER},
	{"--undefine-macro", SEP | EQ | PARSE, Q7_ID_OTHER},
	{"--version", 0, Q7_ID_VERSION},
	{"--xtensa-core=", JOINED | VENDOR | XTENSA, Q7_ID_OTHER},
	{"--xtensa-params=", JOINED | VENDOR | XTENSA, Q7_ID_OTHER},
	{"--xtensa-system=", JOINED | VENDOR | XTENSA, Q7_ID_OTHER},
	{"-D", SEP | JOINED | PARSE | IGN, Q7_ID_OTHER},
	{"-E", 0, Q7_ID_PREPROCESS},
	{"-I", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-L", SEP | JOINED | LINK | RES, Q7_ID_OTHER},
	{"-M", 0, Q7_ID_PREPROCESS},
	{"-MD", COMPILE | DEP, Q7_ID_OTHER},
	{"-MF", SEP | JOINED | COMPILE | DEP, Q7_ID_OTHER},
	{"-MG", COMPILE | DEP, Q7_ID_OTHER},
	{"-MJ", SEP | JOINED | COMPILE | DEP, Q7_ID_OTHER},
	{"-MM", 0, Q7_ID_PREPROCESS},
	{"-MMD", COMPILE | DEP, Q7_ID_OTHER},
	{"-MP", COMPILE | DEP, Q7_ID_OTHER},
	{"-MQ", SEP | JOINED | COMPILE | DEP, Q7_ID_OTHER},
	{"-MT", SEP | JOINED | COMPILE | DEP, Q7_ID_OTHER},
	{"-O", JOINED | PARSE | IGN, Q7_ID_OTHER},
	{"-S", 0, Q7_ID_ASSEMBLE},
	{"-T", SEP | JOINED | LINK, Q7_ID_OTHER},
	{"-U", SEP | JOINED | PARSE | IGN, Q7_ID_OTHER},
	{"-W", JOINED | IGN, Q7_ID_WARN},
	{"-Wa,", JOINED | COMPILE, Q7_ID_OTHER},
	{"-Wl,", JOINED | LINK | POSITIONAL, Q7_ID_OTHER},
	{"-Wno-c99-designator", VENDOR | IGN, Q7_ID_OTHER},
	{"-Wp,", JOINED | COMPILE, Q7_ID_OTHER},
	{"-Xassembler", SEP | COMPILE, Q7_ID_OTHER},
	{"-Xclang", SEP, Q7_ID_OTHER},
	{"-Xlinker", SEP | LINK | POSITIONAL, Q7_ID_OTHER},
	{"-Xpreprocessor", SEP | COMPILE, Q7_ID_OTHER},
	{"-ansi", PARSE, Q7_ID_OTHER},
	{"-arch", SEP, Q7_ID_OTHER},
	{"-aux-info", SEP | COMPILE, Q7_ID_OTHER},
	{"-c", 0, Q7_ID_COMPILE},
	{"-d", JOINED, Q7_ID_OTHER}, /* -dM, -dD ...: dumps */
	{"-dumpbase", SEP, Q7_ID_OTHER},
	{"-dumpdir", SEP, Q7_ID_OTHER},
	{"-dumpfullversion", 0, Q7_ID_INFO},
	{"-dumpmachine", 0, Q7_ID_INFO},
	{"-dumpspecs", 0, Q7_ID_INFO},
	{"-dumpversion", 0, Q7_ID_INFO},
	{"-e", SEP | LINK | IMG, Q7_ID_OTHER},
	{"-f", JOINED | IGN, Q7_ID_OTHER},
	{"-fcaret-diagnostics", IGN, Q7_ID_DIAG_SHOW},
	{"-fchar8_t", PARSE | IGN, Q7_ID_OTHER},
	{"-fcolor-diagnostics", IGN, Q7_ID_COLOR},
	{"-fdiagnostics-color", EQ | IGN, Q7_ID_COLOR},
	{"-fdiagnostics-column-origin=", JOINED | IGN, Q7_ID_DIAG_SHOW},
	{"-fdiagnostics-column-unit=", JOINED | IGN, Q7_ID_DIAG_SHOW},
	{"-fdiagnostics-format=", JOINED | IGN, Q7_ID_DIAG_FORMAT},
	{"-fdiagnostics-plain-output", IGN, Q7_ID_DIAG_SHOW},
	{"-fdiagnostics-show-caret", IGN, Q7_ID_DIAG_SHOW},
	{"-fdiagnostics-show-line-numbers", IGN, Q7_ID_DIAG_SHOW},
	{"-fexceptions", PARSE | IGN, Q7_ID_OTHER},
	{"-fgnu-keywords", PARSE | IGN, Q7_ID_OTHER},
	{"-flto", JOINED, Q7_ID_OTHER},
	{"-fms-extensions", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-caret-diagnostics", IGN, Q7_ID_DIAG_SHOW},
	{"-fno-char8_t", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-color-diagnostics", IGN, Q7_ID_COLOR},
	{"-fno-diagnostics-color", IGN, Q7_ID_COLOR},
	{"-fno-diagnostics-show-caret", IGN, Q7_ID_DIAG_SHOW},
	{"-fno-diagnostics-show-line-numbers", IGN, Q7_ID_DIAG_SHOW},
	{"-fno-exceptions", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-gnu-keywords", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-operator-names", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-rtti", PARSE | IGN, Q7_ID_OTHER},
	{"-fno-show-column", IGN, Q7_ID_DIAG_SHOW},
	{"-frtti", PARSE | IGN, Q7_ID_OTHER},
	{"-fshort-enums", PARSE | IGN, Q7_ID_OTHER},
	{"-fshort-wchar", PARSE | IGN, Q7_ID_OTHER},
	{"-fshow-column", IGN, Q7_ID_DIAG_SHOW},
	{"-fsigned-char", PARSE | IGN, Q7_ID_OTHER},
	{"-fsyntax-only", IGN, Q7_ID_SYNTAX},
	{"-funsigned-char", PARSE | IGN, Q7_ID_OTHER},
	{"-fuse-ld=", JOINED, Q7_ID_OTHER},
	{"-fwhole-program", 0, Q7_ID_OTHER},
	{"-g", JOINED | IGN, Q7_ID_DEBUG},
	{"-idirafter", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-imacros", SEP | JOINED | PARSE, Q7_ID_OTHER},
	{"-include", SEP | JOINED | PARSE, Q7_ID_OTHER},
	{"-include-pch", SEP, Q7_ID_OTHER},
	{"-iprefix", SEP | JOINED | PARSE, Q7_ID_OTHER},
	{"-iquote", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-isysroot", SEP | JOINED | PARSE, Q7_ID_OTHER},
	{"-isystem", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-iwithprefix", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-iwithprefixbefore", SEP | JOINED | PARSE | INC, Q7_ID_OTHER},
	{"-l", SEP | JOINED | LINK | POSITIONAL, Q7_ID_OTHER},
	{"-m", JOINED | IGN, Q7_ID_OTHER},
	{"-mauto-litpools", XTENSA | IGN, Q7_ID_OTHER},
	{"-mcoproc", VENDOR | XTENSA | IGN, Q7_ID_OTHER},
	{"-mforce-no-pic", XTENSA | IGN, Q7_ID_OTHER},
	{"-mllvm", SEP | IGN, Q7_ID_OTHER}, /* clang's: an LLVM option, the next word */
	{"-mlongcalls", XTENSA | IGN, Q7_ID_OTHER},
	{"-mlsp=", JOINED | VENDOR | XTENSA | LINK, Q7_ID_LSP},
	{"-mno-auto-litpools", XTENSA | IGN, Q7_ID_OTHER},
	{"-mno-longcalls", XTENSA | IGN, Q7_ID_OTHER},
	{"-mno-serialize-volatile", XTENSA | IGN, Q7_ID_OTHER},
	{"-mno-text-section-literals", XTENSA | IGN, Q7_ID_OTHER},
	{"-mserialize-volatile", XTENSA | IGN, Q7_ID_OTHER},
	{"-mtext-section-literals", XTENSA | IGN, Q7_ID_OTHER},
	{"-no-pie", LINK, Q7_ID_OTHER},
	{"-nodefaultlibs", LINK | RES, Q7_ID_OTHER},
	{"-nostartfiles", LINK | RES, Q7_ID_OTHER},
	{"-nostdinc", PARSE, Q7_ID_OTHER},
	{"-nostdinc++", PARSE, Q7_ID_OTHER},
	{"-nostdlib", LINK | RES, Q7_ID_OTHER},
	{"-o", SEP | JOINED, Q7_ID_OUTPUT},
	{"-pie", LINK, Q7_ID_OTHER},
	{"-pipe", IGN, Q7_ID_OTHER},
	{"-print-", JOINED, Q7_ID_INFO},
	{"-pthread", PARSE | IGN, Q7_ID_OTHER},
	{"-rdynamic", LINK | IMG, Q7_ID_RDYNAMIC},
	{"-shared", LINK, Q7_ID_SHARED},
	{"-static", LINK | RES, Q7_ID_OTHER},
	{"-std=", JOINED | PARSE | IGN, Q7_ID_OTHER},
	{"-stdlib=", JOINED, Q7_ID_STDLIB},
	{"-target", SEP, Q7_ID_OTHER},
	{"-trigraphs", PARSE | IGN, Q7_ID_OTHER},
	{"-u", SEP | JOINED | LINK | RES | IMG, Q7_ID_OTHER},
	{"-undef", IGN, Q7_ID_OTHER},
	{"-v", RES, Q7_ID_VERBOSE},
	{"-w", IGN, Q7_ID_WARN},
	{"-x", SEP | JOINED, Q7_ID_LANG},
	{"-z", SEP | LINK | IMG, Q7_ID_OTHER},
};

/* GNU ld's words, with the stage of the split 8-core link each belongs
 * to: archive selection to the relocatable link (RES), the image's layout,
 * exports, output and reports to each image link (IMG), a symbol that must
 * come in and stay to both. A word not here keeps the eight full links. */
static const struct q7_option ld_words[] = {
	{"-(", RES, Q7_ID_OTHER},
	{"-)", RES, Q7_ID_OTHER},
	{"--Map", LONG | IMG, Q7_ID_OTHER},
	{"--allow-shlib-undefined", IMG, Q7_ID_OTHER},
	{"--as-needed", RES, Q7_ID_OTHER},
	{"--build-id", EQ | IMG, Q7_ID_OTHER},
	{"--cref", IMG, Q7_ID_OTHER},
	{"--defsym", LONG | IMG, Q7_ID_OTHER},
	{"--demangle", IMG, Q7_ID_OTHER},
	{"--disable-new-dtags", IMG, Q7_ID_OTHER},
	{"--discard-all", IMG, Q7_ID_OTHER},
	{"--discard-locals", IMG, Q7_ID_OTHER},
	{"--eh-frame-hdr", IMG, Q7_ID_OTHER},
	{"--enable-new-dtags", IMG, Q7_ID_OTHER},
	{"--end-group", RES, Q7_ID_OTHER},
	{"--entry", LONG | IMG, Q7_ID_OTHER},
	{"--export-dynamic", IMG, Q7_ID_OTHER},
	{"--fatal-warnings", IMG, Q7_ID_OTHER},
	{"--gc-sections", IMG, Q7_ID_OTHER},
	{"--hash-style", LONG | IMG, Q7_ID_OTHER},
	{"--library", LONG | RES, Q7_ID_OTHER},
	{"--library-path", LONG | RES, Q7_ID_OTHER},
	{"--no-allow-shlib-undefined", IMG, Q7_ID_OTHER},
	{"--no-as-needed", RES, Q7_ID_OTHER},
	{"--no-demangle", IMG, Q7_ID_OTHER},
	{"--no-eh-frame-hdr", IMG, Q7_ID_OTHER},
	{"--no-export-dynamic", IMG, Q7_ID_OTHER},
	{"--no-fatal-warnings", IMG, Q7_ID_OTHER},
	{"--no-gc-sections", IMG, Q7_ID_OTHER},
	{"--no-print-gc-sections", IMG, Q7_ID_OTHER},
	{"--no-relax", IMG, Q7_ID_OTHER},
	{"--no-undefined", IMG, Q7_ID_OTHER},
	{"--no-warn-execstack", IMG, Q7_ID_OTHER},
	{"--no-warn-rwx-segments", IMG, Q7_ID_OTHER},
	{"--no-whole-archive", RES, Q7_ID_OTHER},
	{"--pop-state", RES, Q7_ID_OTHER},
	{"--print-gc-sections", IMG, Q7_ID_OTHER},
	{"--print-map", IMG, Q7_ID_OTHER},
	{"--push-state", RES, Q7_ID_OTHER},
	{"--relax", IMG, Q7_ID_OTHER},
	{"--require-defined", LONG | RES | IMG, Q7_ID_OTHER},
	{"--soname", LONG | IMG, Q7_ID_OTHER},
	{"--sort-common", EQ | IMG, Q7_ID_OTHER},
	{"--sort-section", LONG | IMG, Q7_ID_OTHER},
	{"--start-group", RES, Q7_ID_OTHER},
	{"--stats", IMG, Q7_ID_OTHER},
	{"--strip-all", IMG, Q7_ID_OTHER},
	{"--strip-debug", IMG, Q7_ID_OTHER},
	{"--trace", IMG, Q7_ID_OTHER},
	{"--undefined", LONG | RES | IMG, Q7_ID_OTHER},
	{"--version-script", LONG | IMG, Q7_ID_OTHER},
	{"--warn-common", IMG, Q7_ID_OTHER},
	{"--warn-execstack", IMG, Q7_ID_OTHER},
	{"--warn-rwx-segments", IMG, Q7_ID_OTHER},
	{"--whole-archive", RES, Q7_ID_OTHER},
	{"-Bdynamic", RES, Q7_ID_OTHER},
	{"-Bstatic", RES, Q7_ID_OTHER},
	{"-Bsymbolic", IMG, Q7_ID_OTHER},
	{"-Bsymbolic-functions", IMG, Q7_ID_OTHER},
	{"-E", IMG, Q7_ID_OTHER},
	{"-L", SHORT | RES, Q7_ID_OTHER},
	{"-M", IMG, Q7_ID_OTHER},
	{"-Map", LONG | IMG, Q7_ID_OTHER},
	{"-O", SHORT | IMG, Q7_ID_OTHER},
	{"-S", IMG, Q7_ID_OTHER},
	{"-X", IMG, Q7_ID_OTHER},
	{"-call_shared", RES, Q7_ID_OTHER},
	{"-dn", RES, Q7_ID_OTHER},
	{"-dy", RES, Q7_ID_OTHER},
	{"-e", SHORT | IMG, Q7_ID_OTHER},
	{"-h", SHORT | IMG, Q7_ID_OTHER},
	{"-l", SHORT | RES, Q7_ID_OTHER},
	{"-non_shared", RES, Q7_ID_OTHER},
	{"-rpath", LONG | IMG, Q7_ID_OTHER},
	{"-rpath-link", LONG | IMG, Q7_ID_OTHER},
	{"-s", IMG, Q7_ID_OTHER},
	{"-soname", LONG | IMG, Q7_ID_OTHER},
	{"-static", RES, Q7_ID_OTHER},
	{"-t", IMG, Q7_ID_OTHER},
	{"-u", SHORT | RES | IMG, Q7_ID_OTHER},
	{"-x", IMG, Q7_ID_OTHER},
	{"-z", SHORT | IMG, Q7_ID_OTHER},
};

#define COUNT(t) (sizeof t / sizeof t[0])

/* A key of n characters (no NUL among them), compared as strcmp would
 * compare it as a string. */
struct key {
	const char *s;
	size_t n;
};

static int cmp(const void *k, const void *elem)
{
	const struct key *key = k;
	const char *name = ((const struct q7_option *)elem)->name;
	int c = strncmp(key->s, name, key->n);
	if (c)
		return c;
	return name[key->n] ? -1 : 0;
}

static const struct q7_option *lookup(const struct q7_option *t, size_t n, const char *s,
                                      size_t len)
{
	struct key key = {s, len};
	return bsearch(&key, t, n, sizeof t[0], cmp);
}

static const struct q7_option *find(const struct q7_option *t, size_t n, const char *arg,
                                    const char **value)
{
	size_t len = strlen(arg);
	const struct q7_option *o = lookup(t, n, arg, len);
	if (o) {
		/* -O, --q7-kernel=: an empty argument; -I, -o: the next word. */
		*value = (o->flags & JOINED) && !(o->flags & SEP) ? arg + len : NULL;
		return o;
	}
	/* Longest prefix first, so -Wl, wins over -W and -include-pch over
	 * -include. */
	for (size_t k = len; k >= 2; k--) {
		if (k < len && (o = lookup(t, n, arg, k)) && (o->flags & JOINED)) {
			*value = arg + k;
			return o;
		}
		if (k >= 3 && arg[k - 1] == '=' && (o = lookup(t, n, arg, k - 1)) &&
		    (o->flags & EQ)) {
			*value = arg + k;
			return o;
		}
	}
	*value = NULL;
	return NULL;
}

const struct q7_option *q7_option_find(const char *arg, const char **value)
{
	return find(driver, COUNT(driver), arg, value);
}

const struct q7_option *q7_ld_word_find(const char *word, const char **value)
{
	return find(ld_words, COUNT(ld_words), word, value);
}

const struct q7_option *q7_option_table(size_t *n)
{
	*n = COUNT(driver);
	return driver;
}

const struct q7_option *q7_ld_word_table(size_t *n)
{
	*n = COUNT(ld_words);
	return ld_words;
}

void q7_wflag_parse(const char *arg, struct q7_wflag *w)
{
	memset(w, 0, sizeof *w);
	if (strcmp(arg, "-w") == 0) {
		w->kind = Q7_W_NONE;
		return;
	}
	if (strcmp(arg, "-Werror") == 0) {
		w->kind = Q7_W_ERRORS;
		return;
	}
	if (strcmp(arg, "-Wno-error") == 0) {
		w->kind = Q7_W_NO_ERRORS;
		return;
	}
	const char *r = strncmp(arg, "-W", 2) == 0 ? arg + 2 : arg;
	if (strncmp(r, "no-", 3) == 0) {
		w->no = true;
		r += 3;
	}
	if (strncmp(r, "error=", 6) == 0) {
		w->error = true;
		r += 6;
	}
	w->kind = Q7_W_NAME;
	w->name = r;
	w->q7 = strncmp(r, "q7-", 3) == 0;
}
