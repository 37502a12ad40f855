/* run/emu_confine: starts QEMU unable to open host files other
 * than what it needs to start (emu_confine.c says which, and why). */
#ifndef Q7_EMU_CONFINE_H
#define Q7_EMU_CONFINE_H

#include <stddef.h>
#include <sys/types.h>

#include "proc.h"

struct q7_err;

/* q7_proc_spawn(argv, o), the child confined: it may read and run files
 * beneath the system folders and readable (NULL-terminated: QEMU's
 * folder, the boot program's, the session's), open /dev/null, write
 * the files in writable (NULL or NULL-terminated; each must exist: a
 * profile's log), and write, make or remove nothing else. readable NULL:
 * not confined. The pid, or -1 with err saying what failed, Landlock's
 * absence included. */
pid_t q7_emu_spawn_confined(char *const *argv, const struct q7_proc_opts *o,
                            const char *const *readable, const char *const *writable,
                            struct q7_err *err);

#endif
