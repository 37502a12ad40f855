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
/* Removes the q7cc.XXXXXX directories that processes killed outright
 * left beside q7_temp_dir's (untouched for a minute, their owner lock
 * free), once per process: q7_step_wait calls it while the first tool
 * runs, q7_temp_cleanup when none did. */
void q7_temp_sweep(void);
/* A folder inside it for the tools q7cc runs (their TMPDIR: struct
 * q7_proc_opts.tmpdir): a tool stopped by a signal may leave its own
 * temporaries behind (GCC's collect2 its ccXXXXXX.res), and whatever is
 * in this folder is removed with it, at exit or on a signal. */
const char *q7_temp_tool_dir(void);
/* Registers an existing path for removal at exit or on a signal. */
void q7_temp_register(const char *path);
/* Stops tracking path (it was renamed into place or is wanted). */
void q7_temp_forget(const char *path);
/* Removes every registered path now, unless Q7CC_SAVE_TEMPS is set. */
void q7_temp_cleanup(void);
/* Async-signal-safe variant for handlers: only unlink/rmdir. */
void q7_temp_cleanup_from_signal(void);
/* For the tools that spawn nothing (q7-pkg-loadlib, q7-prelink, q7-run):
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (unless ignored) remove the
 * temporaries, then kill the process by the same signal. */
void q7_temp_cleanup_on_signals(void);
bool q7_save_temps(void);

/* What an output path names now. */
enum q7_output_kind {
	Q7_OUTPUT_NEW,    /* nothing (or a dangling link): created */
	Q7_OUTPUT_FILE,   /* a regular file, after links: replaced by a rename */
	Q7_OUTPUT_STREAM, /* a device, FIFO or socket ("-o /dev/null"): written into, never replaced */
	Q7_OUTPUT_DIR,    /* a directory: refused */
};
enum q7_output_kind q7_output_kind(const char *path);
/* Outputs a failed step removes: only regular files (after links) and
 * names not there yet; never a device, a FIFO, a directory, or a link to
 * one. track: removed at exit or on a signal unless q7_temp_forget'ed. */
bool q7_output_removable(const char *path);
void q7_output_remove(const char *path);
void q7_output_track(const char *path);
/* The path names a regular file (after links). */
bool q7_output_is_file(const char *path);

/* An output file that appears whole or not at all. The bytes go to f (a
 * temporary beside the target, or, for a stream target, an anonymous
 * file) and reach the target only at commit: by a rename over a regular
 * file (through a link, the file it names), by a copy into a device or a
 * FIFO, which are never replaced. A directory is refused (EISDIR). */
struct q7_outfile {
	char *target;  /* final path (a link resolved) */
	char *tmp;     /* ".<name>.XXXXXX" beside it; NULL for a stream */
	FILE *f;       /* open for writing, binary; a regular file (mmap, ftruncate work) */
	int stream_fd; /* the stream target, open for writing; -1 */
	bool replace;  /* the target was a regular file at open */
};
/* Returns 0, or -1 with errno set (nothing created). Opens a stream
 * target at once (a FIFO waits here for its reader). */
int q7_outfile_open(struct q7_outfile *o, const char *target);
/* Flushes, sets mode (masked by umask; not on a stream), renames over the
 * target or copies into it. 0, or -1 with errno set: then the temporary
 * is removed and a regular target is untouched. */
int q7_outfile_commit(struct q7_outfile *o, unsigned mode);
/* Commits n outputs together: all are completed first, then the streams
 * written, then the renames done; when any step fails, every regular
 * target is left (or put back) as it was and every temporary removed.
 * 0, or -1 with errno set and *failed (when non-NULL) the index of the
 * output that failed. */
int q7_outfile_commit_all(struct q7_outfile *const *o, const unsigned *mode, size_t n,
                          size_t *failed);
/* Removes the temporary; the target is untouched. Safe after commit. */
void q7_outfile_abort(struct q7_outfile *o);
/* Writes len bytes to path as one q7_outfile. 0, or -1 with errno set
 * and *what saying which step failed ("cannot create", "cannot write"). */
int q7_outfile_write(const char *path, const void *buf, size_t len, unsigned mode,
                     const char **what);

#endif
