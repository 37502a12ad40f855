/* support/args: one command-line reader for q7cc's small tools, each with
 * its table of options and its own spellings (docs/driver.md, "The small
 * tools' command lines and errors"). "-" alone is an argument. */
#ifndef Q7_ARGS_H
#define Q7_ARGS_H

#include <stdbool.h>
#include <stdio.h>

struct q7_args_opt {
	const char *name; /* with its dashes: "-o", "--core" */
	int id;           /* > 0: what q7_args_next returns for it */
	bool value;       /* takes a value */
	bool exact;       /* a flag taken only as written, whatever the style */
	const char *arg;  /* the value's name in the help ("N"), or NULL */
	const char *help; /* what it does, for --help and the manual page (made
	                   * from --help); NULL: listed beside the row of its id
	                   * that has one, else not listed */
};

enum {
	Q7_ARGS_LONG_NEXT = 1 << 0, /* "--core V" as well as "--core=V" */
	Q7_ARGS_GETOPT = 1 << 1,    /* one or two dashes; "-o=V"; implies LONG_NEXT */
	Q7_ARGS_NUMBERS = 1 << 2,   /* "-2", "-.5", "-inf" are arguments, not options */
	Q7_ARGS_DASHDASH = 1 << 3,  /* after "--" everything is an argument */
};

/* A table's entries; the _H forms with their help. */
#define Q7_ARGS_FLAG(name, id) {(name), (id), false, false, NULL, NULL}
#define Q7_ARGS_VALUE(name, id) {(name), (id), true, false, NULL, NULL}
#define Q7_ARGS_EXACT(name, id) {(name), (id), false, true, NULL, NULL}
#define Q7_ARGS_FLAG_H(name, id, help) {(name), (id), false, false, NULL, (help)}
#define Q7_ARGS_VALUE_H(name, id, arg, help) {(name), (id), true, false, (arg), (help)}
#define Q7_ARGS_EXACT_H(name, id, help) {(name), (id), false, true, NULL, (help)}
#define Q7_ARGS_TABLE_END {NULL, 0, false, false, NULL, NULL}

/* What q7_args_next returns besides an option's id. */
enum {
	Q7_ARGS_END = 0,        /* no more arguments */
	Q7_ARGS_POS = -1,       /* an argument; *val is it */
	Q7_ARGS_UNKNOWN = -2,   /* an option not in the table; *val as given */
	Q7_ARGS_NO_VALUE = -3,  /* a value option last on the line; *val as given */
};

struct q7_args {
	int argc;
	char **argv;
	const struct q7_args_opt *opts; /* ended by a NULL name */
	unsigned style;
	int next; /* argv's index read next: after an option, past its value */
	bool only_pos;
};

/* The table's options with help, to f, under "Options:": one row each,
 * "  -v, --verbose        what it does" (the spellings of its id, a
 * value as "--core=N" or "-o FILE"), help wrapped under itself. The
 * manual pages are made from these rows (docs/man/README.md). */
void q7_args_help(FILE *f, const struct q7_args_opt *opts);
/* "q7-run (q7cc) 0.1.1" on stdout: --version. */
void q7_args_version(const char *tool);

/* Reads argv from argv[1] on. */
void q7_args_init(struct q7_args *p, int argc, char **argv, const struct q7_args_opt *opts,
                  unsigned style);
/* The next option's id with its value in *val (NULL for a flag), or one of
 * the Q7_ARGS_ codes above. */
int q7_args_next(struct q7_args *p, const char **val);

#endif
