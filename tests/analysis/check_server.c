/* The analysis server's promises (analysis/server.h), against the real
 * q7analysis-server and against fakes (server_peer):
 *
 *   fallback   a server that closes early, never acknowledges or answers
 *              garbage: the client gives up within its deadlines, is never
 *              killed by SIGPIPE, and leaves its tables untouched;
 *   slow       idle and half-sent connections (2 and 100 of them) neither
 *              delay a request nor stay open past the request deadline;
 *   lifetime   a worker busy for longer than the idle time keeps the server
 *              up and its client waits past the acknowledgement deadline
 *              for the result; a client queued behind it when the server
 *              is told to end is still served; the server then ends.
 *
 * Each case starts what it uses in its own folder ($XDG_RUNTIME_DIR) and
 * stops it; no process is left behind (checked in /proc). A slow parse is
 * a FIFO as the source: libclang waits on it until the test writes. */
#include "analysis.h"
#include "internal.h"
#include "server.h"
#include "proc.h"

#include "run_suite.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char kernel_src[] =
	"namespace at { class Tensor {}; }\n"
	"__attribute__((annotate(\"q7.kernel\"))) at::Tensor twice(const at::Tensor &x, int n)\n"
	"{\n\treturn x;\n}\n";

static char *dir_file(const char *name)
{
	const char *d = getenv("XDG_RUNTIME_DIR");
	ck_assert_ptr_nonnull(d);
	return q7_path_join(d, name);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Options for source: the host triple, no includes needed. */
static struct q7_analysis_opts opts_for(const char *source, char **args)
{
	return (struct q7_analysis_opts){.source = source, .clang_args = args,
	                                 .triple = "x86_64-pc-linux-gnu", .toolchain = "host"};
}

static int ask(const char *sock, const char *source, char **args, struct q7_op_table *ops)
{
	struct q7_analysis_opts o = opts_for(source, args);
	struct q7_diags diags = {0};
	int rc = -99;
	int r = q7_server_analyze(sock, &o, ops, &diags, &rc, Q7_SERVER_ACK_MS);
	if (r == 0)
		ck_assert_int_eq(rc, 0);
	q7_diags_free(&diags);
	return r;
}

static void expect_twice(const struct q7_op_table *ops)
{
	ck_assert_uint_eq(ops->n, 1);
	ck_assert_str_eq(ops->ops[0].name, "twice");
	ck_assert_uint_eq(ops->ops[0].nparams, 2);
	ck_assert_str_eq(ops->ops[0].params[1].ctype, "int");
}

static void wait_for_file(const char *path)
{
	for (int i = 0; i < 400 && access(path, F_OK) != 0; i++)
		usleep(25000);
	ck_assert_msg(access(path, F_OK) == 0, "%s never appeared", path);
}

/* Processes whose command line names sock (the server, its workers, a
 * fake), after giving them up to 5 s to go. */
static int leftovers(const char *sock)
{
	int found = 0;
	for (int tries = 0; tries < 50; tries++) {
		found = 0;
		DIR *d = opendir("/proc");
		ck_assert_ptr_nonnull(d);
		for (struct dirent *e; (e = readdir(d));) {
			if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
				continue;
			char *p = q7_xasprintf("/proc/%s/cmdline", e->d_name);
			size_t len = 0;
			char *cmd = q7_read_file(p, &len);
			for (size_t at = 0; cmd && at < len; at += strlen(cmd + at) + 1)
				found += strcmp(cmd + at, sock) == 0;
			free(cmd);
			free(p);
		}
		closedir(d);
		if (!found)
			break;
		usleep(100000);
	}
	return found;
}

static pid_t start_server(const char *sock)
{
	char *server = q7_prefix_path("lib/q7cc/q7analysis-server");
	char *plugin = q7_prefix_path("lib/q7cc/q7analysis-clang.so");
	char *argv[] = {server, "--serve", (char *)sock, plugin, NULL};
	struct q7_proc_opts o = {.in = Q7_PROC_NULL};
	pid_t pid = q7_proc_spawn(argv, &o);
	ck_assert_int_gt(pid, 0);
	free(server);
	free(plugin);
	/* Bound at once, serving once libclang is warm. */
	char *empty = dir_file("empty.cpp");
	write_text(empty, "");
	bool ready = false;
	for (int i = 0; i < 600 && !ready; i++) {
		struct q7_op_table ops = {0};
		ready = ask(sock, empty, NULL, &ops) == 0;
		q7_ops_free(&ops);
		if (!ready)
			usleep(100000);
	}
	ck_assert_msg(ready, "the server on %s never answered", sock);
	free(empty);
	return pid;
}

/* Waits for pid (at most 20 s, then kills it); its exit code. */
static int reap(pid_t pid)
{
	pid_t got;
	int code = q7_proc_wait_any(&pid, 1, 20.0, &got, NULL);
	if (code == Q7_PROC_TIMEOUT) {
		q7_proc_kill(pid, SIGKILL);
		q7_proc_wait(pid, NULL);
	}
	return code;
}

/* The server ended by itself, its socket removed, nothing left behind. */
static void ended(pid_t pid, const char *sock)
{
	ck_assert_int_eq(reap(pid), 0);
	ck_assert_int_ne(access(sock, F_OK), 0);
	ck_assert_int_eq(leftovers(sock), 0);
}

/* Removing its socket tells a server (or a fake) to end. */
static void stop(pid_t pid, const char *sock)
{
	unlink(sock);
	ck_assert_int_eq(reap(pid), 0);
	ck_assert_int_eq(leftovers(sock), 0);
}

/* ---- fallback ---- */

static const char *const fake_modes[] = {"accept-close", "read-close", "no-ack",     "ack-close",
                                         "ack-garbage",  "result-first", "ack-cut"};

/* A request well over a socket's buffer, so that a server that closes
 * while it is being written makes the write fail (EPIPE, not SIGPIPE). */
static char **big_args(void)
{
	static char *args[3];
	static char pad[1 << 20];
	memset(pad, 'x', sizeof pad - 1);
	memcpy(pad, "-DPAD=", 6);
	args[0] = "-std=c++14";
	args[1] = pad;
	return args;
}

START_TEST(fake_server)
{
	const char *mode = fake_modes[_i];
	char *sock = dir_file("fake.sock"), *src = dir_file("k.cpp");
	write_text(src, kernel_src);
	unlink(sock);
	char *argv[] = {SERVER_PEER, "fake", (char *)mode, sock, NULL};
	pid_t peer = q7_proc_spawn(argv, NULL);
	ck_assert_int_gt(peer, 0);
	wait_for_file(sock);
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	struct q7_analysis_opts o = opts_for(src, big_args());
	int rc = -99;
	long long t0 = now_ms();
	int r = q7_server_analyze(sock, &o, &ops, &diags, &rc, Q7_SERVER_ACK_MS);
	long long took = now_ms() - t0;
	ck_assert_msg(r == Q7_SERVER_FAILED, "%s: q7_server_analyze gave %d", mode, r);
	ck_assert_uint_eq(ops.n, 0);
	ck_assert_uint_eq(diags.n, 0);
	ck_assert_int_eq(rc, -99);
	/* The send and acknowledgement deadlines, with room for a loaded machine. */
	ck_assert_msg(took < 10000, "%s: gave up after %lld ms", mode, took);
	stop(peer, sock);
	free(sock);
	free(src);
}
END_TEST

START_TEST(no_server)
{
	char *sock = dir_file("none.sock"), *src = dir_file("k.cpp");
	write_text(src, kernel_src);
	struct q7_op_table ops = {0};
	unlink(sock);
	ck_assert_int_eq(ask(sock, src, NULL, &ops), Q7_SERVER_ABSENT);
	/* A socket file that nothing listens on: a server that died. */
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	strcpy(sa.sun_path, sock);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	close(fd);
	ck_assert_int_eq(ask(sock, src, NULL, &ops), Q7_SERVER_ABSENT);
	ck_assert_uint_eq(ops.n, 0);
	unlink(sock);
	free(sock);
	free(src);
}
END_TEST

/* ---- slow clients ---- */

static int connect_to(const char *sock)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	strcpy(sa.sun_path, sock);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	return fd;
}

