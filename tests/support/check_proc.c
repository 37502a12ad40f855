/* Unit tests of support/proc: spawning with redirections, the status
 * decoder, the waits (one, any of some, all, with a deadline), that a
 * child q7 did not start is never reaped, kill, fork, and the signal
 * semantics (forwarded to the child's whole process group, wait, clean
 * up, die by the signal). The shell appears here only as a handy child. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "support.h"
#include "tempfile.h"

static char *tmp_name(void)
{
	char *p = q7_xstrdup("/tmp/q7proc.XXXXXX");
	int fd = mkstemp(p);
	ck_assert_int_ge(fd, 0);
	close(fd);
	return p;
}

/* Our stderr goes to a file until stderr_text(). */
struct grab {
	int saved;
	char *path;
};

static void grab_stderr(struct grab *g)
{
	g->path = tmp_name();
	fflush(stderr);
	g->saved = dup(2);
	int fd = open(g->path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
}

static char *stderr_text(struct grab *g)
{
	fflush(stderr);
	dup2(g->saved, 2);
	close(g->saved);
	char *s = q7_read_file(g->path, NULL);
	unlink(g->path);
	free(g->path);
	ck_assert_ptr_nonnull(s);
	return s;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Running, and not a zombie. */
static bool alive(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	char *s = q7_read_file(path, NULL);
	if (!s)
		return false;
	const char *p = strrchr(s, ')');
	bool yes = p && p[1] == ' ' && p[2] != 'Z';
	free(s);
	return yes;
}

static bool ends_within(pid_t pid, double secs)
{
	double end = now_s() + secs;
	while (alive(pid) && now_s() < end)
		usleep(20000);
	return !alive(pid);
}

static const struct {
	int status, code;
} codes[] = {
	{0, 0},
	{3 << 8, 3},
	{255 << 8, 255},
	{SIGKILL, 128 + SIGKILL},
	{SIGSEGV | 0x80, 128 + SIGSEGV}, /* with a core dump */
	{0x137f, Q7_EXIT_INTERNAL},      /* stopped, not ended */
};

START_TEST(status_decoder)
{
	ck_assert_int_eq(q7_proc_code(codes[_i].status), codes[_i].code);
}
END_TEST

static const struct {
	int status;
	const char *text;
} words[] = {
	{3 << 8, "exit status 3"},
	{SIGSEGV, "killed by signal SIGSEGV (Segmentation fault)"},
	{SIGKILL | 0x80, "killed by signal SIGKILL (Killed)"},
};

START_TEST(status_in_words)
{
	char buf[96];
	q7_proc_describe(words[_i].status, buf, sizeof buf);
	ck_assert_str_eq(buf, words[_i].text);
}
END_TEST

/* spawn + wait, as the wrapper's steps do; Q7_EXIT_TOOL when argv cannot run. */
static int run(char *const *argv)
{
	pid_t pid = q7_proc_spawn(argv, NULL);
	return pid < 0 ? Q7_EXIT_TOOL : q7_proc_wait(pid, NULL);
}

START_TEST(exit_code_passes_through)
{
	char *ok[] = {"sh", "-c", "exit 3", NULL};
	ck_assert_int_eq(run(ok), 3);
	char *missing[] = {"/nonexistent/tool", NULL};
	struct grab g;
	grab_stderr(&g);
	ck_assert_int_eq(run(missing), Q7_EXIT_TOOL);
	char *err = stderr_text(&g);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/tool: cannot run: No such file"));
	free(err);
	ck_assert_int_eq(q7_proc_running(), 0);
}
END_TEST

START_TEST(death_by_signal_reported_by_name)
{
	char *argv[] = {"sh", "-c", "kill -SEGV $$", NULL};
	struct grab g;
	grab_stderr(&g);
	int code = run(argv);
	char *err = stderr_text(&g);
	ck_assert_int_eq(code, 128 + SIGSEGV);
	ck_assert_ptr_nonnull(strstr(err, "sh: killed by signal SIGSEGV (Segmentation fault)"));
	free(err);
}
END_TEST

START_TEST(stopped_on_purpose_is_quiet)
{
	char *argv[] = {"sleep", "30", NULL};
	struct grab g;
	grab_stderr(&g);
	pid_t a = q7_proc_spawn(argv, NULL), b = q7_proc_spawn(argv, NULL);
	ck_assert_int_gt(a, 0);
	ck_assert_int_gt(b, 0);
	/* Each leads its own process group. */
	ck_assert_int_eq(getpgid(a), a);
	ck_assert_int_eq(getpgid(b), b);
	q7_proc_kill_all(SIGTERM);
	ck_assert_int_eq(q7_proc_wait_all(), 128 + SIGTERM);
	char *err = stderr_text(&g);
	ck_assert_str_eq(err, "");
	free(err);
	ck_assert_int_eq(q7_proc_running(), 0);
}
END_TEST

START_TEST(capture_one_output)
{
	char *argv[] = {"sh", "-c", "echo out; echo err >&2; cat", NULL};
	char *out = NULL;
	ck_assert_int_eq(q7_proc_capture(argv, 1, &out), 0);
	ck_assert_str_eq(out, "out\n"); /* stdin /dev/null: cat ends */
	free(out);
	ck_assert_int_eq(q7_proc_capture(argv, 2, &out), 0);
	ck_assert_str_eq(out, "err\n");
	free(out);
}
END_TEST

START_TEST(redirections_and_fd3)
{
	char *a = tmp_name(), *b = tmp_name();
	int fa = open(a, O_WRONLY | O_CLOEXEC), fb = open(b, O_WRONLY | O_CLOEXEC);
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = fa, .err = Q7_PROC_NULL, .fds = &fb,
	                         .nfds = 1};
	char *argv[] = {"sh", "-c", "cat; echo to-1; echo to-2 >&2; echo to-3 >&3", NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	close(fa);
	close(fb);
	char *sa = q7_read_file(a, NULL), *sb = q7_read_file(b, NULL);
	ck_assert_str_eq(sa, "to-1\n");
	ck_assert_str_eq(sb, "to-3\n");
	free(sa);
	free(sb);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}
END_TEST

/* fd 3 reads what fd 4 is given to write (one socket, as an emulated
 * session passes it), and close_others keeps both. */
START_TEST(fd3_and_fd4)
{
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	const int fds[] = {sv[1], sv[1]};
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fds = fds, .nfds = 2, .close_others = true};
	char *argv[] = {"sh", "-c", "read x <&3; echo \"got $x\" >&4", NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	close(sv[1]);
	ck_assert_int_eq(write(sv[0], "ping\n", 5), 5);
	char buf[32] = {0};
	size_t n = 0;
	ssize_t got;
	while (n < sizeof buf - 1 && (got = read(sv[0], buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)got;
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	ck_assert_str_eq(buf, "got ping\n");
	close(sv[0]);
}
END_TEST

/* fd 5 besides them (a memfd, as an emulated session's data file was): the
 * child writes into it, the parent reads it back; close_others keeps it
 * and closes fd 6. */
START_TEST(fd5_beside_fd3_and_fd4)
{
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	int data = memfd_create("check_proc", MFD_CLOEXEC);
	ck_assert_int_ge(data, 0);
	int p[2];
	ck_assert_int_eq(pipe(p), 0); /* not close-on-exec: inherited */
	ck_assert_int_eq(dup2(p[1], 6), 6);
	const int fds[] = {sv[1], sv[1], data};
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fds = fds, .nfds = 3, .close_others = true};
	char *argv[] = {"sh", "-c", "echo data >&5 && ! test -e /proc/self/fd/6", NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	char buf[16] = {0};
	ck_assert_int_eq(pread(data, buf, sizeof buf - 1, 0), 5);
	ck_assert_str_eq(buf, "data\n");
	close(6);
	close(p[0]);
	close(p[1]);
	close(data);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* A list whose fds are in each other's way: three pipes' write ends, each
 * twice, in the opposite order of their numbers, so that some sources are
 * themselves targets (fd 3 + i) of others. The child writes i to its fd
 * 3 + i; each pipe gets the numbers of its two places. */
START_TEST(fds_in_each_others_way)
{
	int r[3], w[3];
	for (int k = 0; k < 3; k++) {
		int p[2];
		ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
		r[k] = p[0];
		w[k] = p[1];
	}
	const int fds[] = {w[2], w[1], w[0], w[2], w[1], w[0]};
	bool crossed = false;
	for (int i = 0; i < 6; i++)
		crossed |= fds[i] >= 3 && fds[i] < 9 && fds[i] != 3 + i;
	ck_assert_msg(crossed, "no source among the targets 3 to 8: nothing tested");
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .fds = fds, .nfds = 6, .close_others = true};
	char *argv[] = {"sh", "-c", "for i in 3 4 5 6 7 8; do eval \"echo $i >&$i\"; done", NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	for (int k = 0; k < 3; k++)
		close(w[k]);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	static const char *const want[] = {"5\n8\n", "4\n7\n", "3\n6\n"};
	for (int k = 0; k < 3; k++) {
		char buf[16] = {0};
		ck_assert_int_gt(read(r[k], buf, sizeof buf - 1), 0);
		ck_assert_str_eq(buf, want[k]);
		close(r[k]);
	}
}
END_TEST

/* The child runs in o.dir; a folder that is not there fails the spawn
 * (ENOENT), nothing started. */
START_TEST(working_dir)
{
	char *out = tmp_name();
	int fd = open(out, O_WRONLY | O_CLOEXEC);
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = fd, .dir = "/proc/self"};
	char *argv[] = {"sh", "-c", "pwd -P; test -r status", NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	close(fd);
	char *text = q7_read_file(out, NULL);
	ck_assert_msg(strncmp(text, "/proc/", 6) == 0 && atoi(text + 6) == pid, "pwd: %s", text);
	free(text);
	unlink(out);
	free(out);
	o = (struct q7_proc_opts){.dir = "/nonexistent/q7", .quiet = true};
	errno = 0;
	ck_assert_int_eq(q7_proc_spawn(argv, &o), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(close_others)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0); /* not close-on-exec: inherited */
	ck_assert_int_eq(dup2(p[1], 9), 9);
	char *argv[] = {"sh", "-c", "test -e /proc/self/fd/9", NULL};
	struct q7_proc_opts keep = {0}, closed = {.close_others = true};
	pid_t pid = q7_proc_spawn(argv, &keep);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 0);
	pid = q7_proc_spawn(argv, &closed);
	ck_assert_int_eq(q7_proc_wait(pid, NULL), 1);
	close(9);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(fork_is_tracked)
{
	pid_t pid = q7_proc_fork();
	if (pid == 0)
		_exit(q7_proc_running() == 0 ? 7 : 8);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(q7_proc_running(), 1);
	int st;
	ck_assert_int_eq(q7_proc_wait(pid, &st), 7);
	ck_assert(WIFEXITED(st));
}
END_TEST

START_TEST(strangers_are_never_reaped)
{
	pid_t stranger = fork(); /* not q7's: started behind its back */
	if (stranger == 0)
		_exit(5);
	ck_assert_int_gt(stranger, 0);
	/* Until the stranger is a zombie (left one: WNOWAIT). */
	siginfo_t si;
	ck_assert_int_eq(waitid(P_PID, (id_t)stranger, &si, WEXITED | WNOWAIT), 0);
	char *argv[] = {"sleep", "0.2", NULL};
	pid_t mine = q7_proc_spawn(argv, NULL), got = 0;
	ck_assert_int_eq(q7_proc_wait_any(NULL, 0, -1, &got, NULL), 0);
	ck_assert_int_eq(got, mine);
	ck_assert_int_eq(q7_proc_wait_any(NULL, 0, -1, &got, NULL), Q7_PROC_NONE);
	int st;
	ck_assert_int_eq(waitpid(stranger, &st, 0), stranger);
	ck_assert_int_eq(WEXITSTATUS(st), 5);
}
END_TEST

START_TEST(wait_any_of_some_with_deadline)
{
	char *quick[] = {"true", NULL}, *slow[] = {"sleep", "30", NULL};
	pid_t a = q7_proc_spawn(quick, NULL), b = q7_proc_spawn(slow, NULL), got = 0;
	ck_assert_int_gt(a, 0);
	ck_assert_int_gt(b, 0);
	/* a ends at once, but only b is waited for. */
	double t0 = now_s();
	ck_assert_int_eq(q7_proc_wait_any(&b, 1, 0.3, &got, NULL), Q7_PROC_TIMEOUT);
	double waited = now_s() - t0;
	ck_assert(waited >= 0.29);
	ck_assert(waited < 10);
	ck_assert_int_eq(q7_proc_running(), 2);
	ck_assert_int_eq(q7_proc_wait_any(&a, 1, 5, &got, NULL), 0);
	ck_assert_int_eq(got, a);
	/* A look without waiting. */
	ck_assert_int_eq(q7_proc_wait_any(NULL, 0, 0, &got, NULL), Q7_PROC_TIMEOUT);
	q7_proc_kill(b, SIGKILL);
	int st;
	ck_assert_int_eq(q7_proc_wait_any(NULL, 0, 5, &got, &st), 128 + SIGKILL);
	ck_assert_int_eq(got, b);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	ck_assert_int_eq(q7_proc_wait_any(NULL, 0, 5, &got, NULL), Q7_PROC_NONE);
}
END_TEST

/* Runs body in a process of its own; returns its raw wait status. */
static int in_child(void (*body)(const char *), const char *arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		body(arg);
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return st;
}

/* How long interrupted_tool waits for its tool's child to be started, and
 * how it exits when the child was not (the test then fails saying so). */
#define PIDFILE_WAIT_S 10
#define NO_PIDFILE 98

/* A tool with a temporary and a child that has a child of its own (as
 * g++ has cc1plus) gets SIGTERM, sent to it alone. */
static void interrupted_tool(const char *dir)
{
	char *tmp = q7_path_join(dir, "temp");
	char *pidfile = q7_path_join(dir, "grandchild");
	close(open(tmp, O_WRONLY | O_CREAT, 0600));
	q7_temp_register(tmp);
	q7_proc_signals_install();
	char *script = q7_xasprintf("sleep 30 & echo $! > %s.new; mv %s.new %s; wait", pidfile,
	                            pidfile, pidfile);
	char *argv[] = {"sh", "-c", script, NULL};
	pid_t pid = q7_proc_spawn(argv, NULL);
	double end = now_s() + PIDFILE_WAIT_S;
	while (!q7_path_exists(pidfile) && now_s() < end)
		usleep(10000);
	if (!q7_path_exists(pidfile)) {
		fprintf(stderr, "interrupted_tool: the tool (sh) did not write %s within %d s\n",
		        pidfile, PIDFILE_WAIT_S);
		kill(-pid, SIGKILL); /* its group: the tool and its child */
		_exit(NO_PIDFILE);
	}
	kill(getpid(), SIGTERM);
	/* The handler forwarded it and returned: the child still runs. */
	q7_proc_wait(pid, NULL);
	_exit(99); /* never: q7 dies by the signal once the child is gone */
}

START_TEST(signal_forwarded_to_group_waited_cleaned_reraised)
{
	char dir[] = "/tmp/q7procsig.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	int st = in_child(interrupted_tool, dir);
	ck_assert_msg(!WIFEXITED(st) || WEXITSTATUS(st) != NO_PIDFILE,
	              "the tool's child was not started within %d s (no pid file in %s)",
	              PIDFILE_WAIT_S, dir);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), SIGTERM);
	char *tmp = q7_path_join(dir, "temp"), *pidfile = q7_path_join(dir, "grandchild");
	ck_assert(!q7_path_exists(tmp));
	char *s = q7_read_file(pidfile, NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(ends_within((pid_t)atoi(s), 10));
	unlink(pidfile);
	rmdir(dir);
	free(s);
	free(tmp);
	free(pidfile);
}
END_TEST

static void idle_tool(const char *tmp)
{
	close(open(tmp, O_WRONLY | O_CREAT, 0600));
	q7_temp_register(tmp);
	q7_proc_signals_install();
	kill(getpid(), SIGINT);
	_exit(99);
}

START_TEST(signal_without_children_dies_at_once)
{
	char *tmp = tmp_name();
	unlink(tmp);
	int st = in_child(idle_tool, tmp);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), SIGINT);
	ck_assert(!q7_path_exists(tmp));
	free(tmp);
}
END_TEST

static void nohup_tool(const char *unused)
{
	(void)unused;
	signal(SIGHUP, SIG_IGN);
	q7_proc_signals_install();
	kill(getpid(), SIGHUP);
	q7_proc_signals_restore();
	_exit(4);
}

START_TEST(ignored_signal_stays_ignored)
{
	int st = in_child(nohup_tool, NULL);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 4);
}
END_TEST

static Suite *proc_suite(void)
{
	Suite *s = suite_create("proc");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, status_decoder, 0, sizeof codes / sizeof codes[0]);
	tcase_add_loop_test(tc, status_in_words, 0, sizeof words / sizeof words[0]);
	tcase_add_test(tc, exit_code_passes_through);
	tcase_add_test(tc, death_by_signal_reported_by_name);
	tcase_add_test(tc, stopped_on_purpose_is_quiet);
	tcase_add_test(tc, capture_one_output);
	tcase_add_test(tc, redirections_and_fd3);
	tcase_add_test(tc, fd3_and_fd4);
	tcase_add_test(tc, fd5_beside_fd3_and_fd4);
	tcase_add_test(tc, fds_in_each_others_way);
	tcase_add_test(tc, working_dir);
	tcase_add_test(tc, close_others);
	tcase_add_test(tc, fork_is_tracked);
	tcase_add_test(tc, strangers_are_never_reaped);
	tcase_add_test(tc, wait_any_of_some_with_deadline);
	tcase_add_test(tc, signal_forwarded_to_group_waited_cleaned_reraised);
	tcase_add_test(tc, signal_without_children_dies_at_once);
	tcase_add_test(tc, ignored_signal_stays_ignored);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proc_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
