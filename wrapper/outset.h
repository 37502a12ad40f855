/* wrapper/outset: the files one link writes, replaced as a whole.
 *
 * A link's outputs are a set: the image named by -o with its stripped and
 * packed twins, or the eight per-core images, their twins and the
 * manifest named by -o. The set is
 * - locked: an flock on ".<name>.lock" beside -o, held from the start of
 *   the link to its end, so two links of one output (two `make -j` in one
 *   build folder) run one after the other, the second from scratch;
 * - staged: every member is written into a private directory beside -o
 *   (".<name>.XXXXXX", same file system), under its own name;
 * - committed: the old -o is removed, the members are renamed into place,
 *   -o last. So an -o that exists names a complete set: make and CMake,
 *   which look at -o only, never take a half-written set for up to date.
 * A link that fails or is interrupted (signal) after taking the lock
 * leaves none of the set, the previous build's members included (as ld
 * removes its output when a link fails); one stopped while it waits for
 * the lock leaves everything as it was. The lock file is removed when
 * the lock is released. A link killed outright (SIGKILL, a crash) may
 * leave the lock file and its staging folder, and one stopped by a
 * signal the lock file: the lock file holds nothing (flock ends with the
 * process), and the next link of the same -o removes both.
 *
 * An -o that is a device or a FIFO (/dev/null) is written into, never
 * replaced: the members are staged in q7cc's temporary directory, -o gets
 * the image (or the manifest) and the rest is discarded.
 *
 * An -o that is a link to a regular file is written through, as ld
 * writes through one: the set is the named file's (head below is that
 * file, the twins and per-core images beside it) and the link stays a
 * link. A link through /proc (-o /dev/stdout redirected to a file) names
 * a descriptor: written into as a FIFO is, nothing beside it. A link to
 * a directory is refused; a dangling link is replaced.
 *
 * Under -### nothing is created: the staged paths are placeholders.
 * Memory: the set owns every path it returns (q7_outset_close frees). */
#ifndef Q7_OUTSET_H
#define Q7_OUTSET_H

#include <stdbool.h>

#include "modes.h"

struct q7_outset {
	const struct q7_drv *d;
	char *head;                 /* -o, through its links to a regular file */
	char *dir;                  /* the staging directory */
	char *lock;                 /* the lock file, while it is held */
	int lock_fd;
	bool into;                  /* -o is a device or FIFO: written into */
	bool committed;
	struct q7_strvec final;     /* members' final paths, in commit order */
	struct q7_strvec staged;    /* and where this link writes them */
	struct q7_strvec dropped;   /* old members this link does not write */
};

/* Takes the lock of head (waiting for another link of it; -v says so)
 * and makes the staging directory. 0, or an exit code after a message. */
int q7_outset_open(struct q7_outset *s, const struct q7_drv *d, const char *head);
/* A member of the set (head too): returns where to write it (owned by s).
 * From here on a failure removes final. */
const char *q7_outset_add(struct q7_outset *s, const char *final);
/* An old member this link does not write (a -g link's stripped and
 * packed twins): removed at the commit, or on failure. */
void q7_outset_drop(struct q7_outset *s, const char *final);
/* Puts the staged set in place: the old head goes first, then each
 * member, the head last. 0, or an exit code after a message (the set is
 * then removed by q7_outset_close). */
int q7_outset_commit(struct q7_outset *s);
/* Without a commit, removes the staged files and the whole set; then
 * releases the lock and frees s. */
void q7_outset_close(struct q7_outset *s);

#endif
