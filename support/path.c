/* Paths, file reading, and where q7cc's own files are. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

char *q7_path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return q7_xstrdup(".");
	if (slash == path)
		return q7_xstrdup("/");
	return q7_xstrndup(path, (size_t)(slash - path));
}

const char *q7_path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

char *q7_path_join(const char *dir, const char *name)
{
	if (name[0] == '/' || !dir[0])
		return q7_xstrdup(name);
	size_t n = strlen(dir);
	return q7_xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

char *q7_path_strip_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	if (n > e && strcmp(path + n - e, ext) == 0)
		return q7_xstrndup(path, n - e);
	return q7_xstrdup(path);
}

bool q7_path_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

bool q7_path_is_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

char *q7_path_search(const char *name, const char *path_env)
{
	if (strchr(name, '/'))
		return q7_path_is_executable(name) ? q7_xstrdup(name) : NULL;
	if (!path_env)
		path_env = getenv("PATH");
	if (!path_env)
		path_env = "/usr/local/bin:/usr/bin:/bin";
	char *dirs = q7_xstrdup(path_env), *rest = dirs, *dir, *found = NULL;
	while (!found && (dir = strsep(&rest, ":"))) {
		found = q7_path_join(*dir ? dir : ".", name);
		if (!q7_path_is_executable(found)) {
			free(found);
			found = NULL;
		}
	}
	free(dirs);
	return found;
}

char *q7_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	bool more;
	char *text = fd < 0 ? NULL : q7_read_upto(fd, SIZE_MAX / 4, &n, &more);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (text && len)
		*len = n;
	errno = e;
	return text;
}

int q7_open_regular(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* /dev/null reads as an empty file: build systems probe compilers
	 * with "-E -dM -x c++ /dev/null". */
	bool null = S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
	if (!S_ISREG(st.st_mode) && !null) {
		*why = "not a regular file (a FIFO, a device or a folder)";
		close(fd);
		errno = EINVAL;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}


/* Reads fd to its end, or until it passes max: the buffer starts at the
 * size fstat gave (a file in /proc says 0 and has more) and grows only
 * while the file does. */
