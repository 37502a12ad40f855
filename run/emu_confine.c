/* run/emu_confine: QEMU started without the host's files, under a
 * Landlock ruleset (what it may read, and why): docs/emulated.md, "The
 * emulated machine". The boot program needs its descriptors (3, 4, 1, 2):
 * Landlock checks opens, not reads and writes, so they stay usable.
 *
 * Landlock binds the thread that asks and what it starts afterwards, so
 * a thread of our own asks, starts QEMU and ends: the process itself is
 * not confined. */
#include "emu_confine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "support.h"

/* The rights of each ABI version (bits as linux/landlock.h numbers them;
 * Debian 12's headers stop at version 3). */
#define FS_V1 ((1ull << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define FS_REFER (1ull << 13)    /* version 2 */
#define FS_TRUNCATE (1ull << 14) /* version 3 */
#define FS_IOCTL_DEV (1ull << 15) /* version 5 */
#define RIGHT_EXECUTE (1ull << 0)
#define RIGHT_WRITE_FILE (1ull << 1)
#define RIGHT_READ_FILE (1ull << 2)
#define RIGHT_READ_DIR (1ull << 3)

struct start {
	char *const *argv;
	const struct q7_proc_opts *o;
	const char *const *readable; /* NULL-terminated */
	const char *const *writable; /* NULL-terminated: files, there already */
	pid_t pid;
	struct q7_err *err;
};

static uint64_t handled_rights(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (v < 1)
		return 0;
	uint64_t r = FS_V1;
	if (v >= 2)
		r |= FS_REFER;
	if (v >= 3)
		r |= FS_TRUNCATE;
	if (v >= 5)
		r |= FS_IOCTL_DEV;
	return r;
}

/* Allows rights beneath path (a file or a folder); a path that is not
 * there is skipped (no /lib64 here). false on another failure. */
static bool allow(int ruleset, const char *path, uint64_t rights)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR;
	struct stat st;
	if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
		rights &= RIGHT_EXECUTE | RIGHT_WRITE_FILE | RIGHT_READ_FILE | FS_TRUNCATE;
	struct landlock_path_beneath_attr pb = {.allowed_access = rights, .parent_fd = fd};
	long rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	int e = errno;
	close(fd);
	errno = e;
	return rc == 0;
}

static void *confine_and_start(void *arg)
{
	struct start *s = arg;
	uint64_t rights = handled_rights();
	if (!rights) {
		q7_err_set(s->err, NULL,
		           "this kernel has no Landlock (%s), which keeps the emulated core from the "
		           "host's files; Q7CC_SEMIHOSTING_FILES=1 (q7-run --semihosting-files) runs it "
		           "without that",
		           strerror(errno));
		return NULL;
	}
	struct landlock_ruleset_attr ra = {.handled_access_fs = rights};
	int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
	uint64_t read = RIGHT_READ_FILE | RIGHT_READ_DIR | RIGHT_EXECUTE;
	bool ok = rs >= 0 && allow(rs, "/dev/null", RIGHT_READ_FILE | RIGHT_WRITE_FILE);
	for (const char *const *p = s->readable; ok && *p; p++)
		ok = allow(rs, *p, read);
	/* A profile's block log (-D): QEMU opens it with fopen "w". */
	uint64_t write = (RIGHT_READ_FILE | RIGHT_WRITE_FILE | FS_TRUNCATE) & rights;
	for (const char *const *p = s->writable; ok && p && *p; p++)
		ok = allow(rs, *p, write);
	/* Binds this thread alone, and what it starts. */
	ok = ok && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
	     syscall(SYS_landlock_restrict_self, rs, 0) == 0;
	if (!ok)
		q7_err_set(s->err, NULL, "cannot keep the emulated core from the host's files "
		           "(Landlock: %s)", strerror(errno));
	else if ((s->pid = q7_proc_spawn(s->argv, s->o)) < 0)
		q7_err_set(s->err, NULL, "cannot start %s: %s", s->argv[0], strerror(errno));
	if (rs >= 0)
		close(rs);
	return NULL;
}

pid_t q7_emu_spawn_confined(char *const *argv, const struct q7_proc_opts *o,
                            const char *const *readable, const char *const *writable,
                            struct q7_err *err)
{
	struct start s = {.argv = argv, .o = o, .readable = readable, .writable = writable,
	                  .pid = -1, .err = err};
	pthread_t t;
	int e = readable ? pthread_create(&t, NULL, confine_and_start, &s) : 0;
	if (e != 0)
		q7_err_set(err, NULL, "cannot start %s: %s", argv[0], strerror(e));
	else if (readable)
		pthread_join(t, NULL);
	else if ((s.pid = q7_proc_spawn(argv, o)) < 0)
		q7_err_set(err, NULL, "cannot start %s: %s", argv[0], strerror(errno));
	return s.pid;
}
