/* A link's outputs as one set: locked, staged beside -o, committed by
 * renames with -o last, or removed as a whole (outset.h). */
#include "outset.h"
#include "fdio.h"
#include "tempfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* "<folder of head>/.<name of head><suffix>": beside head, hidden. */
static char *beside(const char *head, const char *suffix)
{
	const char *name = q7_path_basename(head);
	return q7_xasprintf("%.*s.%s%s", (int)(name - head), head, name, suffix);
}

/* The holder removes the lock file as it releases it (outset.h), so a
 * lock is ours only while the path still names the file we locked; else
 * the file was removed under us and we lock the next one. Best effort: a
 * file system without flock links unlocked (-v says so), and whatever
 * stops the staging directory too is reported there. */
static void take_lock(struct q7_outset *s)
{
	char *path = beside(s->head, ".lock");
	const char *why = NULL;
	for (;;) {
		int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0) {
			why = strerror(errno);
			break;
		}
		int rc = flock(fd, LOCK_EX | LOCK_NB);
		if (rc != 0 && errno == EWOULDBLOCK) {
			q7_step_note(s->d, "waiting for another link of %s", s->head);
			while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
				;
		}
		if (rc != 0) {
			why = strerror(errno);
			close(fd);
			break;
		}
		struct stat held, now;
		if (fstat(fd, &held) == 0 && lstat(path, &now) == 0 && held.st_dev == now.st_dev &&
		    held.st_ino == now.st_ino) {
			s->lock = path;
			s->lock_fd = fd;
			return;
		}
		close(fd);
	}
	q7_step_note(s->d, "%s: cannot lock: %s; linking without the lock", path, why);
	free(path);
}

/* The staging folder and whatever is in it (ours alone: a tool may have
 * left a file we did not name). */
static void remove_staging(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	while (dp && (e = readdir(dp))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = q7_path_join(dir, e->d_name);
		unlink(p);
		q7_temp_forget(p);
		free(p);
	}
	if (dp)
		closedir(dp);
	rmdir(dir);
	q7_temp_forget(dir);
}

