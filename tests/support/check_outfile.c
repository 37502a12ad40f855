/* Unit tests of the output side of support/tempfile: what an output path
 * names (q7_output_kind, q7_output_removable), devices and FIFOs written
 * into and never replaced, directories refused, a full device and a file
 * size limit reported with nothing left, links followed, and two outputs
 * committed together or not at all (docs/robustness.md). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"
#include "tempfile.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/q7outfile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Removes dir and what is in it (one level, as the tests make it). */
static void remove_dir(void)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	for (struct dirent *e; (e = readdir(d));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = q7_path_join(dir, e->d_name);
		if (unlink(p) != 0) {
			char *inner = q7_path_join(p, "x");
			unlink(inner);
			free(inner);
			ck_assert_int_eq(rmdir(p), 0);
		}
		free(p);
	}
	closedir(d);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* The names in dir, sorted, joined by spaces: what a test left. */
static char *listing(void)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	struct q7_strbuf b = {0};
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
			q7_sb_addf(&b, "%s%s", b.len ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return q7_sb_take(&b);
}

static char *in_dir(const char *name)
{
	return q7_path_join(dir, name);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void ck_contents(const char *path, const char *want)
{
	size_t n;
	char *got = q7_read_file(path, &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(got);
}

static void ck_listing(const char *want)
{
	char *got = listing();
	ck_assert_str_eq(got, want);
	free(got);
}

/* What each kind of path is taken for, and whether a failed step may
 * remove it. */
static const struct {
	const char *name; /* made in dir by setup_kind */
	enum q7_output_kind kind;
	bool removable;
} kinds[] = {
	{"missing", Q7_OUTPUT_NEW, true},
	{"file", Q7_OUTPUT_FILE, true},
	{"dir", Q7_OUTPUT_DIR, false},
	{"fifo", Q7_OUTPUT_STREAM, false},
	{"link-to-null", Q7_OUTPUT_STREAM, false}, /* "-o /dev/stdout" on a tty */
	{"link-to-file", Q7_OUTPUT_FILE, true},
	{"dangling-link", Q7_OUTPUT_NEW, false},
	{"/dev/null", Q7_OUTPUT_STREAM, false},
};

static char *setup_kind(const char *name)
{
	if (name[0] == '/')
		return q7_xstrdup(name);
	char *p = in_dir(name), *file = in_dir("file");
	if (strcmp(name, "file") == 0)
		put(p, "old");
	else if (strcmp(name, "dir") == 0)
		ck_assert_int_eq(mkdir(p, 0755), 0);
	else if (strcmp(name, "fifo") == 0)
		ck_assert_int_eq(mkfifo(p, 0644), 0);
	else if (strcmp(name, "link-to-null") == 0)
		ck_assert_int_eq(symlink("/dev/null", p), 0);
	else if (strcmp(name, "link-to-file") == 0) {
		put(file, "old");
		ck_assert_int_eq(symlink("file", p), 0);
	} else if (strcmp(name, "dangling-link") == 0)
		ck_assert_int_eq(symlink("nowhere", p), 0);
	free(file);
	return p;
}

START_TEST(output_kinds)
{
	make_dir();
	char *p = setup_kind(kinds[_i].name);
	ck_assert_msg(q7_output_kind(p) == kinds[_i].kind, "%s: kind %d", kinds[_i].name,
	              (int)q7_output_kind(p));
	ck_assert_msg(q7_output_removable(p) == kinds[_i].removable, "%s: removable",
	              kinds[_i].name);
	free(p);
	remove_dir();
}
END_TEST

/* Written into, and still what it was: a device named directly, through
 * a link, and (as root) a device node made like the "mknod n c 1
 * 3"; the link stays a link. */
START_TEST(device_is_written_into)
{
	make_dir();
	char *node = in_dir("n"), *link = in_dir("l");
	ck_assert_int_eq(symlink("/dev/null", link), 0);
	bool root = geteuid() == 0;
	if (root)
		ck_assert_int_eq(mknod(node, S_IFCHR | 0644, makedev(1, 3)), 0);
	const char *targets[] = {"/dev/null", link, root ? node : NULL};
	for (size_t i = 0; i < 3 && targets[i]; i++) {
		struct q7_outfile o;
		ck_assert_int_eq(q7_outfile_open(&o, targets[i]), 0);
		ck_assert_ptr_null(o.tmp);
		fputs("bytes", o.f);
		ck_assert_int_eq(q7_outfile_commit(&o, 0644), 0);
		struct stat st;
		ck_assert_int_eq(stat(targets[i], &st), 0);
		ck_assert_msg(S_ISCHR(st.st_mode), "%s is no longer a device", targets[i]);
	}
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_listing(root ? "l n" : "l");
	free(node);
	free(link);
	remove_dir();
}
END_TEST

START_TEST(fifo_is_written_into)
{
	make_dir();
	char *fifo = in_dir("f");
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	/* The reader first, so that opening the writing end does not wait. */
	int rd = open(fifo, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	struct q7_outfile o;
	ck_assert_int_eq(q7_outfile_open(&o, fifo), 0);
	fputs("half", o.f);
	char buf[32];
	/* Nothing before the commit: the writer is there, no bytes yet. */
	ck_assert_int_eq(read(rd, buf, sizeof buf), -1);
	ck_assert_int_eq(errno, EAGAIN);
	fputs(" and whole", o.f);
	ck_assert_int_eq(q7_outfile_commit(&o, 0644), 0);
	ssize_t n = read(rd, buf, sizeof buf - 1);
	ck_assert_int_eq(n, 14);
	buf[n] = 0;
	ck_assert_str_eq(buf, "half and whole");
	close(rd);
	struct stat st;
	ck_assert_int_eq(stat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_listing("f");
	free(fifo);
	remove_dir();
}
END_TEST

START_TEST(full_device_reports_enospc)
{
	struct q7_outfile o;
	ck_assert_int_eq(q7_outfile_open(&o, "/dev/full"), 0);
	fputs("bytes", o.f);
	errno = 0;
	ck_assert_int_eq(q7_outfile_commit(&o, 0644), -1);
	ck_assert_int_eq(errno, ENOSPC);
	/* The one-call form says which step failed. */
	const char *what;
	ck_assert_int_eq(q7_outfile_write("/dev/full", "x", 1, 0644, &what), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_str_eq(what, "cannot write");
}
END_TEST

START_TEST(directory_is_refused)
{
	make_dir();
	struct q7_outfile o;
	ck_assert_int_eq(q7_outfile_open(&o, dir), -1);
	ck_assert_int_eq(errno, EISDIR);
	const char *what;
	ck_assert_int_eq(q7_outfile_write(dir, "x", 1, 0644, &what), -1);
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_str_eq(what, "cannot create");
	ck_listing("");
	remove_dir();
}
END_TEST

/* "-o /dev/stdout" redirected to a file: the file is replaced, the link
 * (in /dev, as root) never is. */
START_TEST(link_to_a_file_replaces_the_file)
{
	make_dir();
	char *link = setup_kind("link-to-file"), *file = in_dir("file");
	const char *what;
	ck_assert_int_eq(q7_outfile_write(link, "new", 3, 0644, &what), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_contents(file, "new");
	ck_listing("file link-to-file");
	free(link);
	free(file);
	remove_dir();
}
END_TEST

/* Past a file size limit, with SIGXFSZ ignored as q7cc's main does: the
 * write fails with EFBIG, and the temporary goes. */
START_TEST(file_size_limit_reports_efbig)
{
	make_dir();
	char *target = in_dir("big");
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = {4096, 4096};
		setrlimit(RLIMIT_FSIZE, &rl);
		static char block[65536];
		const char *what;
		int rc = q7_outfile_write(target, block, sizeof block, 0644, &what);
		_exit(rc == -1 && errno == EFBIG && strcmp(what, "cannot write") == 0 ? 0 : 1);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
	ck_listing("");
	free(target);
	remove_dir();
}
END_TEST

/* Two outputs together (a stripped and a packed image): both appear, or,
 * when the second cannot be put in place, the first is put back as it
 * was. */
START_TEST(commit_all_is_all_or_nothing)
{
	make_dir();
	char *a = in_dir("a"), *b = in_dir("b"), *bx = in_dir("b/x");
	for (int existed = 0; existed < 2; existed++) {
		if (existed)
			put(a, "old a");
		struct q7_outfile oa, ob;
		ck_assert_int_eq(q7_outfile_open(&oa, a), 0);
		ck_assert_int_eq(q7_outfile_open(&ob, b), 0);
		fputs("new a", oa.f);
		fputs("new b", ob.f);
		/* b turns into a directory that is not empty: its rename fails. */
		ck_assert_int_eq(mkdir(b, 0755), 0);
		put(bx, "");
		struct q7_outfile *both[] = {&oa, &ob};
		unsigned modes[] = {0644, 0644};
		size_t failed = 9;
		ck_assert_int_eq(q7_outfile_commit_all(both, modes, 2, &failed), -1);
		ck_assert_uint_eq(failed, 1);
		if (existed)
			ck_contents(a, "old a");
		ck_listing(existed ? "a b" : "b");
		unlink(bx);
		rmdir(b);
	}
	/* And both, when nothing is in the way. */
	struct q7_outfile oa, ob;
	ck_assert_int_eq(q7_outfile_open(&oa, a), 0);
	ck_assert_int_eq(q7_outfile_open(&ob, b), 0);
	fputs("new a", oa.f);
	fputs("new b", ob.f);
	struct q7_outfile *both[] = {&oa, &ob};
	unsigned modes[] = {0755, 0600};
	ck_assert_int_eq(q7_outfile_commit_all(both, modes, 2, NULL), 0);
	ck_contents(a, "new a");
	ck_contents(b, "new b");
	ck_listing("a b");
	free(a);
	free(b);
	free(bx);
	remove_dir();
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, output_kinds, 0, sizeof kinds / sizeof kinds[0]);
	tcase_add_test(tc, device_is_written_into);
	tcase_add_test(tc, fifo_is_written_into);
	tcase_add_test(tc, full_device_reports_enospc);
	tcase_add_test(tc, directory_is_refused);
	tcase_add_test(tc, link_to_a_file_replaces_the_file);
	tcase_add_test(tc, file_size_limit_reports_efbig);
	tcase_add_test(tc, commit_all_is_all_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(outfile_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
