/* Unit tests of support/: strings, shell quoting, paths, whole-or-nothing
 * output files. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "bytes.h"
#include "fdio.h"
#include "support.h"
#include "tempfile.h"

START_TEST(strbuf_grows_and_formats)
{
	struct q7_strbuf b = {0};
	for (int i = 0; i < 1000; i++)
		q7_sb_addf(&b, "%d,", i);
	ck_assert_uint_eq(b.len, strlen(b.s));
	ck_assert(strncmp(b.s, "0,1,2,", 6) == 0);
	ck_assert(strstr(b.s, ",999,") != NULL);
	char *s = q7_sb_take(&b);
	ck_assert_ptr_null(b.s);
	free(s);
}
END_TEST

/* What f, a temporary file stderr went to, holds (up to size - 1 bytes),
 * NUL-terminated; closes f. */
static void read_back(FILE *f, char *out, size_t size)
{
	rewind(f);
	out[fread(out, 1, size - 1, f)] = 0;
	fclose(f);
}

/* Q7_GROW keeps what the array held, doubles its capacity only when it
 * must (past need at once when need jumps), and leaves a large enough
 * array where it is. */
START_TEST(grow_keeps_and_doubles)
{
	int *v = NULL;
	size_t n = 0, cap = 0;
	for (int i = 0; i < 1000; i++) {
		Q7_GROW(v, cap, n + 1);
		v[n++] = i;
	}
	ck_assert_uint_eq(cap, 1024);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(v[i], (int)i);
	int *was = v;
	Q7_GROW(v, cap, 1024);
	ck_assert_ptr_eq(v, was);
	ck_assert_uint_eq(cap, 1024);
	Q7_GROW(v, cap, 5000);
	ck_assert_uint_eq(cap, 8192);
	ck_assert_int_eq(v[999], 999);
	free(v);
}
END_TEST

/* An array whose bytes would pass SIZE_MAX (the doubled capacity's, or
 * need's itself) is out of memory: q7cc says so and exits 70, before any
 * allocation is tried. */
static const struct {
	size_t need, size;
} grow_overflows[] = {
	{SIZE_MAX / 32, 64},
	{SIZE_MAX, 2},
};

START_TEST(grow_overflow_is_out_of_memory)
{
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fflush(stderr);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fileno(f), 2);
		size_t cap = 0;
		q7_xgrow(NULL, &cap, grow_overflows[_i].need, grow_overflows[_i].size);
		_exit(0);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == Q7_EXIT_INTERNAL);
	char out[256];
	read_back(f, out, sizeof out);
	ck_assert_str_eq(out, "q7cc: error: out of memory\n");
}
END_TEST

static const struct {
	const char *in, *out;
} quote_cases[] = {
	{"plain", "plain"},
	{"-I/usr/include", "-I/usr/include"},
	{"", "''"},
	{"a b", "'a b'"},
	{"it's", "'it'\\''s'"},
	{"$HOME", "'$HOME'"},
	{"x\"y", "'x\"y'"},
	{"-DX=\"1\"", "'-DX=\"1\"'"},
};

START_TEST(shell_quote_cases)
{
	struct q7_strbuf b = {0};
	q7_sb_add_shell_quoted(&b, quote_cases[_i].in);
	ck_assert_str_eq(b.s, quote_cases[_i].out);
	q7_sb_free(&b);
}
END_TEST

START_TEST(shell_join_round_trips_through_sh)
{
	char *argv[] = {"printf", "%s|", "a b", "it's", "$X", "`id`", NULL};
	char *line = q7_shell_join(argv);
	/* Feed the joined line to a real shell and compare what it prints. */
	char tmp[] = "/tmp/q7sh.XXXXXX";
	int fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct q7_strbuf sh = {0};
	q7_sb_addf(&sh, "%s > %s", line, tmp);
	FILE *p = popen("sh", "w");
	ck_assert_ptr_nonnull(p);
	fputs(sh.s, p);
	ck_assert_int_eq(pclose(p), 0);
	size_t n;
	char *got = q7_read_file(tmp, &n);
	ck_assert_str_eq(got, "a b|it's|$X|`id`|");
	unlink(tmp);
	free(got);
	free(line);
	q7_sb_free(&sh);
}
END_TEST

