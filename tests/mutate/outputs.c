/* tests/mutate/outputs: the output side of the mutation harness (issue
 * 20): each tool that writes a file it is told to (q7-pkg-loadlib -o and
 * -s, q7-prelink -o, q7cc's link -o) is run, through its own main
 * function in a forked child with its own $TMPDIR, with -o mutated into
 * every kind of name a build may hand it:
 *   link_file   a link to a regular file: written through (the file gets
 *               the output, the link stays a link to it);
 *   link_dir    a link to a directory: refused (exit non-zero) naming
 *               -o, nothing written anywhere;
 *   dangling    a link to nothing: replaced by the output, its target
 *               never made;
 *   dev_null    /dev/null itself, and link_null a link to it: written
 *               into, still the device;
 *   device      a character device node of the test's own (mknod 1,3);
 *   fifo        a FIFO, and link_fifo a link to one, a reader draining
 *               it: written into (the reader gets bytes), still a FIFO.
 * For each: no signal, no hang (TIME_LIMIT), nothing beside -o or its
 * target that was not there, $TMPDIR empty afterwards.
 *
 *   mutate_outputs WORKDIR FK_SO FK_PACKED_SO HOST_OBJ
 *
 * FK_SO: a device image (q7-pkg-loadlib's input), FK_PACKED_SO: a packed
 * object (q7-prelink's), HOST_OBJ: a host object with op records (the
 * link's, --q7-toolchain=host). Needs root (mknod), as the suite has. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"
#include "pack.h"
#include "prelink.h"
#include "support.h"
#include "tempfile.h"

#define TIME_LIMIT 60

static const char *fk_so, *fk_packed, *host_obj;

/* The tools: argv with OUT where -o goes (NULL-ended). */
struct tool {
	const char *name;
	int (*main)(int, char **);
	const char *argv[12];
};

static const struct tool tools[] = {
	{"q7-pkg-loadlib -o", q7_pkg_loadlib_main, {"q7-pkg-loadlib", "-o", "OUT", "FK_SO", NULL}},
	{"q7-pkg-loadlib -s", q7_pkg_loadlib_main, {"q7-pkg-loadlib", "-s", "OUT", "FK_SO", NULL}},
	{"q7-prelink -o", q7_prelink_main, {"q7-prelink", "-o", "OUT", "FK_PACKED", NULL}},
	{"q7cc -shared -o", q7_driver_main,
	 {"q7cc", "--q7-toolchain=host", "-shared", "HOST_OBJ", "-o", "OUT", NULL}},
};

/* ---- the kinds of -o ---- */

enum kind { LINK_FILE, LINK_DIR, DANGLING, DEV_NULL, LINK_NULL, DEVICE, FIFO, LINK_FIFO, NKINDS };
static const char *const kind_names[NKINDS] = {"link_file", "link_dir", "dangling", "dev_null",
                                               "link_null", "device", "fifo", "link_fifo"};

