/* support/args: one command-line reader for q7cc's small tools (q7-run,
 * q7-prelink, q7-pkg-loadlib, q7cc --q7-memory-map). Each tool lists its
 * options in a table and switches on what the reader returns; the
 * messages, the usage text and the exit codes stay the tool's own, since
 * each keeps the spellings its users and tests already rely on.
 *
 * Spellings read: a flag exactly as named ("-v", "--list"); a short value
 * option as "-oV" or "-o V"; a long one as "--core=V", and as "--core V"
 * under Q7_ARGS_LONG_NEXT. Under Q7_ARGS_GETOPT (the vendor's Perl
 * packager, Getopt::Long) every option takes one dash or two and '='
 * joins a value to a short name too, but for an exact flag. "-" alone is
 * an argument. */
#ifndef Q7_ARGS_H
#define Q7_ARGS_H

#include <stdbool.h>

struct q7_args_opt {
	const char *name; /* with its dashes: "-o", "--core" */
	int id;           /* > 0: what q7_args_next returns for it */
	bool value;       /* takes a value */
	bool exact;       /* a flag taken only as written, whatever the style */
};

enum {
	Q7_ARGS_LONG_NEXT = 1 << 0, /* "--core V" as well as "--core=V" */
	Q7_ARGS_GETOPT = 1 << 1,    /* one or two dashes; "-o=V"; implies LONG_NEXT */
	Q7_ARGS_NUMBERS = 1 << 2,   /* "-2", "-.5", "-inf" are arguments, not options */
	Q7_ARGS_DASHDASH = 1 << 3,  /* after "--" everything is an argument */
};

/* A table's entries. */
#define Q7_ARGS_FLAG(name, id) {(name), (id), false, false}
#define Q7_ARGS_VALUE(name, id) {(name), (id), true, false}
#define Q7_ARGS_EXACT(name, id) {(name), (id), false, true}
#define Q7_ARGS_TABLE_END {NULL, 0, false, false}

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

/* Reads argv from argv[1] on. */
void q7_args_init(struct q7_args *p, int argc, char **argv, const struct q7_args_opt *opts,
                  unsigned style);
/* The next option's id with its value in *val (NULL for a flag), or one of
 * the Q7_ARGS_ codes above. */
int q7_args_next(struct q7_args *p, const char **val);

#endif
