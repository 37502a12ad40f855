/* Temporary files: one list, walked at exit and from signal handlers. The
 * list is a fixed array whose count is published after each entry is
 * complete, so a handler sees only whole paths.
 *
 * Outputs: what a path names decides how it is written (q7_output_kind;
 * docs/robustness.md, "Outputs, for every tool"). */
#include "fdio.h"
#include "tempfile.h"
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_TEMPS 512

static char *temps[MAX_TEMPS];
static volatile sig_atomic_t ntemps;
static char *tempdir;
static char *tooldir; /* swept: its entries are removed whatever their names */

bool q7_save_temps(void)
{
	const char *s = getenv("Q7CC_SAVE_TEMPS");
	return s && *s && strcmp(s, "0") != 0;
}

void q7_temp_register(const char *path)
{
	static bool hooked;
	if (!hooked) {
		atexit(q7_temp_cleanup);
		hooked = true;
	}
	/* Reuse a slot freed by q7_temp_forget, so that a long-lived process
	 * (the fuzzer, many packs) never runs out. A pointer store is atomic
	 * for the signal handler: it sees the old NULL or the whole path. */
	for (int i = 0; i < ntemps; i++) {
		if (!temps[i]) {
			temps[i] = q7_xstrdup(path);
			return;
		}
	}
	if (ntemps >= MAX_TEMPS)
		q7_fatal(Q7_EXIT_INTERNAL, "too many temporary files");
	temps[ntemps] = q7_xstrdup(path);
	ntemps = ntemps + 1;
}

void q7_temp_forget(const char *path)
{
	for (int i = ntemps - 1; i >= 0; i--) {
		if (temps[i] && strcmp(temps[i], path) == 0) {
			char *p = temps[i];
			temps[i] = NULL;
			free(p);
			return;
		}
	}
}

/* A temporary directory's lock: held (flock) by the process that made
 * the directory, and by the processes it forks, for as long as any of
 * them lives; the kernel lets go of it however they end. */
#define OWNER_LOCK ".owner.lock"
#define STALE_AFTER 60 /* seconds untouched before a directory is judged */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* The q7cc.XXXXXX directories in base that a process killed outright
 * (SIGKILL, a crash, the machine's end) left: ours (same user), untouched
 * for a minute (never one just made, whose maker may not have locked it
 * yet), with an owner lock that nobody holds. One without the lock file
 * is not judged: kept by Q7CC_SAVE_TEMPS, or not made this way. */
static void sweep_stale(const char *base)
{
	DIR *dp = opendir(base);
	struct dirent *e;
	time_t now = time(NULL);
	while (dp && (e = readdir(dp))) {
		if (strncmp(e->d_name, "q7cc.", 5) != 0 || strlen(e->d_name) != 11)
			continue;
		char *dir = q7_path_join(base, e->d_name);
		char *lock = q7_path_join(dir, OWNER_LOCK);
		struct stat st;
		int fd = -1;
		if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
		    now - st.st_mtime > STALE_AFTER)
			fd = open(lock, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		/* Only a lock file q7cc made is judged: a FIFO planted there
		 * would block open without O_NONBLOCK, and a device or another
		 * user's file proves nothing. */
		if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
			close(fd);
			fd = -1;
		}
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		if (fd >= 0)
			close(fd);
		free(lock);
		free(dir);
	}
	if (dp)
		closedir(dp);
}

/* The base of the directory made (its sweep waits for q7_temp_sweep). */
static char *sweep_base;

void q7_temp_sweep(void)
{
	if (!sweep_base)
		return;
	sweep_stale(sweep_base);
	free(sweep_base);
	sweep_base = NULL;
}

const char *q7_temp_dir(void)
{
	if (tempdir)
		return tempdir;
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	/* Swept later (q7_temp_sweep), not before the first tool starts:
	 * reading a /tmp of a few hundred entries cost a compile about 0.5 ms
	 * before its compiler ran. */
	sweep_base = q7_xstrdup(base);
	char *tmpl = q7_xasprintf("%s/q7cc.XXXXXX", base);
	if (!mkdtemp(tmpl))
		q7_fatal(Q7_EXIT_IO, "cannot create a temporary directory in %s: %s", base,
		         strerror(errno));
	q7_temp_register(tmpl);
	tempdir = tmpl;
	if (!q7_save_temps()) {
		/* Held until this process and its forks end (never closed). */
		char *lock = q7_path_join(tmpl, OWNER_LOCK);
		int fd = open(lock, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 && flock(fd, LOCK_EX) == 0) {
			q7_temp_register(lock);
		} else if (fd >= 0) {
			/* No flock here: no lock file, so never judged stale. */
			close(fd);
			unlink(lock);
		}
		free(lock);
	}
	return tempdir;
}