/* Makes -o of kind k in the current (empty) folder: returns its path. */
static const char *make_out(enum kind k)
{
	int rc = 0;
	switch (k) {
	case LINK_FILE:
		mkdir("real", 0755);
		rc = symlink("real/libk.so", "libk.so");
		if (rc == 0) {
			FILE *f = fopen("real/libk.so", "w");
			rc = !f || fputs("old\n", f) < 0 || fclose(f) != 0;
		}
		return rc ? NULL : "libk.so";
	case LINK_DIR:
		return mkdir("real", 0755) || symlink("real", "libk.so") ? NULL : "libk.so";
	case DANGLING:
		return symlink("nowhere/libk.so", "libk.so") ? NULL : "libk.so";
	case DEV_NULL:
		return "/dev/null";
	case LINK_NULL:
		return symlink("/dev/null", "libk.so") ? NULL : "libk.so";
	case DEVICE:
		return mknod("libk.so", S_IFCHR | 0666, makedev(1, 3)) ? NULL : "libk.so";
	case FIFO:
		return mkfifo("libk.so", 0644) ? NULL : "libk.so";
	case LINK_FIFO:
		return mkfifo("pipe", 0644) || symlink("pipe", "libk.so") ? NULL : "libk.so";
	case NKINDS:
		break;
	}
	return NULL;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The names in dir (hidden ones too), sorted, space-separated; "" when
 * there is no dir. */
static char *listing(const char *dir)
{
	struct q7_strvec names = {0};
	DIR *dp = opendir(dir);
	for (struct dirent *e; dp && (e = readdir(dp));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			q7_sv_add(&names, e->d_name);
	if (dp)
		closedir(dp);
	if (names.n) /* qsort of a NULL vector is undefined */
		qsort(names.v, names.n, sizeof names.v[0], by_name);
	char *joined = q7_xstrdup("");
	for (size_t i = 0; i < names.n; i++) {
		char *j = q7_xasprintf("%s%s%s", joined, i ? " " : "", names.v[i]);
		free(joined);
		joined = j;
	}
	q7_sv_free(&names);
	return joined;
}

/* What is here besides the test's own files (err, tmp). */
static char *here(void)
{
	char *all = listing(".");
	struct q7_strbuf b = {0};
	for (char *w = strtok(all, " "); w; w = strtok(NULL, " "))
		if (strcmp(w, "err") != 0 && strcmp(w, "tmp") != 0 && strcmp(w, "got") != 0)
			q7_sb_addf(&b, "%s%s", b.s ? " " : "", w);
	free(all);
	return b.s ? b.s : q7_xstrdup("");
}

/* What should be here after a run of kind k (nothing beside -o). */
static const char *want_here(const struct tool *t, enum kind k, bool *ok_wanted)
{
	bool link = strcmp(t->argv[0], "q7cc") == 0;
	*ok_wanted = k != LINK_DIR;
	switch (k) {
	case LINK_FILE: /* the link's twins go beside the file it names */
		return "libk.so real";
	case LINK_DIR:
		return "libk.so real";
	case DANGLING:
		return link ? "libk.packed.so libk.so libk.stripped.so" : "libk.so";
	case DEV_NULL:
		return "";
	case LINK_NULL:
	case DEVICE:
	case FIFO:
		return "libk.so";
	case LINK_FIFO:
		return "libk.so pipe";
	case NKINDS:
		break;
	}
	return "";
}

static const char *want_real(const struct tool *t, enum kind k)
{
	if (k == LINK_DIR)
		return "";
	return strcmp(t->argv[0], "q7cc") == 0 ? "libk.packed.so libk.so libk.stripped.so" : "libk.so";
}

/* A reader of the FIFO at path (a child): its bytes into "got". */
static pid_t drain(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		int in = open(path, O_RDONLY);
		int out = open("got", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char buf[65536];
		ssize_t n;
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in >= 0 && out >= 0 ? 0 : 1);
	}
	return pid;
}

static int run_tool(const struct tool *t, const char *out)
{
	char *argv[16];
	int argc = 0;
	for (const char *const *a = t->argv; *a; a++) {
		const char *w = *a;
		if (strcmp(w, "OUT") == 0)
			w = out;
		else if (strcmp(w, "FK_SO") == 0)
			w = fk_so;
		else if (strcmp(w, "FK_PACKED") == 0)
			w = fk_packed;
		else if (strcmp(w, "HOST_OBJ") == 0)
			w = host_obj;
		argv[argc++] = (char *)w;
	}
	argv[argc] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* stdin and stdout the device, stderr into "err" */
		if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) ||
		    !freopen("err", "w", stderr))
			_exit(97);
		alarm(TIME_LIMIT);
		q7_set_progname(argv[0]);
		int rc = t->main(argc, argv);
		q7_temp_cleanup();
		fflush(NULL);
		_exit(rc);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* One tool, one kind, in dir: NULL, or what is wrong. */