static const int idle_counts[] = {2, 100};

START_TEST(slow_clients)
{
	int n = idle_counts[_i];
	setenv("Q7CC_ANALYSIS_SERVER_IDLE", "60", 1);
	char *sock = dir_file("slow.sock"), *src = dir_file("k.cpp");
	write_text(src, kernel_src);
	pid_t server = start_server(sock);
	/* n that send nothing, n/2 half a length, n/2 a length and then
	 * only part of what it promised. */
	int *fds = q7_xcalloc((size_t)(2 * n), sizeof *fds);
	for (int i = 0; i < 2 * n; i++) {
		fds[i] = connect_to(sock);
		if (i >= n && i < n + n / 2)
			ck_assert_int_eq(write(fds[i], "\x10", 1), 1);
		else if (i >= n)
			ck_assert_int_eq(write(fds[i], "\x00\x10\0\0partial", 11), 11);
	}
	struct q7_op_table ops = {0};
	ck_assert_int_eq(ask(sock, src, NULL, &ops), 0);
	expect_twice(&ops);
	q7_ops_free(&ops);
	/* Each of them is closed by the server after its request deadline. */
	for (int i = 0; i < 2 * n; i++) {
		struct pollfd pfd = {.fd = fds[i], .events = POLLIN};
		ck_assert_int_eq(poll(&pfd, 1, 15000), 1);
		char c;
		ck_assert_int_le(read(fds[i], &c, 1), 0);
		close(fds[i]);
	}
	free(fds);
	/* And the server still serves. */
	ck_assert_int_eq(ask(sock, src, NULL, &ops), 0);
	expect_twice(&ops);
	q7_ops_free(&ops);
	stop(server, sock);
	free(sock);
	free(src);
}
END_TEST

