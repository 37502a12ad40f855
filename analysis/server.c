/* The resident analysis server: loading libclang costs a kernel compile
 * more CPU than the compile itself (~0.13 s of relocations and static
 * constructors), so the first q7cc that needs analysis starts a server
 * that keeps it loaded, and later ones send it their TU instead.
 *
 * One server per user and per plugin build, on a UNIX socket in
 * $XDG_RUNTIME_DIR/q7cc-UID (or /tmp/q7cc-UID, mode 0700). Requests are
 * served by worker processes forked once libclang is loaded and warm (one
 * per CPU, each with its own working directory; a crashed one is
 * replaced), the server exits after Q7CC_ANALYSIS_SERVER_IDLE seconds
 * without requests (120) or when the plugin changes, and any failure on the
 * client's side falls back to analysing in-process.
 * Q7CC_ANALYSIS_SERVER=0 turns it off. */
#include "internal.h"
#include "wire.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 60000
#define REQUEST_TIMEOUT_MS 10000

/* Variables that change what libclang finds; sent with each request. */
static const char *const passed_env[] = {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH", NULL};

bool q7_server_enabled(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_SERVER");
	return !(e && strcmp(e, "0") == 0);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (const unsigned char *c = p; n--; c++) {
		h ^= *c;
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t file_key(uint64_t h, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	h = fnv(h, path, strlen(path));
	h = fnv(h, &st.st_ino, sizeof st.st_ino);
	h = fnv(h, &st.st_size, sizeof st.st_size);
	h = fnv(h, &st.st_mtim, sizeof st.st_mtim);
	return h;
}

/* The private directory, created 0700 and checked to be ours. */
static char *socket_dir(void)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (!base || !*base || stat(base, &st) != 0 || !S_ISDIR(st.st_mode))
		base = "/tmp";
	char *dir = q7_xasprintf("%s/q7cc-%u", base, (unsigned)getuid());
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		free(dir);
		return NULL;
	}
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 077)) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* NULL when there is no usable place or no plugin. */
char *q7_server_socket(const char *plugin, const char *server)
{
	uint64_t h = file_key(14695981039346656037ull, plugin);
	h = h ? file_key(h, server) : 0;
	if (!h)
		return NULL;
	int abi = Q7_PLUGIN_ABI;
	h = fnv(h, &abi, sizeof abi);
	char *dir = socket_dir();
	if (!dir)
		return NULL;
	char *path = q7_xasprintf("%s/analysis-%016llx.sock", dir, (unsigned long long)h);
	free(dir);
	if (strlen(path) >= sizeof ((struct sockaddr_un *)0)->sun_path) {
		free(path);
		return NULL;
	}
	return path;
}