/* True for ".<name>.XXXXXX" as mkdtemp makes it beside head. */
static bool staging_name(const char *entry, const char *name)
{
	static const char alnum[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n = strlen(name);
	return entry[0] == '.' && strncmp(entry + 1, name, n) == 0 && entry[n + 1] == '.' &&
	       strlen(entry + n + 2) == 6 && strspn(entry + n + 2, alnum) == 6;
}

/* Staging folders of links killed outright (SIGKILL, a crash): every
 * live link of head holds the lock while its folder exists, so with the
 * lock held any such folder is a leftover. */
static void sweep_leftovers(const struct q7_outset *s)
{
	char *dir = q7_path_dirname(s->head);
	DIR *dp = opendir(dir);
	struct dirent *e;
	while (dp && (e = readdir(dp))) {
		if (!staging_name(e->d_name, q7_path_basename(s->head)))
			continue;
		char *p = q7_path_join(dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			remove_staging(p);
		free(p);
	}
	if (dp)
		closedir(dp);
	free(dir);
}

static int make_staging(struct q7_outset *s)
{
	if (s->into) {
		s->dir = q7_path_join(q7_temp_dir(), "outputs");
		if (mkdir(s->dir, 0700) != 0) {
			q7_error("%s: cannot create: %s", s->dir, strerror(errno));
			return Q7_EXIT_IO;
		}
	} else {
		s->dir = beside(s->head, ".XXXXXX");
		if (!mkdtemp(s->dir)) {
			q7_error("%s: cannot create the folder for the link's outputs beside it: %s",
			         s->head, strerror(errno));
			return Q7_EXIT_IO;
		}
	}
	q7_temp_register(s->dir);
	return 0;
}

/* True when following head's links passes through /proc: /dev/stdout,
 * /dev/fd/N, /proc/self/fd/N name a descriptor, not a place. */
static bool in_proc(const char *path)
{
	char *dir = q7_path_dirname(path);
	char *real = realpath(dir, NULL);
	bool proc = strncmp(path, "/proc/", 6) == 0 || (real && strncmp(real, "/proc/", 6) == 0);
	free(real);
	free(dir);
	return proc;
}

static bool via_proc(const char *head)
{
	char *p = q7_xstrdup(head);
	bool proc = in_proc(p);
	struct stat l;
	for (int hops = 0; !proc && hops < 40 && lstat(p, &l) == 0 && S_ISLNK(l.st_mode); hops++) {
		char to[4096];
		ssize_t n = readlink(p, to, sizeof to - 1);
		if (n <= 0)
			break;
		to[n] = 0;
		char *dir = q7_path_dirname(p);
		char *next = to[0] == '/' ? q7_xstrdup(to) : q7_path_join(dir, to);
		free(dir);
		free(p);
		p = next;
		proc = in_proc(p);
	}
	free(p);
	return proc;
}

/* -o through links (docs/driver.md, "Links"); a link whose file cannot be
 * named again (realpath fails, or names another file) is written into as
 * one through /proc is. st: stat(head). */
static char *through_links(const char *head, const struct stat *st, bool *into)
{
	struct stat l;
	if (lstat(head, &l) != 0 || !S_ISLNK(l.st_mode) || !S_ISREG(st->st_mode))
		return q7_xstrdup(head);
	char *real = via_proc(head) ? NULL : realpath(head, NULL);
	struct stat r;
	if (real && stat(real, &r) == 0 && r.st_dev == st->st_dev && r.st_ino == st->st_ino)
		return real;
	free(real);
	*into = true;
	return q7_xstrdup(head);
}

int q7_outset_open(struct q7_outset *s, const struct q7_drv *d, const char *head)
{
	*s = (struct q7_outset){.d = d, .lock_fd = -1};
	struct stat st;
	bool exists = stat(head, &st) == 0;
	s->head = exists ? through_links(head, &st, &s->into) : q7_xstrdup(head);
	if (exists && S_ISDIR(st.st_mode)) {
		q7_error("%s: cannot write: %s", head, strerror(EISDIR));
		return Q7_EXIT_IO;
	}
	s->into = s->into || (exists && !S_ISREG(st.st_mode));
	if (d->dry) {
		s->dir = s->into ? q7_drv_temp_path(d, "outputs") : beside(head, ".XXXXXX");
		return 0;
	}
	if (!s->into)
		take_lock(s);
	if (s->lock)
		sweep_leftovers(s);
	return make_staging(s);
}

const char *q7_outset_add(struct q7_outset *s, const char *final)
{
	char *staged = q7_path_join(s->dir, q7_path_basename(final));
	q7_sv_add(&s->final, final);
	q7_sv_add(&s->staged, staged);
	free(staged);
	if (!s->d->dry) {
		q7_temp_register(s->staged.v[s->staged.n - 1]);
		if (!s->into)
			q7_output_track(final);
	}
	return s->staged.v[s->staged.n - 1];
}

void q7_outset_drop(struct q7_outset *s, const char *final)
{
	if (s->into)
		return; /* nothing beside a device is touched */
	q7_sv_add(&s->dropped, final);
	if (!s->d->dry)
		q7_output_track(final);
}

/* Copies the staged head into the device or FIFO -o names. */
static int write_into(const char *from, const char *to)
{
	size_t len;
	char *bytes = q7_read_file(from, &len);
	int out = bytes ? open(to, O_WRONLY | O_CLOEXEC | O_NOCTTY) : -1;
	const char *bad = bytes ? to : from;
	/* A regular file reached only through its link (outset.c,
	 * through_links) holds the image alone. */
	struct stat st;
	bool ok = out >= 0 && (fstat(out, &st) != 0 || !S_ISREG(st.st_mode) || ftruncate(out, 0) == 0) &&
	          q7_write_all(out, bytes, len, -1) == 0;
	int e = errno;
	if (out >= 0 && close(out) != 0 && ok) {
		e = errno;
		ok = false;
	}
	if (!ok)
		q7_error("%s: cannot write: %s", bad, strerror(e));
	free(bytes);
	return ok ? 0 : Q7_EXIT_IO;
}

/* A member over which no rename may go: a device, FIFO or directory that
 * happens to bear a member's name. Checked before anything moves. */
static int check_members(const struct q7_outset *s)
{
	for (size_t i = 0; i < s->final.n; i++) {
		/* A dangling link is replaced (through_links). */
		struct stat st;
		bool dangling = lstat(s->final.v[i], &st) == 0 && S_ISLNK(st.st_mode) &&
		                stat(s->final.v[i], &st) != 0 && errno == ENOENT;
		if (!dangling && !q7_output_removable(s->final.v[i])) {
			q7_error("%s: not a regular file: the outputs of %s are not put in place",
			         s->final.v[i], s->head);
			return Q7_EXIT_IO;
		}
	}
	return 0;
}

static int put(const char *staged, const char *final)
{
	if (rename(staged, final) != 0) {
		q7_error("%s: cannot put in place: %s", final, strerror(errno));
		return Q7_EXIT_IO;
	}
	q7_temp_forget(staged);
	return 0;
}

int q7_outset_commit(struct q7_outset *s)
{
	const struct q7_drv *d = s->d;
	size_t h = 0; /* the head's member */
	while (h < s->final.n && strcmp(s->final.v[h], s->head) != 0)
		h++;
	if (h == s->final.n)
		return Q7_EXIT_INTERNAL;
	if (s->into) {
		if (!q7_step_do(d, "write %s into %s (no other output is kept)", s->staged.v[h],
		                s->head))
			return 0;
		return write_into(s->staged.v[h], s->head);
	}
	bool go = s->final.n == 1
	                  ? q7_step_do(d, "commit %s from %s", s->head, s->dir)
	                  : q7_step_do(d, "commit %s and %zu more file%s from %s", s->head,
	                               s->final.n - 1, s->final.n == 2 ? "" : "s", s->dir);
	if (!go)
		return 0;
	int rc = check_members(s);
	if (rc)
		return rc;
	/* No -o while the members move: an -o that exists heads a whole set. */
	q7_output_remove(s->head);
	for (size_t i = 0; i < s->final.n && rc == 0; i++)
		if (i != h)
			rc = put(s->staged.v[i], s->final.v[i]);
	for (size_t i = 0; i < s->dropped.n && rc == 0; i++)
		q7_output_remove(s->dropped.v[i]);
	if (rc == 0)
		rc = put(s->staged.v[h], s->head);
	if (rc)
		return rc;
	for (size_t i = 0; i < s->final.n; i++)
		q7_temp_forget(s->final.v[i]);
	for (size_t i = 0; i < s->dropped.n; i++)
		q7_temp_forget(s->dropped.v[i]);
	s->committed = true;
	return 0;
}

static void remove_all(struct q7_strvec *paths)
{
	for (size_t i = 0; i < paths->n; i++) {
		q7_output_remove(paths->v[i]);
		q7_temp_forget(paths->v[i]);
	}
}

void q7_outset_close(struct q7_outset *s)
{
	if (!s->d->dry && s->dir) {
		for (size_t i = 0; i < s->staged.n; i++)
			q7_temp_forget(s->staged.v[i]);
		if (q7_save_temps() && !s->committed)
			q7_note("the link's outputs kept in %s", s->dir);
		else
			remove_staging(s->dir);
		if (!s->committed && !s->into) {
			remove_all(&s->final);
			remove_all(&s->dropped);
		}
	}
	/* Released only now: the next link's set is never hit by this one's
	 * removals. */
	if (s->lock) {
		unlink(s->lock);
		close(s->lock_fd);
	}
	free(s->lock);
	free(s->head);
	free(s->dir);
	q7_sv_free(&s->final);
	q7_sv_free(&s->staged);
	q7_sv_free(&s->dropped);
	*s = (struct q7_outset){.lock_fd = -1};
}