static char *one(const struct tool *t, enum kind k)
{
	const char *out = make_out(k);
	if (!out)
		return q7_xasprintf("cannot make the output: %s", strerror(errno));
	struct stat before;
	stat(out, &before);
	pid_t reader = k == FIFO || k == LINK_FIFO ? drain(out) : 0;
	int st = run_tool(t, out);
	int rst = 0;
	if (reader > 0) {
		if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			kill(reader, SIGKILL); /* nobody will write: the FIFO stays open */
		waitpid(reader, &rst, 0);
	}
	size_t n = 0;
	char *err = q7_read_file("err", &n);
	bool ok_wanted;
	const char *want = want_here(t, k, &ok_wanted);
	char *got = here(), *real = listing("real"), *tmp = listing("tmp");
	char *why = NULL;
	struct stat now, l;
	bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (WIFSIGNALED(st))
		why = q7_xasprintf("killed by %s", strsignal(WTERMSIG(st)));
	else if (ok != ok_wanted)
		why = q7_xasprintf("exit %d", WEXITSTATUS(st));
	else if (!ok && !strstr(err ? err : "", out))
		why = q7_xasprintf("refused without naming %s", out);
	else if (strcmp(got, want) != 0)
		why = q7_xasprintf("here '%s', want '%s'", got, want);
	else if ((k == LINK_FILE || k == LINK_DIR) && strcmp(real, want_real(t, k)) != 0)
		why = q7_xasprintf("beside the link's target '%s', want '%s'", real, want_real(t, k));
	else if (tmp[0])
		why = q7_xasprintf("left '%s' in $TMPDIR", tmp);
	else if (k != DANGLING && k != DEV_NULL && (lstat(out, &l) != 0 || !S_ISLNK(l.st_mode)) &&
	         (k == LINK_FILE || k == LINK_DIR || k == LINK_NULL || k == LINK_FIFO))
		why = q7_xasprintf("the link %s was replaced", out);
	else if (k == LINK_FILE && (stat("real/libk.so", &now) != 0 || now.st_size <= 4))
		why = q7_xstrdup("the file the link names did not get the output");
	else if (k == DANGLING && (lstat(out, &l) != 0 || !S_ISREG(l.st_mode) || l.st_size == 0))
		why = q7_xstrdup("the dangling link was not replaced by the output");
	else if (k != LINK_FILE && k != LINK_DIR && k != DANGLING &&
	         (stat(out, &now) != 0 || (now.st_mode & S_IFMT) != (before.st_mode & S_IFMT)))
		why = q7_xasprintf("%s is no longer what it was", out);
	else if (reader > 0 && (!WIFEXITED(rst) || stat("got", &now) != 0 || now.st_size == 0))
		why = q7_xstrdup("the FIFO's reader got nothing");
	char *said = why && err && err[0] ? q7_xasprintf("%s\n    stderr: %.400s", why, err) : NULL;
	free(err);
	free(got);
	free(real);
	free(tmp);
	if (!said)
		return why;
	free(why);
	return said;
}

static void empty_dir(const char *dir)
{
	char *cmd = q7_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		exit(2);
	free(cmd);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: mutate_outputs WORKDIR FK_SO FK_PACKED_SO HOST_OBJ\n");
		return 2;
	}
	fk_so = realpath(argv[2], NULL);
	fk_packed = realpath(argv[3], NULL);
	host_obj = realpath(argv[4], NULL);
	if (!fk_so || !fk_packed || !host_obj) {
		fprintf(stderr, "mutate_outputs: a seed is missing\n");
		return 2;
	}
	empty_dir(argv[1]);
	if (mkdir(argv[1], 0755) != 0 || chdir(argv[1]) != 0)
		return 2;
	char *root = getcwd(NULL, 0);
	setenv("Q7CC_ANALYSIS_SERVER", "0", 1);
	unsigned failed = 0, ran = 0;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		for (int k = 0; k < NKINDS; k++) {
			char *dir = q7_xasprintf("%s/%zu_%s", root, i, kind_names[k]);
			if (mkdir(dir, 0755) != 0 || chdir(dir) != 0 || mkdir("tmp", 0755) != 0)
				return 2;
			char *tmp = q7_xasprintf("%s/tmp", dir);
			setenv("TMPDIR", tmp, 1);
			char *why = one(&tools[i], (enum kind)k);
			ran++;
			if (why) {
				failed++;
				printf("FAIL: %s, -o %s: %s\n", tools[i].name, kind_names[k], why);
				free(why);
			}
			if (chdir(root) != 0)
				return 2;
			free(tmp);
			free(dir);
		}
	}
	printf("%u of %u runs as they should be\n", ran - failed, ran);
	free(root);
	return failed ? 1 : 0;
}