static int unix_socket(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	strcpy(sa->sun_path, path);
	return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

/* ---- client ---- */

int q7_server_analyze(const char *sock, const struct q7_analysis_opts *o,
                      struct q7_op_table *ops, struct q7_diags *diags, int *rc)
{
	struct sockaddr_un sa;
	int fd = unix_socket(sock, &sa);
	if (fd < 0)
		return -1;
	int result = -1;
	struct q7_strbuf req = {0};
	struct q7_strvec env = {0};
	char *cwd = getcwd(NULL, 0), *reply = NULL;
	size_t len;
	if (!cwd || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		goto out;
	for (const char *const *e = passed_env; *e; e++) {
		const char *v = getenv(*e);
		if (v)
			q7_sv_addf(&env, "%s=%s", *e, v);
		else
			q7_sv_add(&env, *e);
	}
	q7_wire_put_request(&req, o, cwd, env.v);
	if (q7_wire_send(fd, &req) == 0 && q7_wire_recv(fd, &reply, &len, REPLY_TIMEOUT_MS) == 0)
		result = q7_wire_get_result(reply, len, rc, ops, diags);
out:
	free(reply);
	free(cwd);
	q7_sv_free(&env);
	q7_sb_free(&req);
	close(fd);
	return result;
}

/* Starts "q7analysis-server --detach SOCK PLUGIN", which starts the real
 * server in its own session and exits at once, so the server is never
 * q7cc's child (q7cc waits for its children, and would for it). */
void q7_server_start(const char *server, const char *sock, const char *plugin)
{
	char *argv[] = {(char *)server, "--detach", (char *)sock, (char *)plugin, NULL};
	/* Not the make jobserver's or ctest's pipes: they must see EOF. */
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = Q7_PROC_NULL, .err = Q7_PROC_NULL,
	                         .close_others = true, .pristine = true, .quiet = true};
	pid_t pid = q7_proc_spawn(argv, &o);
	if (pid > 0)
		q7_proc_wait(pid, NULL);
}

/* ---- server ---- */

static void apply_env(const struct q7_strvec *env)
{
	for (size_t i = 0; i < env->n; i++) {
		char *eq = strchr(env->v[i], '=');
		if (eq) {
			*eq = '\0';
			setenv(env->v[i], eq + 1, 1);
			*eq = '=';
		} else {
			unsetenv(env->v[i]);
		}
	}
}

/* One request, one reply, in the client's directory and environment. */
static void serve_one(int conn, q7_plugin_entry_fn entry)
{
	char *data = NULL;
	size_t len;
	struct q7_wire_request q;
	if (q7_wire_recv(conn, &data, &len, REQUEST_TIMEOUT_MS) != 0 ||
	    q7_wire_get_request(data, len, &q) != 0) {
		free(data);
		return;
	}
	free(data);
	if (chdir(q.cwd) != 0) {
		q7_wire_request_free(&q);
		return; /* the client analyses in-process */
	}
	apply_env(&q.env);
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	int rc = entry(Q7_PLUGIN_ABI, &q.opts, &ops, &diags);
	struct q7_strbuf reply = {0};
	q7_wire_put_result(&reply, rc, &ops, &diags);
	q7_wire_send(conn, &reply);
	q7_sb_free(&reply);
	q7_ops_free(&ops);
	q7_diags_free(&diags);
	q7_wire_request_free(&q);
}

static int idle_seconds(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_SERVER_IDLE");
	int s = e ? atoi(e) : 0;
	return s > 0 ? s : 120;
}

static int bind_socket(const char *path)
{
	struct sockaddr_un sa;
	int fd = unix_socket(path, &sa);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		/* A live server answers; a dead one left its file behind. */
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool alive = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0;
		if (probe >= 0)
			close(probe);
		if (alive || errno != ECONNREFUSED || unlink(path) != 0 ||
		    bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
			close(fd);
			return -1;
		}
	}
	if (listen(fd, 64) != 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

#define MAX_WORKERS 8

/* A worker serves requests one after another, so its memory stays warm;
 * it tells the master of each on the beat pipe. */
static void worker(int fd, int beat, q7_plugin_entry_fn entry, pid_t master)
{
	/* Never outlive the master, even one killed outright. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != master)
		_exit(0);
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			_exit(1);
		int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		if (conn < 0)
			continue; /* another worker took it */
		if (write(beat, "", 1) < 0) {
			/* a full pipe is news enough */
		}
		/* A parse that hangs ends the worker; the master replaces it and
		 * the client, long timed out, has analysed in-process. */
		alarm(REPLY_TIMEOUT_MS / 1000 * 2);
		serve_one(conn, entry);
		alarm(0);
		close(conn);
	}
}

static pid_t start_worker(int fd, const int beat[2], q7_plugin_entry_fn entry)
{
	pid_t master = getpid();
	pid_t pid = q7_proc_fork();
	if (pid == 0) {
		close(beat[0]);
		worker(fd, beat[1], entry, master);
	}
	return pid;
}

static int nworkers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

/* The master: keeps nworkers() workers (a crashed one is replaced) and
 * ends them all when idle, replaced by another server, or the plugin was
 * rebuilt. */
static int serve(const char *path, const char *plugin)
{
	signal(SIGPIPE, SIG_IGN);
	/* Bound before libclang loads: early clients wait in the backlog. */
	int fd = bind_socket(path);
	if (fd < 0)
		return 1;
	struct stat mine, st;
	uint64_t key = file_key(1, plugin);
	q7_plugin_entry_fn entry = q7_plugin_load(plugin);
	int beat[2];
	if (!entry || lstat(path, &mine) != 0 || chdir("/") != 0 ||
	    pipe2(beat, O_CLOEXEC | O_NONBLOCK) != 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
		unlink(path);
		return 1;
	}
	/* libclang initialises much on its first parse; done here once, the
	 * workers inherit it instead of each paying for it. */
	struct q7_analysis_opts warm = {.source = "/dev/null", .profile = "gnu"};
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	entry(Q7_PLUGIN_ABI, &warm, &ops, &diags);
	q7_ops_free(&ops);
	q7_diags_free(&diags);

	pid_t kids[MAX_WORKERS] = {0};
	int n = nworkers();
	for (int i = 0; i < n; i++)
		kids[i] = start_worker(fd, beat, entry);
	time_t last = time(NULL);
	for (;;) {
		struct pollfd pfd = {.fd = beat[0], .events = POLLIN};
		if (poll(&pfd, 1, 1000) > 0) {
			char buf[256];
			while (read(beat[0], buf, sizeof buf) > 0)
				;
			last = time(NULL);
		}
		pid_t p;
		while (q7_proc_wait_any(kids, (size_t)n, 0, &p, NULL) >= 0)
			for (int i = 0; i < n; i++)
				if (kids[i] == p)
					kids[i] = start_worker(fd, beat, entry);
		if (time(NULL) - last >= idle_seconds() || lstat(path, &st) != 0 ||
		    st.st_ino != mine.st_ino || file_key(1, plugin) != key)
			break;
	}
	for (int i = 0; i < n; i++)
		if (kids[i] > 0)
			q7_proc_kill(kids[i], SIGTERM);
	q7_proc_wait_all();
	if (lstat(path, &st) == 0 && st.st_ino == mine.st_ino)
		unlink(path);
	close(fd);
	return 0;
}

int q7_analysis_server_main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	if (strcmp(argv[1], "--serve") == 0)
		return serve(argv[2], argv[3]);
	if (strcmp(argv[1], "--detach") != 0)
		return 2;
	char *args[] = {argv[0], "--serve", argv[2], argv[3], NULL};
	struct q7_proc_opts o = {.session = true, .quiet = true};
	return q7_proc_spawn(args, &o) > 0 ? 0 : 1;
}