const char *q7_temp_tool_dir(void)
{
	if (tooldir)
		return tooldir;
	char *p = q7_path_join(q7_temp_dir(), "tools");
	if (mkdir(p, 0700) != 0 && errno != EEXIST)
		q7_fatal(Q7_EXIT_IO, "cannot create a temporary directory %s: %s", p, strerror(errno));
	q7_temp_register(p);
	tooldir = p;
	return tooldir;
}

/* Removes what the tools left in dir, and empty folders there (one
 * level): open, getdents64 and unlinkat, so a signal handler may call
 * it (readdir may allocate). */
static void sweep(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[4096] __attribute__((aligned(8)));
	long n;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			const char *name = buf + off + 19;
			if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
			    unlinkat(fd, name, 0) != 0)
				unlinkat(fd, name, AT_REMOVEDIR);
			off += reclen;
		}
	}
	close(fd);
}

/* Files first, then directories (the temporary directory), whatever the
 * slots' order: only unlink and rmdir, so a signal handler may call it. */
static void remove_all(void)
{
	if (tooldir)
		sweep(tooldir);
	for (int i = ntemps - 1; i >= 0; i--)
		if (temps[i])
			unlink(temps[i]);
	for (int i = ntemps - 1; i >= 0; i--)
		if (temps[i])
			rmdir(temps[i]);
}

void q7_temp_cleanup(void)
{
	q7_temp_sweep(); /* when no tool ran */
	bool keep = q7_save_temps();
	if (keep && tempdir)
		q7_note("temporary files kept in %s", tempdir);
	if (!keep)
		remove_all();
	for (int i = ntemps - 1; i >= 0; i--) {
		free(temps[i]);
		temps[i] = NULL;
	}
	ntemps = 0;
}

void q7_temp_cleanup_from_signal(void)
{
	if (!q7_save_temps())
		remove_all();
}

enum q7_output_kind q7_output_kind(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return Q7_OUTPUT_NEW;
	if (S_ISREG(st.st_mode))
		return Q7_OUTPUT_FILE;
	return S_ISDIR(st.st_mode) ? Q7_OUTPUT_DIR : Q7_OUTPUT_STREAM;
}

bool q7_output_removable(const char *path)
{
	struct stat st;
	return lstat(path, &st) != 0 || q7_output_kind(path) == Q7_OUTPUT_FILE;
}

void q7_output_remove(const char *path)
{
	if (q7_output_removable(path))
		unlink(path);
}

void q7_output_track(const char *path)
{
	if (q7_output_removable(path))
		q7_temp_register(path);
}

bool q7_output_is_file(const char *path)
{
	return q7_output_kind(path) == Q7_OUTPUT_FILE;
}

/* A stream target: opened now (so a device that cannot be written is
 * known before any work), filled at commit from an anonymous file. */
static int open_stream(struct q7_outfile *o, const char *target)
{
	int fd = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	int mfd = memfd_create("q7-output", MFD_CLOEXEC);
	FILE *f = mfd >= 0 ? fdopen(mfd, "w+b") : NULL;
	if (!f) {
		int e = errno;
		if (mfd >= 0)
			close(mfd);
		close(fd);
		errno = e;
		return -1;
	}
	o->f = f;
	o->stream_fd = fd;
	o->target = q7_xstrdup(target);
	return 0;
}

int q7_outfile_open(struct q7_outfile *o, const char *target)
{
	memset(o, 0, sizeof *o);
	o->stream_fd = -1;
	switch (q7_output_kind(target)) {
	case Q7_OUTPUT_DIR:
		errno = EISDIR;
		return -1;
	case Q7_OUTPUT_STREAM:
		return open_stream(o, target);
	case Q7_OUTPUT_FILE:
		o->replace = true;
		break;
	case Q7_OUTPUT_NEW:
		break;
	}
	/* Through a link, the file it names is replaced, as a compiler's
	 * output would be written through it ("-o /dev/stdout" redirected
	 * to a file replaces that file, never the link in /dev). */
	struct stat st;
	char *real = o->replace && lstat(target, &st) == 0 && S_ISLNK(st.st_mode)
	                     ? realpath(target, NULL)
	                     : NULL;
	const char *path = real ? real : target;
	char *dir = q7_path_dirname(path);
	char *tmp = q7_xasprintf("%s/.%s.XXXXXX", dir, q7_path_basename(path));
	free(dir);
	int fd = mkstemp(tmp);
	if (fd >= 0)
		q7_temp_register(tmp);
	o->f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
	if (!o->f) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
			q7_temp_forget(tmp);
		}
		free(tmp);
		free(real);
		errno = e;
		return -1;
	}
	o->target = real ? real : q7_xstrdup(target);
	o->tmp = tmp;
	return 0;
}