/* ---- lifetime ---- */

/* The FIFO's write end, once a worker has opened it to read (so is
 * parsing it): at most 20 s. */
static int hold(const char *fifo)
{
	int fd = -1;
	for (int i = 0; i < 800 && fd < 0; i++) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			usleep(25000);
	}
	ck_assert_msg(fd >= 0, "no worker opened %s: %s", fifo, strerror(errno));
	return fd;
}

/* Writes the source into a held FIFO and closes it: the parse goes on. */
static void feed(int fd)
{
	ck_assert_int_eq(write(fd, kernel_src, strlen(kernel_src)), (ssize_t)strlen(kernel_src));
	close(fd);
}

static char *make_fifo(const char *name)
{
	char *fifo = dir_file(name);
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	return fifo;
}

/* A child that asks for source and exits 0 when served right; it closes
 * its copy of the test's descriptor fd (-1: none), a FIFO's write end
 * that must reach EOF when the test closes it. */
static pid_t client(const char *sock, const char *source, int fd)
{
	pid_t pid = q7_proc_fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (fd >= 0)
			close(fd);
		struct q7_op_table ops = {0};
		struct q7_analysis_opts o = opts_for(source, NULL);
		struct q7_diags diags = {0};
		int rc = -1;
		bool ok = q7_server_analyze(sock, &o, &ops, &diags, &rc, Q7_SERVER_ACK_MS) == 0 && rc == 0 &&
		          ops.n == 1 && strcmp(ops.ops[0].name, "twice") == 0;
				_exit(ok ? 0 : 1);
	}
	return pid;
}

/* The descriptors pid has open. */
static int open_fds(pid_t pid)
{
	char *p = q7_xasprintf("/proc/%d/fd", (int)pid);
	DIR *d = opendir(p);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	free(p);
	return n;
}

static bool running(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0;
}

/* How often pid's (first) thread has blocked: voluntary_ctxt_switches. */
static long blocked(pid_t pid)
{
	char *p = q7_xasprintf("/proc/%d/status", (int)pid);
	size_t len = 0;
	char *text = q7_read_file(p, &len);
	ck_assert_ptr_nonnull(text);
	const char *at = strstr(text, "\nvoluntary_ctxt_switches:");
	ck_assert_ptr_nonnull(at);
	long n = strtol(at + strlen("\nvoluntary_ctxt_switches:"), NULL, 10);
	free(text);
	free(p);
	return n;
}

/* Returns once the server's master has gone through a whole round since
 * the call (at most 20 s): it blocks in its poll once a round, so three
 * blocks from now enclose one round's check for its end (analysis/serve.c). */
static void await_round(pid_t server)
{
	long from = blocked(server);
	for (int i = 0; i < 2000 && blocked(server) < from + 3; i++)
		usleep(10000);
	ck_assert_int_ge(blocked(server), from + 3);
}