START_TEST(paths)
{
	char *d = q7_path_dirname("/a/b/c.so");
	ck_assert_str_eq(d, "/a/b");
	free(d);
	d = q7_path_dirname("c.so");
	ck_assert_str_eq(d, ".");
	free(d);
	ck_assert_str_eq(q7_path_basename("/a/b/c.so"), "c.so");
	char *j = q7_path_join("/a/", "b");
	ck_assert_str_eq(j, "/a/b");
	free(j);
	char *s = q7_path_strip_ext("dir x/libops.so", ".so");
	ck_assert_str_eq(s, "dir x/libops");
	free(s);
	char *sh = q7_path_search("sh", NULL);
	ck_assert_ptr_nonnull(sh);
	free(sh);
	ck_assert_ptr_null(q7_path_search("no-such-tool-q7", NULL));
}
END_TEST

START_TEST(read_regular_refuses_and_bounds)
{
	/* docs/robustness.md, "Special files": each refusal says why, before
	 * a byte is read (the FIFO has no writer: a blocking open would hang) */
	char *dir = q7_xstrdup(q7_temp_dir());
	char *fifo = q7_path_join(dir, "fifo"), *big = q7_path_join(dir, "big");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	const char *why;
	size_t n = 7;
	ck_assert_ptr_null(q7_read_regular(fifo, 100, &n, &why));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(why, "not a regular file (a FIFO, a device or a folder)");
	ck_assert_ptr_null(q7_read_regular("/dev/zero", 100, &n, &why));
	ck_assert_int_eq(errno, EINVAL);
	const char *what;
	ck_assert_int_eq(q7_outfile_write(big, "0123456789", 10, 0600, &what), 0);
	ck_assert_ptr_null(q7_read_regular(big, 9, &n, &why));
	ck_assert_int_eq(errno, EFBIG);
	ck_assert_str_eq(why, "larger than 9 bytes");
	char *text = q7_read_regular(big, 10, &n, &why);
	ck_assert(text && n == 10 && strcmp(text, "0123456789") == 0);
	free(text);
	/* /dev/null reads as empty; a file in /proc that says 0 bytes whole */
	text = q7_read_regular("/dev/null", 10, &n, &why);
	ck_assert(text && n == 0);
	free(text);
	text = q7_read_regular("/proc/self/status", 1 << 20, &n, &why);
	ck_assert(text && n > 0 && strstr(text, "Name:"));
	free(text);
	ck_assert_ptr_null(q7_read_regular("/proc/self/status", 8, &n, &why));
	ck_assert_int_eq(errno, EFBIG);
	unlink(fifo);
	unlink(big);
	free(fifo);
	free(big);
	free(dir);
}
END_TEST

START_TEST(outfile_commit_and_abort)
{
	char dir[] = "/tmp/q7out.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *target = q7_path_join(dir, "out file");
	struct q7_outfile o;
	ck_assert_int_eq(q7_outfile_open(&o, target), 0);
	fputs("half", o.f);
	ck_assert(!q7_path_exists(target));
	q7_outfile_abort(&o);
	ck_assert(!q7_path_exists(target));

	ck_assert_int_eq(q7_outfile_open(&o, target), 0);
	fputs("whole", o.f);
	ck_assert_int_eq(q7_outfile_commit(&o, 0644), 0);
	size_t n;
	char *got = q7_read_file(target, &n);
	ck_assert_str_eq(got, "whole");
	free(got);
	unlink(target);
	/* Only the target ever appeared in the directory. */
	ck_assert_int_eq(rmdir(dir), 0);
	free(target);
}
END_TEST

