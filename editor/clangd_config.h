/* editor/clangd_config: the configuration clangd runs with under
 * q7cc-clangd (docs/editors.md, "What clangd sees"): the user's own
 * config.yaml, then a fragment of q7cc's that drops q7cc's own options
 * (--q7-*) from every compile command and puts q7cc's headers last on the
 * include path of commands clangd infers (headers, files no database
 * names), which its --query-driver does not reach. */
#ifndef Q7_CLANGD_CONFIG_H
#define Q7_CLANGD_CONFIG_H

#include <stdbool.h>

/* Writes the configuration under this process's temporary folder and
 * points XDG_CONFIG_HOME there for the clangd it starts. false (and a
 * warning: clangd then runs with the user's configuration alone) when it
 * cannot. */
bool q7_clangd_config(void);

#endif