/* The idle time is 3 s, over the acknowledgement deadline (2 s). A client
 * takes the one worker with a FIFO as its source; once the worker has
 * opened it, a control server with the same idle time starts beside the
 * busy one, and once the control has ended (so an idle time has passed),
 * the busy server is still up and its client unanswered; the source is
 * then written and the client served, and the server ends once idle. */
START_TEST(busy_worker_keeps_server)
{
	setenv("Q7CC_ANALYSIS_SERVER_IDLE", "3", 1);
	setenv("Q7CC_ANALYSIS_SERVER_WORKERS", "1", 1);
	char *sock = dir_file("busy.sock"), *fifo = make_fifo("slow.cpp");
	char *control_sock = dir_file("control.sock");
	pid_t server = start_server(sock);
	pid_t a = client(sock, fifo, -1);
	int held = hold(fifo); /* a's request is in the one worker */
	pid_t control = start_server(control_sock);
	ck_assert_int_eq(reap(control), 0);
	ck_assert_int_ne(access(control_sock, F_OK), 0);
	ck_assert_msg(running(a), "answered before the source was written");
	/* Not ended while busy; ends once idle, its socket removed. */
	ck_assert_int_eq(access(sock, F_OK), 0);
	feed(held);
	ck_assert_int_eq(reap(a), 0);
	ended(server, sock);
	ck_assert_int_eq(leftovers(control_sock), 0);
	unlink(fifo);
	free(sock);
	free(control_sock);
	free(fifo);
}
END_TEST

/* Client a takes the one worker (its source a FIFO the test holds); b's
 * request is then accepted and queued behind it; the socket is removed
 * (the server is to end). b is not served before a's source is written,
 * and then both are, and the server ends, which with an idle time of 60 s
 * only the removal makes it do. Each step waits for what the one before
 * did, seen from outside: the worker opening the FIFO, the master's new
 * descriptor for b's connection, the master's round after the removal. */
START_TEST(queued_client_served_at_end)
{
	setenv("Q7CC_ANALYSIS_SERVER_IDLE", "60", 1);
	setenv("Q7CC_ANALYSIS_SERVER_WORKERS", "1", 1);
	char *sock = dir_file("queue.sock"), *fifo = make_fifo("held.cpp"), *src = dir_file("k.cpp");
	write_text(src, kernel_src);
	pid_t server = start_server(sock);
	pid_t a = client(sock, fifo, -1);
	int held = hold(fifo); /* a's request is in the one worker */
	int before = open_fds(server);
	pid_t b = client(sock, src, held);
	for (int i = 0; i < 200 && open_fds(server) == before; i++)
		usleep(10000);
	ck_assert_int_eq(open_fds(server), before + 1); /* accepted, queued */
	unlink(sock); /* the server is to end, with one busy and one queued */
	/* Once the master has seen it (b may wait for a worker for its
	 * acknowledgement deadline, 2 s): */
	await_round(server);
	ck_assert_msg(running(a) && running(b), "a client was answered before a's source");
	ck_assert_int_eq(open_fds(server), before + 1);
	feed(held);
	ck_assert_int_eq(reap(a), 0);
	ck_assert_int_eq(reap(b), 0);
	ended(server, sock);
	unlink(fifo);
	free(sock);
	free(fifo);
	free(src);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("analysis-server");
	TCase *fb = tcase_create("fallback");
	tcase_set_timeout(fb, 60);
	tcase_add_loop_test(fb, fake_server, 0, (int)(sizeof fake_modes / sizeof fake_modes[0]));
	tcase_add_test(fb, no_server);
	suite_add_tcase(s, fb);
	TCase *slow = tcase_create("slow");
	tcase_set_timeout(slow, 120);
	tcase_add_loop_test(slow, slow_clients, 0, (int)(sizeof idle_counts / sizeof idle_counts[0]));
	suite_add_tcase(s, slow);
	TCase *life = tcase_create("lifetime");
	tcase_set_timeout(life, 120);
	tcase_add_test(life, busy_worker_keeps_server);
	tcase_add_test(life, queued_client_served_at_end);
	suite_add_tcase(s, life);
	return run_suite(s, true);
}
