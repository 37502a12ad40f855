/* The analysis server process (q7analysis-server --serve SOCK PLUGIN);
 * docs/lint-rules.md, "What the analysis server promises", says what it
 * keeps to, server.h its deadlines. A complete request goes with its
 * connection (SCM_RIGHTS) to an idle worker over that worker's channel (a
 * socketpair); workers are forked once libclang is loaded and warm. */
#include "internal.h"
#include "server.h"
#include "wire.h"
#include "fdio.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_WORKERS 8
#define MAX_CONNS 512
#define TICK_MS 250 /* how often the master looks at its socket and plugin */

/* A client connection the master holds: reading its request, or holding
 * it whole until a worker is free. */
struct conn {
	int fd;
	long long since;    /* accepted (ms) */
	long long ready_at; /* the request complete (ms), else 0 */
	struct q7_strbuf in; /* what has arrived: the length, then the request */
};

struct worker {
	pid_t pid; /* 0: none */
	int chan;  /* the master's end of the channel, or -1 */
	bool busy;
};

struct master {
	const char *path, *plugin;
	int lfd;
	struct stat mine; /* the socket file as bound */
	uint64_t key;     /* the plugin as loaded */
	q7_plugin_entry_fn entry;
	struct worker w[MAX_WORKERS];
	int nw;
	struct conn *c;
	size_t nc, max_conns;
	long long last; /* the last accept or finished request (ms) */
	bool stopping;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* ---- a worker ---- */

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

/* One request: acknowledged, analysed in the client's directory and
 * environment, answered. A client that has left is no error. */
static void serve_one(int conn, const char *data, size_t len, q7_plugin_entry_fn entry)
{
	struct q7_wire_request q;
	if (q7_wire_get_request(data, len, &q) != 0)
		return;
	struct q7_strbuf msg = {0};
	q7_wire_put_ack(&msg);
	bool ok = q7_wire_send(conn, &msg, Q7_SERVER_REPLY_MS) == 0 && chdir(q.cwd) == 0;
	q7_sb_free(&msg);
	if (ok) {
		apply_env(&q.env);
		struct q7_op_table ops = {0};
		struct q7_diags diags = {0};
		int rc = entry(Q7_PLUGIN_ABI, &q.opts, &ops, &diags);
		q7_analysis_result_put(&msg, NULL, rc, &ops, &diags);
		q7_wire_send(conn, &msg, Q7_SERVER_REPLY_MS);
		q7_sb_free(&msg);
		q7_ops_free(&ops);
		q7_diags_free(&diags);
	}
	q7_wire_request_free(&q);
}

/* Room for the one descriptor (SCM_RIGHTS) a channel message carries. */
union fd_cmsg {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(int))];
};

/* The next request from the master on chan: the client's connection,
 * passed with a byte, then the request as on the wire (the caller frees
 * *data). -1 when the channel closed. */