/* Writes all of fd's bytes to out. 0, or -1 with errno set. */
static int copy_all(int fd, int out)
{
	char buf[65536];
	off_t at = 0;
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof buf, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		at += n;
		if (q7_write_all(out, buf, (size_t)n, -1) != 0)
			return -1;
	}
}

/* Completes the temporary (or the anonymous file): flushed, its mode set,
 * closed. 0, or -1 with errno set (the first failure's). */
static int finish(struct q7_outfile *o, unsigned mode)
{
	int e = 0;
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && o->stream_fd >= 0 && copy_all(fileno(o->f), o->stream_fd) != 0)
		e = errno;
	if (o->stream_fd >= 0 && close(o->stream_fd) != 0 && !e && errno != EINTR)
		e = errno;
	mode_t mask = umask(0);
	umask(mask);
	if (!e && o->stream_fd < 0 && fchmod(fileno(o->f), (mode_t)mode & ~mask) != 0)
		e = errno;
	o->stream_fd = -1;
	if (fclose(o->f) != 0 && !e)
		e = errno;
	o->f = NULL;
	errno = e;
	return e ? -1 : 0;
}

/* How an output's rename went, so that it can be undone. */
enum placed { NOT_YET, CREATED, EXCHANGED, REPLACED };

static int place(struct q7_outfile *o, enum placed *how)
{
	/* Exchanged, the old file waits under the temporary's name until
	 * every output is in place, so a later failure can put it back. */
	if (o->replace && renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target, RENAME_EXCHANGE) == 0) {
		*how = EXCHANGED;
		return 0;
	}
	if (rename(o->tmp, o->target) != 0)
		return -1;
	*how = o->replace ? REPLACED : CREATED;
	return 0;
}

void q7_outfile_abort(struct q7_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->target && o->stream_fd >= 0)
		close(o->stream_fd);
	if (o->tmp) {
		unlink(o->tmp);
		q7_temp_forget(o->tmp);
	}
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof *o);
	o->stream_fd = -1;
}

int q7_outfile_commit_all(struct q7_outfile *const *o, const unsigned *mode, size_t n,
                          size_t *failed)
{
	enum placed stack[8], *how = n <= 8 ? stack : q7_xcalloc(n, sizeof *how);
	int rc = 0, e = 0;
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		how[i] = NOT_YET;
	/* Regular ones first: a stream, once written, cannot be taken back. */
	for (int streams = 0; streams < 2 && rc == 0; streams++)
		for (size_t i = 0; i < n && rc == 0; i++)
			if ((o[i]->stream_fd >= 0) == streams && finish(o[i], mode[i]) != 0) {
				rc = -1;
				e = errno;
				bad = i;
			}
	for (size_t i = 0; i < n && rc == 0; i++)
		if (o[i]->tmp && place(o[i], &how[i]) != 0) {
			rc = -1;
			e = errno;
			bad = i;
		}
	for (size_t i = n; i-- > 0;) {
		if (rc != 0 && how[i] == EXCHANGED)
			renameat2(AT_FDCWD, o[i]->tmp, AT_FDCWD, o[i]->target, RENAME_EXCHANGE);
		else if (rc != 0 && how[i] == CREATED)
			unlink(o[i]->target);
		else if (how[i] == CREATED || how[i] == REPLACED) {
			q7_temp_forget(o[i]->tmp);
			free(o[i]->tmp);
			o[i]->tmp = NULL; /* it is the target now */
		}
		q7_outfile_abort(o[i]);
	}
	if (how != stack)
		free(how);
	if (failed)
		*failed = bad;
	errno = e;
	return rc;
}

int q7_outfile_commit(struct q7_outfile *o, unsigned mode)
{
	return q7_outfile_commit_all(&o, &mode, 1, NULL);
}

int q7_outfile_write(const char *path, const void *buf, size_t len, unsigned mode,
                     const char **what)
{
	struct q7_outfile o;
	*what = "cannot create";
	if (q7_outfile_open(&o, path) != 0)
		return -1;
	*what = "cannot write";
	if (fwrite(buf, 1, len, o.f) != len) {
		int e = errno;
		q7_outfile_abort(&o);
		errno = e;
		return -1;
	}
	return q7_outfile_commit(&o, mode);
}
