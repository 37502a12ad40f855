/* model/options: the one place that knows option spellings, which the
 * driver (wrapper/) and the language server (editor/lintcmd.c) read alike:
 * the driver's and GNU ld's tables (docs/driver.md, "The option tables")
 * and the spelling of warning options, for the q7 warning policy. */
#ifndef Q7_OPTIONS_H
#define Q7_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Flag bits. */
enum {
	Q7_OPT_SEP = 1u << 0,        /* argument in the next word: -o FILE */
	Q7_OPT_JOINED = 1u << 1,     /* argument glued on: -Idir, -O2 (a prefix match) */
	Q7_OPT_EQ = 1u << 2,         /* also NAME=VALUE: --output=FILE, ld's -Map=FILE */
	Q7_OPT_PARSE = 1u << 3,      /* shapes what the parser sees (preprocessor,
	                                dialect): analysis's libclang gets it too */
	Q7_OPT_COMPILE = 1u << 4,    /* compile-only: not given to a link */
	Q7_OPT_LINK = 1u << 5,       /* link-only: not given to a compile */
	Q7_OPT_Q7 = 1u << 6,         /* q7cc's own: never forwarded */
	Q7_OPT_INCLUDE = 1u << 7,    /* an include directory (the vendor "includes" slot) */
	Q7_OPT_VENDOR = 1u << 8,     /* only the vendor xt-clang++ knows it */
	Q7_OPT_XTENSA = 1u << 9,     /* Xtensa code generation: not for the host */
	Q7_OPT_POSITIONAL = 1u << 10, /* a link input whose place matters: -l, -Wl, */
	Q7_OPT_DEP = 1u << 11,       /* dependency-file output (-MD, -MF ...) */
	/* The split 8-core link (ldsplit.h). A driver flag or an ld word with
	 * RESOLVE goes to the relocatable link (archive selection), with IMAGE
	 * to every image link (layout, output), with both to both. */
	Q7_OPT_LD_RESOLVE = 1u << 12,
	Q7_OPT_LD_IMAGE = 1u << 13,
	Q7_OPT_LD_IGNORES = 1u << 14, /* a link without LTO ignores it: the split
	                                 links go without it */
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
	Q7_ID_INFO,         /* -dumpmachine, -print-*: pass-through */
	Q7_ID_VERSION,      /* --version: pass-through, then q7cc's line */
	Q7_ID_HELP,         /* --help[=]: pass-through, then a pointer to --q7-help */
	Q7_ID_WARN,         /* -W..., -w: the q7 warning policy looks first */
	Q7_ID_DEBUG,        /* -g... */
	Q7_ID_STDLIB,       /* -stdlib= */
	Q7_ID_LSP,          /* -mlsp=DIR */
	Q7_ID_RDYNAMIC,     /* -rdynamic: ld's --export-dynamic */
	Q7_ID_COLOR,        /* -fdiagnostics-color[=], -f[no-]color-diagnostics */
	Q7_ID_DIAG_FORMAT,  /* -fdiagnostics-format= */
	Q7_ID_DIAG_SHOW,    /* what a diagnostic shows: -f[no-]diagnostics-show-caret,
	                     * -f[no-]caret-diagnostics, -f[no-]diagnostics-show-line-numbers,
	                     * -f[no-]show-column, -fdiagnostics-column-unit=,
	                     * -fdiagnostics-column-origin=, -fdiagnostics-plain-output */
	Q7_ID_Q7_TOOLCHAIN, /* --q7-toolchain= */
	Q7_ID_Q7_KERNEL,    /* --q7-kernel= */
	Q7_ID_Q7_SCHEMA,    /* --q7-print-schema */
	Q7_ID_Q7_LINT,      /* --q7-lint */
	Q7_ID_Q7_FORMAT,    /* --q7-format= */
	Q7_ID_Q7_MULTICORE, /* --q7-multicore */
	Q7_ID_Q7_PACK,      /* --q7-pack */
	Q7_ID_Q7_EMIT,      /* --q7-emit-wrapper= */
	Q7_ID_Q7_HELP,      /* --q7-help */
};

struct q7_option {
	const char *name;
	unsigned flags;
	enum q7_opt_id id;
};

/* Finds the driver option arg spells: an exact name first, else the
 * longest Q7_OPT_JOINED name that prefixes arg, or a Q7_OPT_EQ name
 * followed by '='. NULL when unknown. *value is set to the argument glued
 * on (into arg; "" for "--output="), or NULL when nothing is glued on. */
const struct q7_option *q7_option_find(const char *arg, const char **value);
/* The same search in GNU ld's words (the words of -Wl, and -Xlinker). */
const struct q7_option *q7_ld_word_find(const char *word, const char **value);

/* The tables, for the tests that they stay sorted (strcmp order). */
const struct q7_option *q7_option_table(size_t *n);
const struct q7_option *q7_ld_word_table(size_t *n);

/* A warning option (Q7_ID_WARN) taken apart. */
struct q7_wflag {
	enum {
		Q7_W_ERRORS,    /* -Werror: every warning is an error */
		Q7_W_NO_ERRORS, /* -Wno-error */
		Q7_W_NONE,      /* -w: no warnings */
		Q7_W_NAME,      /* -W[no-][error=]NAME */
	} kind;
	bool no;          /* -Wno-NAME, -Wno-error=NAME */
	bool error;       /* -Werror=NAME, -Wno-error=NAME */
	const char *name; /* Q7_W_NAME: NAME, into the option's spelling */
	bool q7;          /* NAME is q7cc's (q7-...): never the compiler's */
};
/* Takes a warning option's spelling apart. */
void q7_wflag_parse(const char *arg, struct q7_wflag *w);

#endif
