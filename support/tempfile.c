/* Temporary files: one list, walked at exit and from signal handlers. The
 * list is a fixed array whose count is published after each entry is
 * complete, so a handler sees only whole paths. */
#include "tempfile.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TEMPS 512

static char *temps[MAX_TEMPS];
static volatile sig_atomic_t ntemps;
static char *tempdir;

bool q7_save_temps(void)
{
	const char *s = getenv("Q7CC_SAVE_TEMPS");
	return s && *s && strcmp(s, "0") != 0;
}

static void cleanup_at_exit(void)
{
	q7_temp_cleanup();
}

void q7_temp_register(const char *path)
{
	static bool hooked;
	if (!hooked) {
		atexit(cleanup_at_exit);
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

const char *q7_temp_dir(void)
{
	if (tempdir)
		return tempdir;
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char *tmpl = q7_xasprintf("%s/q7cc.XXXXXX", base);
	if (!mkdtemp(tmpl))
		q7_fatal(Q7_EXIT_IO, "cannot create a temporary directory in %s: %s", base,
		         strerror(errno));
	q7_temp_register(tmpl);
	tempdir = tmpl;
	return tempdir;
}

/* Files first, then directories (the temporary directory), whatever the
 * slots' order: only unlink and rmdir, so a signal handler may call it. */
static void remove_all(void)
{
	for (int i = ntemps - 1; i >= 0; i--)
		if (temps[i])
			unlink(temps[i]);
	for (int i = ntemps - 1; i >= 0; i--)
		if (temps[i])
			rmdir(temps[i]);
}

void q7_temp_cleanup(void)
{
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
	const char *s = getenv("Q7CC_SAVE_TEMPS");
	if (s && *s && strcmp(s, "0") != 0)
		return;
	remove_all();
}

int q7_outfile_open(struct q7_outfile *o, const char *target)
{
	memset(o, 0, sizeof *o);
	char *dir = q7_path_dirname(target);
	char *tmp = q7_xasprintf("%s/.%s.XXXXXX", dir, q7_path_basename(target));
	free(dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	q7_temp_register(tmp);
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		q7_temp_forget(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	o->target = q7_xstrdup(target);
	o->tmp = tmp;
	return 0;
}

int q7_outfile_commit(struct q7_outfile *o, unsigned mode)
{
	mode_t mask = umask(0);
	umask(mask);
	int rc = 0, e = 0;
	if (fflush(o->f) != 0 || ferror(o->f)) {
		rc = -1;
		e = errno ? errno : EIO;
	}
	if (rc == 0 && fchmod(fileno(o->f), (mode_t)mode & ~mask) != 0) {
		rc = -1;
		e = errno;
	}
	if (fclose(o->f) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	o->f = NULL;
	if (rc == 0 && rename(o->tmp, o->target) != 0) {
		rc = -1;
		e = errno;
	}
	if (rc != 0)
		unlink(o->tmp);
	q7_temp_forget(o->tmp);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	errno = e;
	return rc;
}

void q7_outfile_abort(struct q7_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		q7_temp_forget(o->tmp);
	}
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof *o);
}
