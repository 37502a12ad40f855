/* Paths, file reading, and where q7cc's own files are. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	const char *p = path_env;
	for (;;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *dir = n ? q7_xstrndup(p, n) : q7_xstrdup(".");
		char *cand = q7_path_join(dir, name);
		free(dir);
		if (q7_path_is_executable(cand))
			return cand;
		free(cand);
		if (!end)
			return NULL;
		p = end + 1;
	}
}

char *q7_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct q7_strbuf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		q7_sb_addn(&b, chunk, n);
	int err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err) {
		q7_sb_free(&b);
		errno = err;
		return NULL;
	}
	if (len)
		*len = b.len;
	return q7_sb_take(&b);
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
	if (!S_ISREG(st.st_mode)) {
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

char *q7_read_upto(int fd, size_t max, size_t *len, bool *more)
{
	char *buf = q7_xmalloc(max + 2);
	size_t n = 0;
	while (n < max + 1) {
		ssize_t r = read(fd, buf + n, max + 1 - n);
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
	*len = n > max ? max : n;
	buf[*len] = 0;
	return buf;
}

static char *self_exe;
static char *prefix;
static const char *self_argv0;

void q7_set_self_argv0(const char *argv0)
{
	self_argv0 = argv0;
}

/* argv[0] as a file: itself when it holds a '/', else the first PATH
 * entry that has it (as execvp found it); NULL when neither names one. */
static char *argv0_file(const char *argv0)
{
	if (!argv0 || !*argv0)
		return NULL;
	if (strchr(argv0, '/'))
		return realpath(argv0, NULL);
	const char *path = getenv("PATH");
	for (const char *p = path ? path : ""; p && *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *dir = n ? q7_xstrndup(p, n) : q7_xstrdup(".");
		char *cand = q7_path_join(dir, argv0);
		free(dir);
		char *real = access(cand, X_OK) == 0 ? realpath(cand, NULL) : NULL;
		free(cand);
		if (real)
			return real;
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

char *q7_doc_path(const char *page)
{
	char *rel = q7_xasprintf("share/doc/q7cc/%s", page);
	char *path = q7_prefix_path(rel);
	free(rel);
	return path;
}

const char *q7_self_exe(void)
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
			self_exe = q7_xstrdup(real);
			free(real);
		}
	}
	return self_exe;
}

const char *q7_prefix(void)
{
	if (!prefix) {
		const char *env = getenv("Q7CC_PREFIX");
		if (env && *env) {
			prefix = q7_xstrdup(env);
		} else {
			/* <prefix>/<bindir>/q7cc: one level up per component of
			 * the bindir. */
			prefix = q7_path_dirname(q7_self_exe());
			for (const char *c = Q7CC_BINDIR; c && *c; c = strchr(c, '/')) {
				while (*c == '/')
					c++;
				if (!*c)
					break;
				char *up = q7_path_dirname(prefix);
				free(prefix);
				prefix = up;
			}
		}
	}
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
