/* wrapper/cmdline: the argv model. Expands @file response files, splits the
 * command line into units (an option with its argument, or an input file)
 * using the option table, and classifies the invocation.
 *
 * Memory: a q7_inv owns its units and strings; q7_inv_free releases them. */
#ifndef Q7_CMDLINE_H
#define Q7_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "srckind.h"
#include "support.h"

enum q7_mode {
	Q7_MODE_INFO,         /* pass-through: --version, -print-*, no inputs */
	Q7_MODE_COMPILE,      /* -c */
	Q7_MODE_PREPROCESS,   /* -E, -M, -MM */
	Q7_MODE_ASSEMBLE,     /* -S */
	Q7_MODE_SYNTAX,       /* -fsyntax-only */
	Q7_MODE_LINK_SHARED,  /* -shared: the device image(s) */
	Q7_MODE_LINK_EXE,     /* a plain executable: passes through */
	Q7_MODE_LINT,         /* --q7-lint */
	Q7_MODE_SCHEMA,       /* --q7-print-schema */
	Q7_MODE_HELP,         /* --q7-help */
};

/* One option with its argument, or one input file. */
struct q7_unit {
	const struct q7_option *opt; /* NULL for an input or unknown option */
	enum q7_input_kind input;    /* Q7_IN_NONE for options */
	char *tok[2];                /* the words as given */
	int ntok;
	const char *value;           /* the option's argument (into tok), or NULL */
	bool q7_only;                /* a -W...q7-... flag: the policy's, not forwarded */
};

struct q7_inv {
	enum q7_mode mode;
	struct q7_unit *u;
	size_t n, cap;
	bool dry_run;        /* -### */
	bool verbose;        /* -v with something to do */
	bool debug;          /* -g among the user's flags (no strip/pack) */
	bool multicore;      /* --q7-multicore */
	bool pack;           /* --q7-pack: strip and pack under -g too */
	int color;           /* -1 auto, 0 never, 1 always */
	const char *output;  /* -o, or NULL */
	const char *toolchain; /* --q7-toolchain=, or NULL */
	const char *format;  /* --q7-format=, or NULL (text) */
	const char *diag_format; /* -fdiagnostics-format= (the last), or NULL */
	bool no_caret;       /* -fno-diagnostics-show-caret, -fno-caret-diagnostics */
	bool no_line_numbers; /* -fno-diagnostics-show-line-numbers */
	bool no_column;      /* -fno-show-column */
	bool byte_columns;   /* -fdiagnostics-column-unit=byte */
	int column_shift;    /* -fdiagnostics-column-origin=N: N - 1 */
	const char *emit_wrapper; /* --q7-emit-wrapper=, or NULL */
	struct q7_strvec kernels; /* --q7-kernel= names */
	size_t nsources;     /* units with a source input */
	size_t ninputs;      /* all input units */
};

/* Expands @file arguments (gcc quoting rules; nested; an unreadable file
 * stays as the literal word, as gcc does) into out. */
void q7_expand_response_files(int argc, char **argv, struct q7_strvec *out);

/* Parses argv (without argv[0], already expanded). Returns 0, or
 * Q7_EXIT_USAGE after printing why (a missing option argument, ...). */
int q7_inv_parse(struct q7_inv *inv, char **args, size_t nargs);
void q7_inv_free(struct q7_inv *inv);

/* Appends the unit's words to out. */
void q7_unit_add(const struct q7_unit *u, struct q7_strvec *out);
/* Flag bits of a unit (0 for inputs and unknown options). */
unsigned q7_unit_flags(const struct q7_unit *u);
enum q7_opt_id q7_unit_id(const struct q7_unit *u);

#endif
