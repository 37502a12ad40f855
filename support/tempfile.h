/* Temporary files and whole-or-nothing outputs.
 *
 * Owns: the process-wide list of temporary paths, safe to walk from a signal
 * handler (q7_temp_cleanup_from_signal), and output files written to a
 * temporary beside the target and renamed into place when complete.
 * Q7CC_SAVE_TEMPS=1 keeps temporaries (and says where they are). */
#ifndef Q7_TEMPFILE_H
#define Q7_TEMPFILE_H

#include <stdbool.h>
#include <stdio.h>

/* A private directory for this process's intermediates (wrapper.cpp, ...),
 * created on first use under $TMPDIR, removed at exit. */
const char *q7_temp_dir(void);
/* Registers an existing path for removal at exit or on a signal. */
void q7_temp_register(const char *path);
/* Stops tracking path (it was renamed into place or is wanted). */
void q7_temp_forget(const char *path);
/* Removes every registered path now, unless Q7CC_SAVE_TEMPS is set. */
void q7_temp_cleanup(void);
/* Async-signal-safe variant for handlers: only unlink/rmdir. */
void q7_temp_cleanup_from_signal(void);
bool q7_save_temps(void);

/* An output file that appears whole or not at all. */
struct q7_outfile {
	char *target; /* final path */
	char *tmp;    /* ".<name>.XXXXXX" beside it */
	FILE *f;      /* open for writing, binary */
};
/* Returns 0, or -1 with errno set (nothing created). */
int q7_outfile_open(struct q7_outfile *o, const char *target);
/* Flushes, sets mode (masked by umask), renames over target. 0, or -1 with
 * errno set: then the temporary is removed and target is untouched. */
int q7_outfile_commit(struct q7_outfile *o, unsigned mode);
/* Removes the temporary; target is untouched. Safe after commit. */
void q7_outfile_abort(struct q7_outfile *o);

#endif
