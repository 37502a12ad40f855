/* wrapper/outset: the files one link writes, replaced as a whole
 * (docs/driver.md, "Outputs", says what it guarantees and why).
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
