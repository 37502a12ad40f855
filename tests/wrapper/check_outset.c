/* Unit tests of wrapper/outset: a link's outputs replaced as a whole or
 * removed as a whole, the lock between two links of one output, the
 * leftovers of a killed link, and an -o that is a FIFO. Each test runs in
 * its own folder (Check forks a process per test). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outset.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

static char test_dir[64];

static void enter_fresh_dir(void)
{
	snprintf(test_dir, sizeof test_dir, "/tmp/q7outset.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(test_dir));
	ck_assert_int_eq(chdir(test_dir), 0);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st, (void)type, (void)f;
	return remove(path);
}

/* The test's folder goes once the test passed. */
static void leave_dir(void)
{
	ck_assert_int_eq(chdir("/"), 0);
	ck_assert_int_eq(nftw(test_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void put_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The file's text, or "" when it is missing. Caller frees. */
static char *text_of(const char *path)
{
	size_t n;
	char *s = q7_read_file(path, &n);
	return s ? s : q7_xstrdup("");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names, sorted, space-separated. Caller frees. */
static char *joined(struct q7_strvec *v)
{
	if (v->n)
		qsort(v->v, v->n, sizeof *v->v, cmp_str);
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	for (size_t i = 0; i < v->n; i++)
		q7_sb_addf(&b, "%s%s", i ? " " : "", v->v[i]);
	return q7_sb_take(&b);
}

/* The folder's entries, hidden ones too. Caller frees. */
static char *listing(void)
{
	struct q7_strvec v = {0};
	DIR *dp = opendir(".");
	struct dirent *e;
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			q7_sv_add(&v, e->d_name);
	closedir(dp);
	char *s = joined(&v);
	q7_sv_free(&v);
	return s;
}

/* The names a link of libk.so writes, in link.c's order: each image with
 * its twins, then the manifest (multicore). */
static void set_names(bool multi, struct q7_strvec *images, struct q7_strvec *twins)
{
	for (int i = 0; i < (multi ? 8 : 1); i++) {
		char *stem = multi ? q7_xasprintf("libk_cpu%d", i) : q7_xstrdup("libk");
		q7_sv_addf(images, "%s.so", stem);
		q7_sv_addf(twins, "%s.stripped.so", stem);
		q7_sv_addf(twins, "%s.packed.so", stem);
		free(stem);
	}
	if (multi)
		q7_sv_add(images, "libk.so");
}

enum how { COMMIT, FAIL, BLOCKED };

static const struct {
	const char *name;
	bool multi, debug;
	enum how how;
} set_cases[] = {
	{"single, committed", false, false, COMMIT},
	{"multicore, committed", true, false, COMMIT},
	{"single -g, committed: the old twins go", false, true, COMMIT},
	{"multicore -g, committed: the old twins go", true, true, COMMIT},
	{"single, failed: the old set goes too", false, false, FAIL},
	{"multicore, failed: the old set goes too", true, false, FAIL},
	{"multicore -g, failed", true, true, FAIL},
	{"single, a member is a FIFO: nothing moves", false, false, BLOCKED},
	{"multicore, a member is a FIFO: nothing moves", true, false, BLOCKED},
};

START_TEST(test_set_whole_or_nothing)
{
	bool multi = set_cases[_i].multi, debug = set_cases[_i].debug;
	enum how how = set_cases[_i].how;
	enter_fresh_dir();
	struct q7_strvec images = {0}, twins = {0};
	set_names(multi, &images, &twins);
	/* The previous build's set, and a bystander. */
	for (size_t i = 0; i < images.n; i++)
		put_text(images.v[i], "old");
	for (size_t i = 0; i < twins.n; i++)
		put_text(twins.v[i], "old");
	put_text("other.txt", "keep");
	const char *fifo = twins.v[twins.n - 1];
	if (how == BLOCKED) {
		unlink(fifo);
		ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	}

	struct q7_drv d = {0};
	struct q7_outset s;
	ck_assert_int_eq(q7_outset_open(&s, &d, "libk.so"), 0);
	for (size_t i = 0; i < images.n; i++)
		put_text(q7_outset_add(&s, images.v[i]), "new");
	for (size_t i = 0; i < twins.n; i++) {
		if (debug)
			q7_outset_drop(&s, twins.v[i]);
		else
			put_text(q7_outset_add(&s, twins.v[i]), "new");
	}
	if (how == COMMIT) {
		ck_assert_int_eq(q7_outset_commit(&s), 0);
	} else if (how == BLOCKED) {
		ck_assert_int_eq(q7_outset_commit(&s), Q7_EXIT_IO);
		char *head = text_of("libk.so");
		ck_assert_str_eq(head, "old"); /* checked before anything moved */
		free(head);
	}
	q7_outset_close(&s);

	struct q7_strvec want = {0};
	q7_sv_add(&want, "other.txt");
	if (how == COMMIT) {
		q7_sv_addv(&want, &images);
		if (!debug)
			q7_sv_addv(&want, &twins);
	} else if (how == BLOCKED) {
		q7_sv_add(&want, fifo); /* a FIFO is never removed */
	}
	char *want_list = joined(&want), *got = listing();
	ck_assert_msg(strcmp(got, want_list) == 0, "%s:\n got: %s\nwant: %s", set_cases[_i].name,
	              got, want_list);
	for (size_t i = 0; how == COMMIT && i < want.n; i++) {
		char *t = text_of(want.v[i]);
		ck_assert_msg(strcmp(t, strcmp(want.v[i], "other.txt") ? "new" : "keep") == 0,
		              "%s: %s holds '%s'", set_cases[_i].name, want.v[i], t);
		free(t);
	}
	free(got);
	free(want_list);
	q7_sv_free(&want);
	q7_sv_free(&images);
	q7_sv_free(&twins);
	leave_dir();
}
END_TEST

/* The lock file and a staging folder: a link holds the lock. */
static bool staging_exists(void)
{
	char *l = listing();
	int n = 0;
	for (const char *p = l; (p = strstr(p, ".libk.so.")); p++)
		n++;
	free(l);
	return n >= 2;
}

static void nap_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

/* Whether a process waits for the flock on path: /proc/locks lists a
 * lock's waiters after it, marked "->", by device:inode. */
static bool someone_waits(const char *path)
{
	struct stat st;
	FILE *f = fopen("/proc/locks", "r");
	if (!f || stat(path, &st) != 0) {
		if (f)
			fclose(f);
		return false;
	}
	char ino[32], line[256];
	snprintf(ino, sizeof ino, ":%lu ", (unsigned long)st.st_ino);
	bool waits = false;
	while (!waits && fgets(line, sizeof line, f))
		waits = strstr(line, "->") && strstr(line, ino);
	fclose(f);
	return waits;
}

/* A second link of the same output waits for the first to finish and
 * then finds its set whole: the first finishes only once the second is
 * seen waiting for the lock. */
START_TEST(test_second_link_waits)
{
	enter_fresh_dir();
	struct q7_drv d = {0};
	pid_t pid = q7_proc_fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct q7_outset s;
		if (q7_outset_open(&s, &d, "libk.so") != 0)
			_exit(1);
		put_text(q7_outset_add(&s, "libk.so"), "first");
		put_text(q7_outset_add(&s, "libk.packed.so"), "first");
		for (int i = 0; i < 5000 && !someone_waits(".libk.so.lock"); i++)
			nap_ms(1);
		int rc = q7_outset_commit(&s);
		q7_outset_close(&s);
		_exit(rc);
	}
	for (int i = 0; i < 500 && !staging_exists(); i++)
		nap_ms(10);
	ck_assert_msg(staging_exists(), "the first link never took the lock");
	struct q7_outset s;
	ck_assert_int_eq(q7_outset_open(&s, &d, "libk.so"), 0);
	/* Only now: the first link has put its whole set in place. */
	char *head = text_of("libk.so"), *twin = text_of("libk.packed.so");
	ck_assert_str_eq(head, "first");
	ck_assert_str_eq(twin, "first");
	free(head);
	free(twin);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	put_text(q7_outset_add(&s, "libk.so"), "second");
	put_text(q7_outset_add(&s, "libk.packed.so"), "second");
	ck_assert_int_eq(q7_outset_commit(&s), 0);
	q7_outset_close(&s);
	char *l = listing();
	ck_assert_str_eq(l, "libk.packed.so libk.so");
	free(l);
	head = text_of("libk.so");
	ck_assert_str_eq(head, "second");
	free(head);
	leave_dir();
}
END_TEST

/* What a killed link leaves (its lock file, its staging folder) neither
 * blocks the next link nor stays after it; look-alikes stay. */
START_TEST(test_leftovers_of_a_killed_link)
{
	enter_fresh_dir();
	put_text(".libk.so.lock", "");
	ck_assert_int_eq(mkdir(".libk.so.Ab3dE9", 0700), 0);
	put_text(".libk.so.Ab3dE9/libk.so", "half");
	ck_assert_int_eq(mkdir(".libk.so.not-ours", 0700), 0);
	put_text(".libk.so.Zz9999", "a file, not a folder");
	ck_assert_int_eq(mkdir(".libq.so.Ab3dE9", 0700), 0); /* another output's */
	struct q7_drv d = {0};
	struct q7_outset s;
	ck_assert_int_eq(q7_outset_open(&s, &d, "libk.so"), 0);
	put_text(q7_outset_add(&s, "libk.so"), "new");
	ck_assert_int_eq(q7_outset_commit(&s), 0);
	q7_outset_close(&s);
	char *l = listing();
	ck_assert_str_eq(l, ".libk.so.Zz9999 .libk.so.not-ours .libq.so.Ab3dE9 libk.so");
	free(l);
	leave_dir();
}
END_TEST

/* -o a FIFO: the head is written into it, nothing is renamed over it and
 * no other output appears beside it. */
START_TEST(test_fifo_head_written_into)
{
	enter_fresh_dir();
	ck_assert_int_eq(mkfifo("pipe", 0644), 0);
	pid_t reader = q7_proc_fork();
	ck_assert_int_ge(reader, 0);
	if (reader == 0) {
		size_t n;
		char *s = q7_read_file("pipe", &n);
		FILE *f = fopen("got", "w");
		_exit(s && f && fwrite(s, 1, n, f) == n && fclose(f) == 0 ? 0 : 1);
	}
	struct q7_drv d = {0};
	struct q7_outset s;
	ck_assert_int_eq(q7_outset_open(&s, &d, "pipe"), 0);
	put_text(q7_outset_add(&s, "pipe"), "the image");
	put_text(q7_outset_add(&s, "pipe.packed.so"), "packed");
	ck_assert_int_eq(q7_outset_commit(&s), 0);
	q7_outset_close(&s);
	ck_assert_int_eq(q7_proc_wait(reader, NULL), 0);
	struct stat st;
	ck_assert_int_eq(lstat("pipe", &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	char *got = text_of("got"), *l = listing();
	ck_assert_str_eq(got, "the image");
	ck_assert_str_eq(l, "got pipe");
	free(got);
	free(l);
	leave_dir();
}
END_TEST

START_TEST(test_head_is_a_folder)
{
	enter_fresh_dir();
	ck_assert_int_eq(mkdir("libk.so", 0755), 0);
	struct q7_drv d = {0};
	struct q7_outset s;
	ck_assert_int_eq(q7_outset_open(&s, &d, "libk.so"), Q7_EXIT_IO);
	q7_outset_close(&s);
	char *l = listing();
	ck_assert_str_eq(l, "libk.so");
	free(l);
	leave_dir();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wrapper_outset");
	TCase *t = tcase_create("outset");
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, test_set_whole_or_nothing, 0,
	                    (int)(sizeof set_cases / sizeof set_cases[0]));
	tcase_add_test(t, test_second_link_waits);
	tcase_add_test(t, test_leftovers_of_a_killed_link);
	tcase_add_test(t, test_fifo_head_written_into);
	tcase_add_test(t, test_head_is_a_folder);
	suite_add_tcase(s, t);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
