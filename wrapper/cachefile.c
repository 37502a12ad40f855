/* The cache folder and its entries (cachefile.h). */
#include "bytes.h"
#include "cachefile.h"
#include "fdio.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "\n#sum ", the key of the contents (q7_cache_key), then "\n". */
#define SUM_TAG "\n#sum "
#define SUM_LEN (sizeof SUM_TAG - 1 + 32 + 1)

void q7_cache_key(const void *buf, size_t len, char out[33])
{
	uint64_t h1 = q7_fnv1a64(Q7_FNV64_BASIS, buf, len);
	uint64_t h2 = q7_fnv1a64(0x6c62272e07bb0142ull, buf, len);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

static void sum_text(const void *buf, size_t len, char out[SUM_LEN + 1])
{
	char key[33];
	q7_cache_key(buf, len, key);
	snprintf(out, SUM_LEN + 1, "%s%s\n", SUM_TAG, key);
}

/* Others may write it: all users, or a group that is not the user's own
 * (a user private group, Debian's default with umask 002, is the user). */
static bool others_write(const struct stat *st)
{
	return (st->st_mode & 002) || ((st->st_mode & 020) && st->st_gid != getegid());
}

/* Why the folder path (st: its lstat) cannot hold the cache, or NULL.
 * leaf: the cache folder itself, else a folder above it. */
static const char *unsafe(const struct stat *st, bool leaf, char *why, size_t size)
{
	uid_t me = geteuid();
	if (!S_ISDIR(st->st_mode))
		return leaf ? "not a folder (a link?)" : NULL;
	if (st->st_uid != me && (leaf || st->st_uid != 0)) {
		snprintf(why, size, "owned by uid %u, not by you (uid %u)", (unsigned)st->st_uid,
		         (unsigned)me);
		return why;
	}
	if (others_write(st) && (leaf || !(st->st_mode & S_ISVTX))) {
		snprintf(why, size, "writable by others (mode %04o)", (unsigned)(st->st_mode & 07777));
		return why;
	}
	return NULL;
}

/* mkdir -p with mode 0700 for the folders it makes; errors are found by
 * the check that follows. */
static void mkdirs(const char *dir)
{
	char *d = q7_xstrdup(dir);
	for (char *s = d + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(d, 0700);
			*s = '/';
		}
	mkdir(d, 0700);
	free(d);
}

/* NULL when dir and every folder above it are safe; else the folder and
 * the reason, for the note. */
static char *check_tree(const char *dir)
{
	struct stat st;
	char why[96];
	const char *w;
	if (lstat(dir, &st) != 0)
		return NULL; /* cannot be made: silent, as an unwritable cache */
	if ((w = unsafe(&st, true, why, sizeof why)))
		return q7_xasprintf("%s: %s", dir, w);
	char *parent = q7_path_dirname(dir);
	char *real = realpath(parent, NULL);
	free(parent);
	char *msg = NULL;
	/* Up to "/", which is "" once its last '/' is cut. */
	for (char *slash; real && !msg; *slash = '\0') {
		const char *p = *real ? real : "/";
		if (lstat(p, &st) == 0 && (w = unsafe(&st, false, why, sizeof why)))
			msg = q7_xasprintf("%s: %s", p, w);
		if (!*real || !(slash = strrchr(real, '/')))
			break;
	}
	free(real);
	return msg;
}

char *q7_cache_dir(const char *sub)
{
	static bool noted;
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *root;
	if (xdg && *xdg == '/')
		root = q7_xasprintf("%s/q7cc", xdg);
	else if (home && *home == '/')
		root = q7_xasprintf("%s/.cache/q7cc", home);
	else
		return NULL;
	char *dir = *sub ? q7_path_join(root, sub) : q7_xstrdup(root);
	/* The folder below only in a cache found safe: nothing is made in
	 * another user's. */
	mkdirs(root);
	struct stat st;
	char why[96];
	const char *w;
	char *bad = check_tree(root);
	if (!bad && *sub)
		mkdir(dir, 0700);
	if (!bad && *sub && lstat(dir, &st) == 0 && (w = unsafe(&st, true, why, sizeof why)))
		bad = q7_xasprintf("%s: %s", dir, w);
	if (bad && !noted)
		q7_note("%s: not used as a cache: %s (make it yours and 0700, or set "
		        "XDG_CACHE_HOME to a folder of yours)", root, bad);
	noted |= bad != NULL;
	if (bad || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(dir);
		dir = NULL;
	}
	free(bad);
	free(root);
	return dir;
}

char *q7_cache_read(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	bool more = true;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !others_write(&st) && st.st_size >= (off_t)SUM_LEN && (uint64_t)st.st_size <= max + SUM_LEN)
		buf = q7_read_upto(fd, max + SUM_LEN, &n, &more);
	close(fd);
	char sum[SUM_LEN + 1];
	/* Grown past the bound, or shrunk below a checksum: a miss too. */
	if (buf && !more && n >= SUM_LEN) {
		n -= SUM_LEN;
		sum_text(buf, n, sum);
		if (memcmp(buf + n, sum, SUM_LEN) == 0) {
			buf[n] = '\0';
			if (len)
				*len = n;
			return buf;
		}
	}
	free(buf);
	return NULL;
}

int q7_cache_write(const char *path, const void *buf, size_t len)
{
	char *dir = q7_path_dirname(path);
	char *tmp = q7_xasprintf("%s/.entry.XXXXXX", dir);
	free(dir);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	q7_temp_register(tmp);
	char sum[SUM_LEN + 1];
	sum_text(buf, len, sum);
	int rc = q7_write_all(fd, buf, len, -1) == 0 && q7_write_all(fd, sum, SUM_LEN, -1) == 0 ? 0 : -1;
	if (close(fd) != 0)
		rc = -1;
	/* rename replaces a link at path; the file it named is untouched. */
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0)
		unlink(tmp);
	q7_temp_forget(tmp);
	free(tmp);
	return rc;
}
