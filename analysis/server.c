/* The resident analysis server, the client's side (serve.c is the
 * server): why it exists, where it listens and what it promises are
 * docs/lint-rules.md, "When analysis runs". */
#include "internal.h"
#include "server.h"
#include "wire.h"
#include "proc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Variables that change what libclang finds; sent with each request. */
static const char *const passed_env[] = {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH", NULL};

bool q7_server_enabled(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_SERVER");
	return !(e && strcmp(e, "0") == 0);
}

uint64_t q7_server_file_key(uint64_t h, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	h = q7_fnv1a64(h, path, strlen(path));
	h = q7_fnv1a64(h, &st.st_ino, sizeof st.st_ino);
	h = q7_fnv1a64(h, &st.st_size, sizeof st.st_size);
	h = q7_fnv1a64(h, &st.st_mtim, sizeof st.st_mtim);
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
	uint64_t h = q7_server_file_key(Q7_FNV64_BASIS, plugin);
	h = h ? q7_server_file_key(h, server) : 0;
	if (!h)
		return NULL;
	int abi = Q7_PLUGIN_ABI;
	h = q7_fnv1a64(h, &abi, sizeof abi);
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

int q7_server_unix_socket(const char *path, struct sockaddr_un *sa, bool nonblock)
{
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa->sun_path)
		return -1;
	strcpy(sa->sun_path, path);
	return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
}

unsigned q7_server_parse_limit_s(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_TIME_LIMIT");
	unsigned long v = e && *e ? strtoul(e, NULL, 10) : 0;
	return v > 0 && v < Q7_SERVER_PARSE_LIMIT_S ? (unsigned)v : Q7_SERVER_PARSE_LIMIT_S;
}

/* ---- client ---- */

/* The request, result and acknowledgement on a connected socket: 0 and
 * the result decoded, or -1. */
static int exchange(int fd, const struct q7_analysis_opts *o, struct q7_op_table *ops,
                    struct q7_diags *diags, int *rc, int ack_ms)
{
	int result = -1;
	struct q7_strbuf req = {0};
	struct q7_strvec env = {0}, names = {0};
	struct q7_strbuf why = {0};
	char *cwd = getcwd(NULL, 0), *ack = NULL, *reply = NULL;
	size_t len;
	if (!cwd)
		goto out;
	for (const char *const *e = passed_env; *e; e++) {
		const char *v = getenv(*e);
		if (v)
			q7_sv_addf(&env, "%s=%s", *e, v);
		else
			q7_sv_add(&env, *e);
	}
	q7_wire_put_request(&req, o, cwd, env.v);
	/* Not started within Q7_SERVER_ACK_MS: busy, stalled or gone; the
	 * compile is better off analysing in-process. Started: a big TU may
	 * take its time. */
	long long limit_ms = (long long)q7_server_parse_limit_s() * 1000, started = 0;
	if (q7_wire_send(fd, &req, Q7_SERVER_SEND_MS) == 0 &&
	    q7_wire_recv(fd, &ack, &len, ack_ms) == 0 && q7_wire_is_ack(ack, len)) {
		started = q7_now_ms();
		if (q7_wire_recv(fd, &reply, &len, (int)(limit_ms + Q7_SERVER_RESULT_MARGIN_MS)) == 0)
			result = q7_analysis_result_read(reply, len, &names, rc, ops, diags, &why);
		/* The worker's alarm ran out (not a crash): it started a moment
		 * before the acknowledgement reached us. */
		else if (q7_now_ms() - started >= limit_ms - (limit_ms / 4 < 1000 ? limit_ms / 4 : 1000))
			result = -3;
	}
out:
	free(ack);
	free(reply);
	free(cwd);
	q7_sv_free(&env);
	q7_sv_free(&names);
	q7_sb_free(&why);
	q7_sb_free(&req);
	return result;
}

int q7_server_analyze(const char *sock, const struct q7_analysis_opts *o,
                      struct q7_op_table *ops, struct q7_diags *diags, int *rc, int ack_ms)
{
	struct sockaddr_un sa;
	/* Non-blocking: a full backlog is EAGAIN at once, never a wait. */
	int fd = q7_server_unix_socket(sock, &sa, true);
	if (fd < 0)
		return Q7_SERVER_ABSENT;
	int result;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		result = errno == ENOENT || errno == ECONNREFUSED ? Q7_SERVER_ABSENT : Q7_SERVER_FAILED;
	else
	{
		int got = exchange(fd, o, ops, diags, rc, ack_ms);
		result = got == 0 ? 0 : got == -3 ? Q7_SERVER_TIMED_OUT : Q7_SERVER_FAILED;
	}
	close(fd);
	return result;
}

/* Starts "q7analysis-server --detach SOCK PLUGIN", which starts the real
 * server in its own session and exits at once, so the server is never
 * q7cc's child (q7cc waits for its children, and would for it). The one
 * process the analysis starts, inside the driver's "analyze" step, which
 * -### shows and does not run (unit.layout_spawns checks). */
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