START_TEST(outfile_in_missing_dir_fails_cleanly)
{
	struct q7_outfile o;
	ck_assert_int_eq(q7_outfile_open(&o, "/nonexistent-q7/x.so"), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(temp_slots_are_reused)
{
	/* More outputs than the list has slots, one after another: a long-lived
	 * process (the fuzzer, a packer loop) must not run out. */
	char dir[] = "/tmp/q7slots.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *target = q7_path_join(dir, "out");
	for (int i = 0; i < 2000; i++) {
		struct q7_outfile o;
		ck_assert_int_eq(q7_outfile_open(&o, target), 0);
		fputc('x', o.f);
		ck_assert_int_eq(q7_outfile_commit(&o, 0644), 0);
	}
	unlink(target);
	ck_assert_int_eq(rmdir(dir), 0);
	free(target);
}
END_TEST

START_TEST(temp_dir_removed_with_its_files)
{
	char *dir = q7_xstrdup(q7_temp_dir());
	char *a = q7_path_join(dir, "a.cpp"), *b = q7_path_join(dir, "b.o");
	for (int i = 0; i < 2; i++) {
		const char *p = i ? b : a;
		FILE *f = fopen(p, "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
		q7_temp_register(p);
	}
	ck_assert(q7_path_exists(a) && q7_path_exists(b));
	q7_temp_cleanup();
	ck_assert(!q7_path_exists(a));
	ck_assert(!q7_path_exists(b));
	ck_assert(!q7_path_exists(dir));
	free(a);
	free(b);
	free(dir);
}
END_TEST

START_TEST(temp_sweep_waits_for_q7_temp_sweep)
{
	/* A stale q7cc.XXXXXX (a minute untouched, its owner lock free) is
	 * removed by q7_temp_sweep, not before: q7_temp_dir is on the way to
	 * the first tool, the sweep runs beside it. */
	char base[] = "/tmp/q7sweep.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(base));
	setenv("TMPDIR", base, 1);
	char *stale = q7_path_join(base, "q7cc.stale1");
	char *lock = q7_path_join(stale, ".owner.lock");
	ck_assert_int_eq(mkdir(stale, 0700), 0);
	FILE *f = fopen(lock, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	struct timespec old[2] = {{time(NULL) - 120, 0}, {time(NULL) - 120, 0}};
	ck_assert_int_eq(utimensat(AT_FDCWD, stale, old, 0), 0);
	char *dir = q7_xstrdup(q7_temp_dir());
	ck_assert(q7_path_exists(stale));
	q7_temp_sweep();
	ck_assert(!q7_path_exists(stale));
	ck_assert(q7_path_exists(dir)); /* its own, fresh and locked */
	q7_temp_cleanup();
	ck_assert_int_eq(rmdir(base), 0);
	free(dir);
	free(lock);
	free(stale);
}
END_TEST

/* The small tools' spellings, each style's: what q7_args_next returns
 * for one command line, and the value it gives. */
static const struct q7_args_opt arg_opts[] = {
	Q7_ARGS_EXACT("-h", 9), Q7_ARGS_VALUE("-o", 1),    Q7_ARGS_VALUE("--core", 2),
	Q7_ARGS_FLAG("-v", 3),  Q7_ARGS_FLAG("--list", 4), Q7_ARGS_TABLE_END,
};

static const struct {
	unsigned style;
	const char *argv[4];
	int id;
	const char *val;
	int next; /* argv's index after it */
} arg_cases[] = {
	{0, {"-oX"}, 1, "X", 2},
	{0, {"-o", "X"}, 1, "X", 3},
	{0, {"-o=X"}, 1, "=X", 2},
	{0, {"-o"}, Q7_ARGS_NO_VALUE, "-o", 2},
	{0, {"--core=3"}, 2, "3", 2},
	{0, {"--core", "3"}, Q7_ARGS_UNKNOWN, "--core", 2},
	{Q7_ARGS_LONG_NEXT, {"--core", "3"}, 2, "3", 3},
	{Q7_ARGS_LONG_NEXT, {"--core"}, Q7_ARGS_NO_VALUE, "--core", 2},
	{0, {"--cores=3"}, Q7_ARGS_UNKNOWN, "--cores=3", 2},
	{0, {"-v"}, 3, NULL, 2},
	{0, {"-vv"}, Q7_ARGS_UNKNOWN, "-vv", 2},
	{0, {"--v"}, Q7_ARGS_UNKNOWN, "--v", 2},
	{0, {"-"}, Q7_ARGS_POS, "-", 2},
	{0, {"-2"}, Q7_ARGS_UNKNOWN, "-2", 2},
	{Q7_ARGS_NUMBERS, {"-2"}, Q7_ARGS_POS, "-2", 2},
	{Q7_ARGS_NUMBERS, {"-inf"}, Q7_ARGS_POS, "-inf", 2},
	{0, {"--", "-v"}, Q7_ARGS_UNKNOWN, "--", 2},
	{Q7_ARGS_DASHDASH, {"--", "-v"}, Q7_ARGS_POS, "-v", 3},
	{Q7_ARGS_GETOPT, {"--o", "X"}, 1, "X", 3},
	{Q7_ARGS_GETOPT, {"-o=X"}, 1, "X", 2},
	{Q7_ARGS_GETOPT, {"--oX"}, Q7_ARGS_UNKNOWN, "--oX", 2},
	{Q7_ARGS_GETOPT, {"-core", "3"}, 2, "3", 3},
	{Q7_ARGS_GETOPT, {"--v"}, 3, NULL, 2},
	{Q7_ARGS_GETOPT, {"-list"}, 4, NULL, 2},
	{Q7_ARGS_GETOPT, {"-h"}, 9, NULL, 2},
	{Q7_ARGS_GETOPT, {"--h"}, Q7_ARGS_UNKNOWN, "--h", 2},
	{0, {NULL}, Q7_ARGS_END, NULL, 1},
};

START_TEST(args_spellings)
{
	char *argv[6] = {"tool"};
	int argc = 1;
	for (; arg_cases[_i].argv[argc - 1]; argc++)
		argv[argc] = (char *)arg_cases[_i].argv[argc - 1];
	struct q7_args p;
	q7_args_init(&p, argc, argv, arg_opts, arg_cases[_i].style);
	const char *val;
	ck_assert_int_eq(q7_args_next(&p, &val), arg_cases[_i].id);
	if (arg_cases[_i].val)
		ck_assert_str_eq(val, arg_cases[_i].val);
	else
		ck_assert_ptr_null(val);
	ck_assert_int_eq(p.next, arg_cases[_i].next);
}
END_TEST

/* The error carrier: "<file>: " then the text, cut to fit, terminated. */
START_TEST(err_carrier)
{
	char buf[16];
	q7_err_set(&Q7_ERR_OF(buf), "f.npy", "bad %s", "magic");
	ck_assert_str_eq(buf, "f.npy: bad magi");
	q7_err_set(&Q7_ERR_OF(buf), NULL, "%d", 42);
	ck_assert_str_eq(buf, "42");
	q7_err_set(&Q7_ERR_OF(buf), "a-name-longer-than-sixteen", "x");
	ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
	q7_err_clear(&Q7_ERR_OF(buf));
	ck_assert_str_eq(buf, "");
	q7_err_set(NULL, "f", "dropped"); /* a caller that does not want it */
	q7_err_set(&(struct q7_err){.msg = buf, .size = 0}, "f", "dropped");
}
END_TEST

/* A growing carrier keeps a message of any length whole; a second set
 * replaces (and frees) the first; q7_err_free releases it and is
 * harmless on an array carrier. */
/* Any name as valid JSON: the escapes, controls as \u, a byte that is
 * not UTF-8 as the text \xNN, UTF-8 kept. */
START_TEST(json_string_escapes)
{
	struct q7_strbuf b = {0};
	q7_sb_add_json(&b, "a\"b\\c\nd\te\x01" "f\x7f" "g\xc2\x9b" "h\xff" "i\xc3\xa9");
	ck_assert_str_eq(b.s, "\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007fg\\u009bh\\\\xffi\xc3\xa9\"");
	q7_sb_free(&b);
	q7_sb_add_json(&b, "");
	ck_assert_str_eq(b.s, "\"\"");
	q7_sb_free(&b);
}
END_TEST

START_TEST(err_carrier_growing)
{
	struct q7_err e = Q7_ERR_GROWING;
	ck_assert_str_eq(q7_err_text(&e), "");
	char *name = malloc(10001);
	memset(name, 'n', 10000);
	name[10000] = 0;
	q7_err_set(&e, NULL, "%s", name);
	ck_assert_uint_eq(strlen(e.msg), 10000);
	ck_assert_str_eq(e.msg, name);
	q7_err_set(&e, name, "cannot read: %s", "No such file or directory");
	ck_assert_uint_eq(strlen(e.msg), 10000 + strlen(": cannot read: No such file or directory"));
	ck_assert(strncmp(e.msg, name, 10000) == 0);
	ck_assert_str_eq(e.msg + 10000, ": cannot read: No such file or directory");
	q7_err_set(&e, "f", "wraps: %s", e.msg); /* the old message as an argument */
	ck_assert(strncmp(e.msg, "f: wraps: ", 10) == 0);
	ck_assert_uint_eq(strlen(e.msg), 10 + 10000 + strlen(": cannot read: No such file or directory"));
	q7_err_clear(&e);
	ck_assert_str_eq(q7_err_text(&e), "");
	q7_err_free(&e);
	ck_assert_ptr_null(e.msg);
	q7_err_free(&e); /* twice: harmless */
	free(name);

	char buf[8];
	struct q7_err a = Q7_ERR_OF(buf);
	q7_err_set(&a, "file", "long message");
	ck_assert_str_eq(buf, "file: l"); /* still cut */
	q7_err_free(&a);
	ck_assert_ptr_eq(a.msg, buf);
	ck_assert_str_eq(q7_err_text(&a), "file: l");
	q7_err_free(NULL);
}
END_TEST

/* q7_err_print, at a tool's top: "<prog>: error: <message>" shown as
 * q7_error shows it (a control character escaped), the growing carrier
 * released; nothing for a carrier without a message. */
START_TEST(err_print_at_top)
{
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(f), 2);
	struct q7_err e = Q7_ERR_GROWING;
	q7_err_print(&e); /* no message yet: nothing */
	q7_err_set(&e, "f.o", "damaged: %s", "a\rb");
	q7_err_print(&e);
	q7_err_print(NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_ptr_null(e.msg);
	char out[256];
	read_back(f, out, sizeof out);
	ck_assert_str_eq(out, "q7cc: error: f.o: damaged: a\\x0db\n");
}
END_TEST

/* support/fdio: q7_write_all, the one write loop: all of a buffer larger
 * than a pipe holds, through a non-blocking pipe that a reader drains;
 * a full one past its deadline (ETIMEDOUT); a socket whose peer has gone
 * is EPIPE, not SIGPIPE (the test would die of it). */
START_TEST(write_all_pipes_and_sockets)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
	size_t n = (size_t)1 << 20; /* 16 pipe buffers of 64 KiB */
	char *buf = malloc(n), *back = malloc(n);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[1]);
		size_t got = 0;
		for (ssize_t r; got < n && (r = read(p[0], back + got, n - got)) > 0;)
			got += (size_t)r;
		_exit(got == n && memcmp(back, buf, n) == 0 ? 0 : 1);
	}
	close(p[0]);
	ck_assert_int_eq(q7_write_all(p[1], buf, n, -1), 0);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(p[1]);

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
	errno = 0;
	ck_assert_int_eq(q7_write_all(p[1], buf, n, q7_now_ms()), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	close(p[0]);
	close(p[1]);

	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[1]);
	errno = 0;
	ck_assert_int_eq(q7_write_all(sv[0], buf, 16, -1), -1);
	ck_assert_int_eq(errno, EPIPE);
	close(sv[0]);
	free(buf);
	free(back);
}
END_TEST

static Suite *support_suite(void)
{
	Suite *s = suite_create("support");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, strbuf_grows_and_formats);
	tcase_add_test(tc, grow_keeps_and_doubles);
	tcase_add_loop_test(tc, grow_overflow_is_out_of_memory, 0,
	                    sizeof grow_overflows / sizeof grow_overflows[0]);
	tcase_add_loop_test(tc, args_spellings, 0, sizeof arg_cases / sizeof arg_cases[0]);
	tcase_add_test(tc, err_carrier);
	tcase_add_test(tc, err_carrier_growing);
	tcase_add_test(tc, err_print_at_top);
	tcase_add_test(tc, json_string_escapes);
	tcase_add_loop_test(tc, shell_quote_cases, 0, sizeof quote_cases / sizeof quote_cases[0]);
	tcase_add_test(tc, shell_join_round_trips_through_sh);
	tcase_add_test(tc, paths);
	tcase_add_test(tc, read_regular_refuses_and_bounds);
	tcase_add_test(tc, outfile_commit_and_abort);
	tcase_add_test(tc, outfile_in_missing_dir_fails_cleanly);
	tcase_add_test(tc, temp_slots_are_reused);
	tcase_add_test(tc, temp_dir_removed_with_its_files);
	tcase_add_test(tc, temp_sweep_waits_for_q7_temp_sweep);
	tcase_add_test(tc, write_all_pipes_and_sockets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(support_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
