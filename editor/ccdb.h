/* editor/ccdb: a file's compile command, found as clangd finds it, and the
 * q7cc command line that lints the editor's text of it.
 *
 * Owns: looking for compile_commands.json and whether it may be used
 * (docs/editors.md, "Which files are analysed"), reading it (json-c), the
 * entry of a file (its "arguments", or its "command" split as a POSIX
 * shell would), indexed once per read of the file (by the base name of
 * each entry's file) and read again when the file changes. The lint's
 * command line is lintcmd.h's. */
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
 * again when the file changes) and the list of databases warned of (each
 * one not used is named once on stderr, the editor's log). */
void q7_ccdb_forget(void);
/* True when the compile is a q7cc compile, by the compiler's name: named
 * q7cc* (q7cc, q7cc-gnu, ...), or a link to a file named q7cc under
 * another name (xt-clang++). It says only WHETHER the file is linted:
 * what runs is the q7cc q7cc-clangd is installed with (lintcmd.h). */
bool q7_ccmd_is_q7cc(const struct q7_ccmd *cmd);
/* The CMake target the compile belongs to, by its output's path
 * (`-o CMakeFiles/<target>.dir/k.cpp.o`, as CMake's generators write
 * it), or NULL: a new string. */
char *q7_ccmd_target(const struct q7_ccmd *cmd);
void q7_ccmd_free(struct q7_ccmd *cmd);
/* Adds to out the sources (absolute, resolved) of the q7cc entries of
 * target (q7_ccmd_target) in the database the last q7_ccdb_find used:
 * the files the link of that target puts together. */
void q7_ccdb_target_files(const char *target, struct q7_strvec *out);
/* Splits a command line as a POSIX shell would, without expansions:
 * blanks separate words, '...' is literal, "..." keeps \" \\ \$ \`
 * escapes, \ escapes the next character. */
void q7_shell_split(const char *s, struct q7_strvec *out);

#endif
