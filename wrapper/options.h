/* wrapper/options: the one table of compiler options q7cc knows about.
 *
 * Owns: which spellings exist (gcc and clang), whether each takes an
 * argument and in which form, and what the driver must do with it (flag
 * bits). Everything not in the table is forwarded untouched. */
#ifndef Q7_OPTIONS_H
#define Q7_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Flag bits. */
enum {
	Q7_OPT_SEP = 1u << 0,      /* argument in the next word: -o FILE */
	Q7_OPT_JOINED = 1u << 1,   /* argument glued on: -Idir, -O2 (a prefix match) */
	Q7_OPT_CPP = 1u << 2,      /* affects the preprocessor: analysis sees it too */
	Q7_OPT_COMPILE = 1u << 3,  /* compile-only: not given to a link */
	Q7_OPT_LINK = 1u << 4,     /* link-only: not given to a compile */
	Q7_OPT_Q7 = 1u << 5,       /* q7cc's own: never forwarded */
	Q7_OPT_INCLUDE = 1u << 6,  /* an include directory (the vendor "includes" slot) */
	Q7_OPT_VENDOR = 1u << 7,   /* only the vendor xt-clang++ knows it */
	Q7_OPT_XTENSA = 1u << 8,   /* Xtensa code generation: not for the host */
	Q7_OPT_POSITIONAL = 1u << 9, /* a link input whose place matters: -l, -Wl, */
	Q7_OPT_DEP = 1u << 10,     /* dependency-file output (-MD, -MF ...) */
};

/* What the driver does beyond the flag bits. */
enum q7_opt_id {
	Q7_ID_OTHER = 0,
	Q7_ID_COMPILE,      /* -c */
	Q7_ID_PREPROCESS,   /* -E, -M, -MM */
	Q7_ID_ASSEMBLE,     /* -S */
	Q7_ID_SYNTAX,       /* -fsyntax-only */
	Q7_ID_SHARED,       /* -shared */
	Q7_ID_OUTPUT,       /* -o */
	Q7_ID_LANG,         /* -x */
	Q7_ID_VERBOSE,      /* -v */
	Q7_ID_DRYRUN,       /* -### */
	Q7_ID_INFO,         /* --version, -dumpmachine, -print-*: pass-through */
	Q7_ID_WARN,         /* -W..., -w: the q7 warning policy looks first */
	Q7_ID_DEBUG,        /* -g... */
	Q7_ID_STDLIB,       /* -stdlib= */
	Q7_ID_LSP,          /* -mlsp=DIR */
	Q7_ID_COLOR,        /* -fdiagnostics-color[=], -f[no-]color-diagnostics */
	Q7_ID_Q7_TOOLCHAIN, /* --q7-toolchain= */
	Q7_ID_Q7_KERNEL,    /* --q7-kernel= */
	Q7_ID_Q7_SCHEMA,    /* --q7-print-schema */
	Q7_ID_Q7_LINT,      /* --q7-lint */
	Q7_ID_Q7_FORMAT,    /* --q7-format= */
	Q7_ID_Q7_MULTICORE, /* --q7-multicore */
	Q7_ID_Q7_EMIT,      /* --q7-emit-wrapper= */
	Q7_ID_Q7_HELP,      /* --q7-help */
};

struct q7_option {
	const char *name;
	unsigned flags;
	enum q7_opt_id id;
};

/* Finds the option arg spells: an exact name first, else the longest
 * Q7_OPT_JOINED name that prefixes arg. NULL when unknown. *joined is set
 * when the argument is glued to the name (arg + strlen(name)). */
const struct q7_option *q7_option_find(const char *arg, bool *joined);

/* The table, for the test that it stays sorted (strcmp order). */
const struct q7_option *q7_option_table(size_t *n);

#endif
