/* editor/ccdb: a file's compile command, found as clangd finds it, and the
 * q7cc command line that lints the editor's text of it.
 *
 * Owns: looking for compile_commands.json (in the folder --compile-
 * commands-dir names, else in the file's folder and each one above it,
 * and in their build/ folders), reading it (json-c), the entry of a file
 * (its "arguments", or its "command" split as a POSIX shell would), and
 * turning that compile into `q7cc --q7-lint` / `--q7-print-schema` of
 * another file with the same flags. */
#ifndef Q7_EDITOR_CCDB_H
#define Q7_EDITOR_CCDB_H

#include <stdbool.h>

#include "support.h"

struct q7_ccmd {
	struct q7_strvec argv; /* the compile, argv[0] the compiler */
	char *dir;             /* its working directory */
	char *file;            /* the source as the entry names it */
};

/* The compile of path (absolute), searched from ccdir when non-NULL.
 * true when found; the caller frees cmd with q7_ccmd_free. */
bool q7_ccdb_find(const char *path, const char *ccdir, struct q7_ccmd *cmd);
/* Frees the database q7_ccdb_find keeps between calls (it reads the file
 * again when the file changes). */
void q7_ccdb_forget(void);
/* True when the compiler is q7cc: named q7cc* (q7cc, q7cc-gnu, ...), or a
 * link to the q7cc executable under another name (xt-clang++); the name
 * gives the lint the profile. */
bool q7_ccmd_is_q7cc(const struct q7_ccmd *cmd);
/* The compile's argv with what makes it a compile of its file (-c, -o,
 * the dependency outputs, the source) replaced by mode ("--q7-lint"),
 * JSON output, the original's folder for its "..." includes, and text (the
 * file that holds the editor's text of the source). */
void q7_ccmd_lint_argv(const struct q7_ccmd *cmd, const char *mode, const char *orig_dir,
                       const char *text, struct q7_strvec *out);
void q7_ccmd_free(struct q7_ccmd *cmd);
/* Splits a command line as a POSIX shell would, without expansions:
 * blanks separate words, '...' is literal, "..." keeps \" \\ \$ \`
 * escapes, \ escapes the next character. */
void q7_shell_split(const char *s, struct q7_strvec *out);

#endif
