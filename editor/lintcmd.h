/* editor/lintcmd: the command line that lints the editor's text of a file,
 * made from the file's compile command (ccdb.h) without running anything
 * the project names (docs/editors.md, "Which files are analysed").
 *
 * Owns: the program (always the q7cc q7cc-clangd is installed with, its
 * toolchain from the compiler's name), and the flags taken from the
 * project's command (lintcmd.c says which). */
#ifndef Q7_EDITOR_LINTCMD_H
#define Q7_EDITOR_LINTCMD_H

#include "ccdb.h"

/* q7cc's command that runs mode ("--q7-lint", "--q7-print-schema") on
 * text (the file with the editor's text of the source) with cmd's flags
 * that pass the table, JSON output, and "-iquote orig_dir" (the source's
 * folder, for its "..." includes): q7cc (the installed executable) first,
 * then --q7-toolchain= when the name of cmd's compiler says a toolchain. */
void q7_lintcmd_argv(const struct q7_ccmd *cmd, const char *q7cc, const char *mode,
                     const char *orig_dir, const char *text, struct q7_strvec *out);

#endif