static char *read_bounded(int fd, size_t size, size_t max, size_t *len, bool *more)
{
	size_t cap = size < max ? size + 1 : max + 1, n = 0;
	char *buf = q7_xmalloc(cap + 1);
	for (;;) {
		if (n == cap && cap <= max) {
			cap = cap > max / 2 ? max + 1 : cap * 2;
			buf = q7_xrealloc(buf, cap + 1);
		}
		if (n == cap)
			break;
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*more = n > max;
	*len = n;
	buf[n] = 0;
	return buf;
}

char *q7_read_upto(int fd, size_t max, size_t *len, bool *more)
{
	struct stat st;
	bool sized = fstat(fd, &st) == 0 && st.st_size > 0 && (uintmax_t)st.st_size <= max;
	char *buf = read_bounded(fd, sized ? (size_t)st.st_size : 0, max, len, more);
	if (buf && *more) {
		*len = max;
		buf[max] = 0;
	}
	return buf;
}

char *q7_read_regular(const char *path, size_t max, size_t *len, const char **why)
{
	static __thread char over[64];
	int fd = q7_open_regular(path, why);
	if (fd < 0)
		return NULL;
	struct stat st;
	size_t n = 0;
	bool more = fstat(fd, &st) == 0 && (uintmax_t)st.st_size > (uintmax_t)max;
	char *text = more ? NULL : read_bounded(fd, (size_t)st.st_size, max, &n, &more);
	int err = errno;
	close(fd);
	if (!more && !text)
		*why = strerror(err);
	if (more) {
		free(text);
		text = NULL;
		snprintf(over, sizeof over, "larger than %zu bytes", max);
		*why = over;
		err = EFBIG;
	}
	if (text && len)
		*len = n;
	errno = err;
	return text;
}

static char *self_exe;
static char *prefix;
static const char *self_argv0;

void q7_set_self_argv0(const char *argv0)
{
	self_argv0 = argv0;
}

/* argv[0] as a file: itself when it holds a '/', else the first PATH
 * entry that has it (as execvp found it), resolved; NULL when neither
 * names an executable. */
static char *argv0_file(const char *argv0)
{
	char *found = argv0 ? q7_path_search(argv0, NULL) : NULL;
	char *real = found ? realpath(found, NULL) : NULL;
	free(found);
	return real;
}

char *q7_doc_path(const char *page)
{
	char *rel = q7_xasprintf("share/doc/q7cc/%s", page);
	char *path = q7_prefix_path(rel);
	free(rel);
	return path;
}

/* This process's executable. */
static const char *own_exe(void)
{
	if (!self_exe) {
		char buf[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
		if (n >= 0) {
			buf[n] = '\0';
			self_exe = q7_xstrdup(buf);
		} else {
			/* No /proc: a chroot such as icecream's remote compile
			 * (docs/driver.md, "icecream"). argv[0] names the link
			 * the compile was started by, and its target is q7cc. */
			int err = errno;
			char *real = argv0_file(self_argv0);
			if (!real)
				q7_fatal(Q7_EXIT_INTERNAL,
				         "cannot find my own executable: /proc/self/exe: %s, and argv[0] "
				         "('%s') names no file",
				         strerror(err), self_argv0 ? self_argv0 : "");
			self_exe = real;
		}
	}
	return self_exe;
}

/* The prefix of <prefix>/<bindir>/<exe>: one level up per component of
 * the bindir. */
static char *prefix_of(const char *exe)
{
	char *dir = q7_path_dirname(exe);
	for (const char *c = Q7CC_BINDIR; c && *c; c = strchr(c, '/')) {
		while (*c == '/')
			c++;
		if (!*c)
			break;
		char *up = q7_path_dirname(dir);
		free(dir);
		dir = up;
	}
	return dir;
}

/* dir holds q7cc's files (<libdir>/q7cc). */
static bool holds_q7cc(const char *dir)
{
	char *lib = q7_path_join(dir, Q7CC_LIBDIR "/q7cc");
	bool yes = q7_path_exists(lib);
	free(lib);
	return yes;
}

const char *q7_prefix(void)
{
	if (prefix)
		return prefix;
	const char *env = getenv("Q7CC_PREFIX");
	if (env && *env) {
		prefix = q7_xstrdup(env);
		return prefix;
	}
	prefix = prefix_of(own_exe());
	if (holds_q7cc(prefix))
		return prefix;
	/* A program of q7cc's own in <libdir>/q7cc (the analysis server) */
	char *dir = q7_path_dirname(own_exe());
	size_t n = strlen(dir), k = strlen("/" Q7CC_LIBDIR "/q7cc");
	if (n > k && strcmp(dir + n - k, "/" Q7CC_LIBDIR "/q7cc") == 0) {
		dir[n - k] = '\0';
		if (holds_q7cc(dir)) {
			free(prefix);
			prefix = dir;
			return prefix;
		}
	}
	free(dir);
	/* A program of the user's that links the session API
	 * (<libdir>/q7cc/libq7run.a) lives elsewhere: the prefix is then
	 * that of the q7cc on PATH, resolved through its links
	 * (docs/emulated.md, "The session API"). */
	char *found = q7_path_search("q7cc", NULL);
	char *real = found ? realpath(found, NULL) : NULL;
	char *other = real ? prefix_of(real) : NULL;
	if (other && holds_q7cc(other)) {
		free(prefix);
		prefix = other;
		other = NULL;
	}
	free(other);
	free(real);
	free(found);
	return prefix;
}

void q7_set_prefix(const char *dir)
{
	free(prefix);
	prefix = q7_xstrdup(dir);
}

/* The folders of the build's GNUInstallDirs (relative to the prefix), for
 * rel's first component as written in the default layout. */
static const struct {
	const char *as_written, *configured;
} layout[] = {
	{"lib/q7cc", Q7CC_LIBDIR "/q7cc"},
	{"share/q7cc", Q7CC_DATADIR "/q7cc"},
	{"share/doc/q7cc", Q7CC_DATADIR "/doc/q7cc"},
	{"include", Q7CC_INCLUDEDIR},
	{"bin", Q7CC_BINDIR},
};

char *q7_prefix_path(const char *rel)
{
	for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++) {
		size_t n = strlen(layout[i].as_written);
		if (strncmp(rel, layout[i].as_written, n) == 0 && (rel[n] == '/' || !rel[n])) {
			char *dir = q7_path_join(q7_prefix(), layout[i].configured);
			char *path = rel[n] ? q7_path_join(dir, rel + n + 1) : q7_xstrdup(dir);
			free(dir);
			return path;
		}
	}
	return q7_path_join(q7_prefix(), rel);
}