static int take_request(int chan, int *conn, char **data, size_t *len)
{
	char byte;
	struct iovec iov = {&byte, 1};
	union fd_cmsg u;
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
	                   .msg_controllen = sizeof u.buf};
	ssize_t n;
	while ((n = recvmsg(chan, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return -1;
	int fd = -1;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof fd);
	if (fd >= 0 && !(m.msg_flags & MSG_CTRUNC) &&
	    q7_wire_recv(chan, data, len, Q7_SERVER_REPLY_MS) == 0) {
		*conn = fd;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

/* A worker serves requests one after another, so its memory stays warm;
 * it tells the master of each one done with a byte on its channel. */
Q7_NORETURN static void worker(int chan, q7_plugin_entry_fn entry, pid_t master)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	/* Never outlive the master, even one killed outright. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != master)
		_exit(0);
	/* Only the channel: a client's connection the master held when this
	 * worker was forked must close when the master closes it. */
	if (dup2(chan, 3) != 3)
		_exit(1);
	close_range(4, ~0u, 0);
	for (;;) {
		int conn;
		char *data;
		size_t len;
		if (take_request(3, &conn, &data, &len) != 0)
			_exit(0);
		/* A parse that hangs ends the worker; the master replaces it,
		 * and the client sees its connection close. */
		alarm(q7_server_parse_limit_s());
		serve_one(conn, data, len, entry);
		alarm(0);
		close(conn);
		free(data);
		if (write(3, "", 1) != 1)
			_exit(0);
	}
}

/* ---- the master ---- */

static int nworkers(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_SERVER_WORKERS");
	long n = e && *e ? atol(e) : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

static int idle_seconds(void)
{
	const char *e = getenv("Q7CC_ANALYSIS_SERVER_IDLE");
	int s = e ? atoi(e) : 0;
	return s > 0 ? s : 120;
}

static void start_worker(struct master *m, struct worker *w)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return; /* tried again next round */
	pid_t master = getpid();
	pid_t pid = q7_proc_fork();
	if (pid == 0)
		worker(sv[1], m->entry, master);
	close(sv[1]);
	if (pid < 0 || fcntl(sv[0], F_SETFL, O_NONBLOCK) != 0) {
		close(sv[0]);
		if (pid > 0) {
			q7_proc_kill(pid, SIGKILL);
			q7_proc_wait(pid, NULL);
		}
		return;
	}
	w->pid = pid;
	w->chan = sv[0];
}

/* w's channel is gone or broken: w is ended, reaped and its slot free. */
static void end_worker(struct worker *w)
{
	close(w->chan);
	q7_proc_kill(w->pid, SIGKILL);
	q7_proc_wait(w->pid, NULL);
	*w = (struct worker){.chan = -1};
}

static void drop_conn(struct master *m, size_t i)
{
	close(m->c[i].fd);
	q7_sb_free(&m->c[i].in);
	memmove(&m->c[i], &m->c[i + 1], (m->nc - i - 1) * sizeof *m->c);
	m->nc--;
}

/* Makes room for one more connection: the oldest one still sending its
 * request goes first, else the oldest waiting for a worker. */
static void make_room(struct master *m)
{
	size_t victim = 0;
	while (victim < m->nc && m->c[victim].ready_at)
		victim++;
	drop_conn(m, victim < m->nc ? victim : 0);
}

static void accept_all(struct master *m)
{
	for (;;) {
		int fd = accept4(m->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			/* Out of descriptors: the oldest unfinished goes, or the
			 * listening socket would stay readable and spin the loop. */
			if ((errno == EMFILE || errno == ENFILE) && m->nc) {
				make_room(m);
				continue;
			}
			return; /* EAGAIN: none left; anything else: next time */
		}
		if (m->nc == m->max_conns)
			make_room(m);
		struct conn *c = &m->c[m->nc++];
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->since = m->last = q7_now_ms();
	}
}

/* Reads what has arrived of c's request. 1: complete, 0: more to come,
 * -1: closed, damaged, over the limit or followed by more. */
static int read_conn(struct conn *c)
{
	for (;;) {
		char buf[65536];
		ssize_t n = read(c->fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0)
			return -1;
		q7_sb_addn(&c->in, buf, (size_t)n);
		if (c->in.len < 4)
			continue;
		size_t need = q7_le32(c->in.s);
		if (need > Q7_WIRE_MAX || c->in.len > 4 + need)
			return -1;
		if (c->in.len == 4 + need)
			return 1;
	}
}

/* Hands c's connection (with a byte) and request to w. */
static void hand_over(struct worker *w, const struct conn *c)
{
	struct iovec iov = {"", 1};
	union fd_cmsg u;
	memset(&u, 0, sizeof u);
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
	                     .msg_controllen = sizeof u.buf};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &c->fd, sizeof c->fd);
	ssize_t n;
	while ((n = sendmsg(w->chan, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	/* An idle worker waits in recvmsg on an empty channel: the byte goes
	 * at once, the request as fast as the worker reads it. */
	if (n == 1 && q7_write_all(w->chan, c->in.s, c->in.len,
	                           q7_now_ms() + Q7_SERVER_REPLY_MS) == 0)
		w->busy = true;
	else
		end_worker(w);
}

static void dispatch(struct master *m)
{
	for (int k = 0; k < m->nw; k++) {
		struct worker *w = &m->w[k];
		if (w->chan < 0 || w->busy)
			continue;
		size_t i = 0;
		while (i < m->nc && !m->c[i].ready_at)
			i++;
		if (i == m->nc)
			return;
		hand_over(w, &m->c[i]);
		drop_conn(m, i); /* the worker has its own copy, or the client falls back */
	}
}

/* A worker's news on its channel: a byte per request done, or its end. */
static void worker_news(struct master *m, struct worker *w)
{
	char buf[64];
	ssize_t n;
	while ((n = read(w->chan, buf, sizeof buf)) > 0) {
		w->busy = false;
		m->last = q7_now_ms();
	}
	if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		end_worker(w);
}

static bool any_busy(const struct master *m)
{
	for (int k = 0; k < m->nw; k++)
		if (m->w[k].busy)
			return true;
	return false;
}

static bool still_ours(const struct master *m)
{
	struct stat st;
	return lstat(m->path, &st) == 0 && st.st_ino == m->mine.st_ino && st.st_dev == m->mine.st_dev;
}

/* Whether to end, and when so, the socket removed first. */
static void check_end(struct master *m, long long now)
{
	bool idle = m->nc == 0 && !any_busy(m) && now - m->last >= idle_seconds() * 1000LL;
	bool ours = still_ours(m);
	if (m->stopping ||
	    !(stop_signal || idle || !ours || q7_server_file_key(1, m->plugin) != m->key))
		return;
	m->stopping = true;
	/* New clients now find no socket (and start another server), while
	 * the ones already in the backlog are still served. */
	if (ours)
		unlink(m->path);
}

/* When c goes: its request not whole within Q7_SERVER_REQUEST_MS, or
 * whole but taken by no worker before its client has stopped waiting for
 * the acknowledgement. */
static long long due(const struct conn *c)
{
	return c->ready_at ? c->ready_at + Q7_SERVER_ACK_MS + 1000 : c->since + Q7_SERVER_REQUEST_MS;
}

/* One round: wait for news (at most until the next deadline), then take
 * it in. */
static void round_trip(struct master *m)
{
	size_t nfds = 1 + m->nc + (size_t)m->nw;
	struct pollfd *pf = q7_xcalloc(nfds, sizeof *pf);
	long long now = q7_now_ms();
	long long wake = now + TICK_MS;
	pf[0] = (struct pollfd){.fd = m->lfd, .events = POLLIN};
	for (size_t i = 0; i < m->nc; i++) {
		const struct conn *c = &m->c[i];
		/* A whole request: any news on it means its client has left. */
		pf[1 + i] = (struct pollfd){.fd = c->fd, .events = POLLIN | POLLRDHUP};
		if (due(c) < wake)
			wake = due(c);
	}
	for (int k = 0; k < m->nw; k++)
		pf[1 + m->nc + (size_t)k] = (struct pollfd){.fd = m->w[k].chan, .events = POLLIN};
	int timeout = wake > now ? (int)(wake - now) : 0;
	size_t nc = m->nc;
	if (poll(pf, nfds, timeout) < 0 && errno != EINTR) {
		free(pf);
		return;
	}
	now = q7_now_ms();
	/* Backwards, so that dropping one keeps the others' places. */
	for (size_t i = nc; i-- > 0;) {
		struct conn *c = &m->c[i];
		short ev = pf[1 + i].revents;
		int r = 0;
		if (ev && !c->ready_at)
			r = read_conn(c);
		else if (ev)
			r = -1;
		if (r == 1)
			c->ready_at = now;
		if (r < 0 || now >= due(c))
			drop_conn(m, i);
	}
	for (int k = 0; k < m->nw; k++)
		if (pf[1 + nc + (size_t)k].revents && m->w[k].chan >= 0)
			worker_news(m, &m->w[k]);
	if (pf[0].revents)
		accept_all(m);
	free(pf);
	/* A crashed or ended worker is replaced, one that could not be
	 * started tried again. */
	for (int k = 0; k < m->nw && !m->stopping; k++)
		if (m->w[k].chan < 0)
			start_worker(m, &m->w[k]);
	dispatch(m);
}

static int bind_socket(const char *path)
{
	struct sockaddr_un sa;
	int fd = q7_server_unix_socket(path, &sa, true);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		/* A live server answers; a dead one left its file behind. */
		struct sockaddr_un pa;
		int probe = q7_server_unix_socket(path, &pa, false);
		bool alive = probe >= 0 && connect(probe, (struct sockaddr *)&pa, sizeof pa) == 0;
		int e = errno;
		if (probe >= 0)
			close(probe);
		if (alive || e != ECONNREFUSED || unlink(path) != 0 ||
		    bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
			close(fd);
			return -1;
		}
	}
	if (listen(fd, SOMAXCONN) != 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

/* As many connections as descriptors allow, up to MAX_CONNS. */
static size_t conn_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 64;
	if (rl.rlim_cur < MAX_CONNS + 64 && rl.rlim_max != rl.rlim_cur) {
		rl.rlim_cur = rl.rlim_max < MAX_CONNS + 64 ? rl.rlim_max : MAX_CONNS + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	size_t n = rl.rlim_cur > 64 + MAX_WORKERS ? (size_t)rl.rlim_cur - 64 - MAX_WORKERS : 8;
	return n < MAX_CONNS ? n : MAX_CONNS;
}

static void on_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop; /* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* --detach hands its pipe in as fd 3: one byte (or its end) says the
 * socket is bound, so the compile that started us can queue on it at
 * once instead of loading libclang beside us on the same CPUs. */
static void tell_bound(void)
{
	struct stat st;
	if (fstat(3, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	if (write(3, "", 1) < 0)
		errno = 0; /* the starter is gone: nobody waits */
	close(3);
}

static int serve(const char *path, const char *plugin)
{
	on_signals();
	struct master m = {.path = path, .plugin = plugin, .lfd = -1};
	/* Bound before libclang loads: early clients wait in the backlog. */
	m.lfd = bind_socket(path);
	tell_bound(); /* even when it failed: the starter waits no longer */
	if (m.lfd < 0)
		return 1;
	m.key = q7_server_file_key(1, plugin);
	m.entry = q7_plugin_load(plugin, NULL); /* quiet: nowhere to say why */
	if (!m.entry || lstat(path, &m.mine) != 0 || chdir("/") != 0) {
		unlink(path);
		close(m.lfd);
		return 1;
	}
	/* libclang initialises much on its first parse; done here once, the
	 * workers inherit it instead of each paying for it. */
	struct q7_analysis_opts warm = {.source = "/dev/null", .toolchain = "gnu"};
	struct q7_op_table ops = {0};
	struct q7_diags diags = {0};
	m.entry(Q7_PLUGIN_ABI, &warm, &ops, &diags);
	q7_ops_free(&ops);
	q7_diags_free(&diags);

	m.max_conns = conn_limit();
	m.c = q7_xcalloc(m.max_conns, sizeof *m.c);
	m.nw = nworkers();
	for (int k = 0; k < m.nw; k++) {
		m.w[k].chan = -1;
		start_worker(&m, &m.w[k]);
	}
	m.last = q7_now_ms();
	for (;;) {
		round_trip(&m);
		check_end(&m, q7_now_ms());
		if (m.stopping) {
			if (stop_signal)
				break;
			accept_all(&m); /* the backlog: clients that reached us */
			dispatch(&m);
			if (m.nc == 0 && !any_busy(&m))
				break;
		}
	}
	close(m.lfd);
	while (m.nc)
		drop_conn(&m, m.nc - 1);
	for (int k = 0; k < m.nw; k++) {
		if (m.w[k].busy)
			q7_proc_kill(m.w[k].pid, SIGTERM);
		if (m.w[k].chan >= 0)
			close(m.w[k].chan); /* an idle worker ends on its end */
	}
	q7_proc_wait_all();
	if (still_ours(&m))
		unlink(path);
	free(m.c);
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
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return 1;
	struct q7_proc_opts o = {.session = true, .quiet = true, .fds = &p[1], .nfds = 1};
	pid_t pid = q7_proc_spawn(args, &o);
	close(p[1]);
	if (pid > 0) { /* bound (a byte) or gone (end of file); a stall ends the wait */
		struct pollfd pf = {.fd = p[0], .events = POLLIN};
		char c;
		if (poll(&pf, 1, Q7_SERVER_BIND_MS) == 1 && read(p[0], &c, 1) < 0)
			errno = 0;
	}
	close(p[0]);
	return pid > 0 ? 0 : 1;
}
