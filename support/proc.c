/* Child processes: spawn and fork, the table of tracked children, the
 * waits, kill, the status decoder, and signal forwarding (proc.h).
 *
 * The table is walked by the signal handler. Every change to it happens
 * with the forwarded signals blocked, and a child leaves it only once it
 * has exited: waitid(WNOWAIT) sees the exit and leaves a zombie, whose pid
 * cannot be reused, then the slot is freed and the zombie reaped with the
 * signals blocked. Waiting for several children at once sleeps in
 * sigtimedwait() on SIGCHLD, never in waitpid(-1), so a child someone else
 * started is never reaped here. */
#include "bytes.h"
#include "proc.h"
#include "support.h"
#include "tempfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_KIDS 64
/* Longest sleep between looks at the children, should SIGCHLD go to
 * another thread of a program that embeds us. */
#define NAP_S 0.25
/* Between looks at a child while waiting for its descriptor. */
#define FD_NAP_S 0.02

struct child {
	pid_t pid;       /* 0: a free slot */
	pid_t target;    /* where signals go: -pid (its process group) or pid */
	int stop_signal; /* what a forwarded signal becomes; 0: the same one */
	int stopped_by;  /* a signal q7_proc_kill sent it */
	pid_t guard;     /* > 0: leads its group, ends it once we are gone */
	int guard_fd;    /* the guard's pipe, which only we write to */
	bool quiet;
	char name[48];
};

static struct child kids[MAX_KIDS];
static volatile sig_atomic_t nlive;
static volatile sig_atomic_t got_signal;
static bool dying;

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFWD (sizeof forwarded / sizeof forwarded[0])
static struct sigaction saved[NFWD];
static int installed; /* install/restore pairs may nest */

static void block_forwarded(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < NFWD; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_mask(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static bool exited(pid_t pid, bool block);
static void interrupted(void);

/* Temporaries removed, then death by sig. Async-signal-safe. */
Q7_NORETURN static void die_by(int sig)
{
	q7_temp_cleanup_from_signal();
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* Set while the process does work it may abandon (q7_proc_signals_abandon). */
static volatile sig_atomic_t abandonable;

static void on_signal(int sig)
{
	int saved_errno = errno;
	if (!got_signal)
		got_signal = sig;
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i].pid > 0)
			kill(kids[i].target, kids[i].stop_signal ? kids[i].stop_signal : sig);
	/* With children running, the waiter dies once they all have exited,
	 * so no child writes a file after the temporaries are gone. Work
	 * that may be abandoned (an analysis, which may take minutes) is not
	 * waited for: the children are, here, then the process dies. */
	if (abandonable) {
		for (int i = 0; i < MAX_KIDS; i++)
			if (kids[i].pid > 0)
				exited(kids[i].pid, true);
		die_by(sig);
	}
	if (nlive == 0)
		die_by(sig);
	errno = saved_errno;
}

void q7_proc_signals_abandon(bool on)
{
	abandonable = on;
	/* A signal that came before: die now rather than finish the work. */
	if (on && got_signal)
		interrupted();
}

/* handler for the forwarded signals (each blocking the others), the
 * dispositions they had kept in old[]. */
static void handle_forwarded(void (*handler)(int), struct sigaction *old)
{
	for (size_t i = 0; i < NFWD; i++) {
		sigaction(forwarded[i], NULL, &old[i]);
		if (old[i].sa_handler == SIG_IGN)
			continue; /* e.g. SIGHUP under nohup: stays ignored */
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = handler;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < NFWD; k++)
			sigaddset(&sa.sa_mask, forwarded[k]);
		sigaction(forwarded[i], &sa, NULL);
	}
}

void q7_proc_signals_install(void)
{
	if (installed++ == 0)
		handle_forwarded(on_signal, saved);
}

/* tempfile.h's, here for die_by. */
void q7_temp_cleanup_on_signals(void)
{
	struct sigaction old[NFWD];
	handle_forwarded(die_by, old);
}

void q7_proc_signals_restore(void)
{
	if (installed == 0 || --installed > 0)
		return;
	for (size_t i = 0; i < NFWD; i++)
		sigaction(forwarded[i], &saved[i], NULL);
}

/* Children are waited for: SIGCHLD must not be ignored (then the kernel
 * reaps them) and must be generated for sigtimedwait. */
static void want_sigchld(void)
{
	static bool done;
	struct sigaction sa;
	if (done || sigaction(SIGCHLD, NULL, &sa) != 0)
		return;
	if (sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT)) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
	}
	done = true;
}

/* Before a new child: none once q7 is to die, SIGCHLD wanted, nothing
 * buffered that the child would write again. */
static void before_child(void)
{
	interrupted();
	want_sigchld();
	fflush(stdout);
	fflush(stderr);
}

static int free_slot(void)
{
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i].pid == 0)
			return i;
	return -1;
}

static int find(pid_t pid)
{
	for (int i = 0; pid > 0 && i < MAX_KIDS; i++)
		if (kids[i].pid == pid)
			return i;
	return -1;
}

/* Called with the forwarded signals blocked. */
static void track(int slot, pid_t pid, pid_t pgid, const struct q7_proc_opts *o, const char *name,
                  pid_t guard, int guard_fd)
{
	struct child *c = &kids[slot];
	memset(c, 0, sizeof *c);
	c->target = pgid ? -pgid : pid;
	c->stop_signal = o->stop_signal;
	c->quiet = o->quiet;
	snprintf(c->name, sizeof c->name, "%s", name);
	c->guard = guard > 0 ? guard : 0;
	c->guard_fd = guard_fd;
	c->pid = pid;
	nlive = nlive + 1;
}

/* Closes our end of a guard's pipe: the guard kills its group (itself,
 * and whatever the child left behind); then reaps it. */
static void end_guard(pid_t guard, int fd)
{
	close(fd);
	while (waitpid(guard, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Whether pid has exited (it stays a zombie; gone: someone else reaped
 * it); with block, once it has. */
static bool exited(pid_t pid, bool block)
{
	siginfo_t si;
	do {
		memset(&si, 0, sizeof si);
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) == 0)
			return si.si_pid == pid;
	} while (block && errno == EINTR);
	return errno == ECHILD;
}

/* Frees slot and reaps its child (which has exited) with the forwarded
 * signals blocked. The raw status, or -1 with errno set. */
static int reap(int slot)
{
	sigset_t old;
	block_forwarded(&old);
	pid_t pid = kids[slot].pid;
	int st = 0, e = 0;
	pid_t r;
	while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (r != pid) {
		e = errno;
		st = -1;
	}
	kids[slot].pid = 0;
	nlive = nlive - 1;
	if (kids[slot].guard > 0)
		end_guard(kids[slot].guard, kids[slot].guard_fd);
	kids[slot].guard = 0;
	restore_mask(&old);
	errno = e;
	return st;
}

/* After a signal: every child has had it; wait for them all, then die. */
static void interrupted(void)
{
	if (!got_signal || dying)
		return;
	dying = true;
	for (int i = 0; i < MAX_KIDS; i++) {
		if (kids[i].pid > 0) {
			exited(kids[i].pid, true);
			reap(i);
		}
	}
	die_by(got_signal);
}

int q7_proc_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return Q7_EXIT_INTERNAL;
}

void q7_proc_describe(int status, char *buf, size_t size)
{
	if (WIFEXITED(status)) {
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, size, "killed by signal SIG%s (%s)", abbrev ? abbrev : "?",
		         strsignal(WTERMSIG(status)));
	} else {
		snprintf(buf, size, "wait status 0x%x", (unsigned)status);
	}
}

/* Reaps slot's child, reports its death by a signal, returns its code;
 * dies instead when q7 itself got a signal. */
static int finish(int slot, int *status)
{
	struct child c = kids[slot];
	int st = reap(slot);
	int e = errno;
	if (status)
		*status = st;
	interrupted();
	if (st == -1) {
		if (!c.quiet)
			q7_error("%s: wait: %s", c.name, strerror(e));
		return Q7_EXIT_INTERNAL;
	}
	if (WIFSIGNALED(st) && !c.quiet && WTERMSIG(st) != c.stopped_by) {
		char how[96];
		q7_proc_describe(st, how, sizeof how);
		q7_error("%s: %s", c.name, how);
	}
	return q7_proc_code(st);
}

static int redirect(posix_spawn_file_actions_t *fa, int fd, int how)
{
	if (how == Q7_PROC_INHERIT)
		return 0;
	if (how == Q7_PROC_NULL)
		return posix_spawn_file_actions_addopen(fa, fd, "/dev/null",
		                                        fd == 0 ? O_RDONLY : O_WRONLY, 0);
	return posix_spawn_file_actions_adddup2(fa, how, fd);
}

/* A child given "-" reads stdin; when that is a terminal it must stay in
 * the terminal's foreground group (ours), or reading would stop it. */
static bool reads_terminal(char *const *argv, const struct q7_proc_opts *o)
{
	if (o->in != Q7_PROC_INHERIT)
		return false;
	for (char *const *a = argv; *a; a++)
		if (strcmp(*a, "-") == 0)
			return isatty(0);
	return false;
}

static bool writes_terminal(const struct q7_proc_opts *o)
{
	return (o->out == Q7_PROC_INHERIT && isatty(1)) || (o->err == Q7_PROC_INHERIT && isatty(2));
}

/* Fills attr: the signal mask and defaults the child starts with, its
 * process group or session. */
static int set_attr(posix_spawnattr_t *attr, const sigset_t *mask, bool group, pid_t pgid,
                    const struct q7_proc_opts *o)
{
	sigset_t none, def;
	sigemptyset(&none);
	sigemptyset(&def);
	if (o->pristine) {
		sigfillset(&def);
	} else {
		/* What q7 catches goes back to the default; what it ignores
		 * stays ignored, as it would under a plain exec. */
		for (size_t i = 0; i < NFWD; i++) {
			struct sigaction cur;
			if (sigaction(forwarded[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
				sigaddset(&def, forwarded[i]);
		}
	}
	short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
	if (group)
		flags |= POSIX_SPAWN_SETPGROUP;
	if (o->session)
		flags |= POSIX_SPAWN_SETSID;
	int e = posix_spawnattr_setsigmask(attr, o->pristine ? &none : mask);
	if (!e)
		e = posix_spawnattr_setsigdefault(attr, &def);
	if (!e && group)
		e = posix_spawnattr_setpgroup(attr, pgid);
	if (!e)
		e = posix_spawnattr_setflags(attr, flags);
	return e;
}

/* The guard of a child that dies with us (o->dies_with_us), and why
 * neither plain alternative serves: docs/robustness.md, "Interrupted
 * compiles". Forked before the child, so there is no moment when the
 * child runs unguarded. Returns the guard's pid and sets *wfd, or -1 with
 * errno. */
static pid_t start_guard(int *wfd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		/* Async-signal-safe calls only: the parent may have threads. A
		 * signal forwarded to the group must not end the guard first. */
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		setpgid(0, 0);
		/* No other descriptor of ours: another guard's pipe kept open
		 * here would hide our death from that guard. */
		int r = p[0];
		close(p[1]);
		if (r > 3)
			close_range(3, (unsigned)r - 1, 0);
		close_range((unsigned)r + 1, ~0U, 0);
		char c;
		while (read(r, &c, 1) < 0 && errno == EINTR)
			;
		kill(0, SIGKILL);
		_exit(0);
	}
	int e = errno;
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		errno = e;
		return -1;
	}
	setpgid(pid, pid); /* both sides: the child joins it at once */
	*wfd = p[1];
	return pid;
}

/* environ with TMPDIR=dir in place of its own (envp[0], then the rest;
 * the caller frees envp[0] and envp). */
static char **env_with_tmpdir(const char *dir)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **envp = q7_xcalloc(n + 2, sizeof *envp);
	size_t k = 0;
	envp[k++] = q7_xasprintf("TMPDIR=%s", dir);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "TMPDIR=", 7) != 0)
			envp[k++] = environ[i];
	return envp;
}

/* The child's stdin, stdout and stderr as o says, its fds 3 on from
 * o->fds, the others closed when o asks, and its working directory; 0 or
 * an errno. A source that is itself one of the numbers 3 to 3 + nfds - 1
 * (and not its own target) is first copied above them into held[i]
 * (closed by release_fds), so that no dup2 clobbers another's source. */
static int child_fds(posix_spawn_file_actions_t *fa, const struct q7_proc_opts *o, int *held)
{
	int e = redirect(fa, 0, o->in);
	if (!e)
		e = redirect(fa, 1, o->out);
	if (!e)
		e = redirect(fa, 2, o->err);
	int top = 3 + (int)o->nfds;
	for (size_t i = 0; !e && i < o->nfds; i++) {
		int from = o->fds[i];
		if (from >= 3 && from < top && from != 3 + (int)i) {
			held[i] = fcntl(from, F_DUPFD_CLOEXEC, top);
			from = held[i];
			e = from < 0 ? errno : 0;
		}
		if (!e)
			e = posix_spawn_file_actions_adddup2(fa, from, 3 + (int)i);
	}
	if (!e && o->close_others)
		e = posix_spawn_file_actions_addclosefrom_np(fa, top);
	if (!e && o->dir)
		e = posix_spawn_file_actions_addchdir_np(fa, o->dir);
	return e;
}

/* Undoes child_fds once the child is started (or was not). */
static void release_fds(posix_spawn_file_actions_t *fa, int *held, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (held[i] >= 0)
			close(held[i]);
	free(held);
	posix_spawn_file_actions_destroy(fa);
}

/* argv started as argv[0] @FILE when the kernel refused the command line
 * as too long (E2BIG: a CMake link of thousands of objects, which reached
 * q7cc as a response file): FILE, a temporary, holds the rest of its
 * words, one a line, with blanks, quotes and backslashes escaped, as
 * libiberty's buildargv reads them back (GCC's driver, GNU ld and ar,
 * clang and the vendor's tools all read @file so). 0 or an errno. */
static int spawn_with_response_file(pid_t *pid, char *const *argv,
                                    const posix_spawn_file_actions_t *fa,
                                    const posix_spawnattr_t *attr, char **envp)
{
	static unsigned serial;
	struct q7_strbuf b = {0};
	for (char *const *w = argv + 1; *w; w++) {
		if (!**w)
			q7_sb_add(&b, "\"\"");
		for (const char *c = *w; *c; c++) {
			if (strchr(" \t\n\r\f\v'\"\\", *c))
				q7_sb_addc(&b, '\\');
			q7_sb_addc(&b, *c);
		}
		q7_sb_addc(&b, '\n');
	}
	char *path = q7_xasprintf("%s/args.%u.rsp", q7_temp_dir(), serial++);
	char *at = q7_xasprintf("@%s", path);
	char *short_argv[] = {argv[0], at, NULL};
	const char *what;
	int e = q7_outfile_write(path, b.s, b.len, 0600, &what) == 0 ? 0 : errno;
	if (!e) {
		q7_temp_register(path);
		e = posix_spawnp(pid, argv[0], fa, attr, short_argv, envp);
	}
	free(at);
	free(path);
	q7_sb_free(&b);
	return e;
}

pid_t q7_proc_spawn(char *const *argv, const struct q7_proc_opts *o)
{
	static const struct q7_proc_opts plain;
	if (!o)
		o = &plain;
	before_child();
	bool group = !o->session && !reads_terminal(argv, o);
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	int *held = q7_xcalloc(o->nfds + 1, sizeof *held);
	memset(held, -1, (o->nfds + 1) * sizeof *held);
	int e = child_fds(&fa, o, held);
	/* Blocked while the child is created and entered, so the handler
	 * never misses a child nor sees half an entry. */
	sigset_t old;
	block_forwarded(&old);
	int slot = o->session ? -1 : free_slot();
	if (!e && !o->session && slot < 0)
		e = EAGAIN;
	int guard_fd = -1;
	pid_t guard = 0;
	if (!e && group && o->dies_with_us && (guard = start_guard(&guard_fd)) < 0)
		e = errno;
	if (!e)
		e = set_attr(&attr, &old, group, guard > 0 ? guard : 0, o);
	/* A child in its own group writes to our terminal from the
	 * background: under "stty tostop" SIGTTOU would stop it, unless it
	 * ignores that (a disposition the child inherits). */
	struct sigaction ttou, ign;
	bool ignore_ttou = group && !o->pristine && writes_terminal(o) &&
	                   sigaction(SIGTTOU, NULL, &ttou) == 0 && ttou.sa_handler == SIG_DFL;
	if (ignore_ttou) {
		memset(&ign, 0, sizeof ign);
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGTTOU, &ign, NULL);
	}
	char **envp = o->tmpdir ? env_with_tmpdir(o->tmpdir) : environ;
	pid_t pid = -1;
	if (!e)
		e = posix_spawnp(&pid, argv[0], &fa, &attr, argv, envp);
	if (e == E2BIG && argv[1])
		e = spawn_with_response_file(&pid, argv, &fa, &attr, envp);
	if (envp != environ) {
		free(envp[0]);
		free(envp);
	}
	if (ignore_ttou)
		sigaction(SIGTTOU, &ttou, NULL);
	if (e && guard > 0)
		end_guard(guard, guard_fd);
	if (!e && !o->session)
		track(slot, pid, !group ? 0 : guard > 0 ? guard : pid, o,
		      o->name ? o->name : q7_path_basename(argv[0]), guard, guard_fd);
	restore_mask(&old);
	posix_spawnattr_destroy(&attr);
	release_fds(&fa, held, o->nfds);
	if (e) {
		if (!o->quiet)
			q7_error("%s: cannot run: %s", argv[0], strerror(e));
		errno = e;
		return -1;
	}
	return pid;
}

static pid_t fork_tracked(bool group)
{
	before_child();
	sigset_t old;
	block_forwarded(&old);
	int slot = free_slot();
	if (slot < 0) {
		restore_mask(&old);
		errno = EAGAIN;
		return -1;
	}
	/* A group of its own is led by a guard, as a spawned child that dies
	 * with us: so the worker (and what it forks) dies with this process
	 * however it dies, kill -9 included, and whatever thread forked it. */
	int guard_fd = -1;
	pid_t guard = 0;
	if (group && (guard = start_guard(&guard_fd)) < 0) {
		int ge = errno;
		restore_mask(&old);
		errno = ge;
		return -1;
	}
	pid_t lead = guard > 0 ? guard : 0;
	pid_t pid = fork();
	int e = errno;
	/* Both sides set the group, so neither may act before it is set. */
	if (pid > 0 && group)
		setpgid(pid, lead);
	if (pid == 0) {
		if (group)
			setpgid(0, lead);
		if (guard_fd >= 0)
			close(guard_fd); /* its own guard's pipe: only the parent holds it */
		/* The parent's children and handlers are not the child's; nor
		 * its guards' pipes, which would hide the parent's death. */
		for (int i = 0; i < MAX_KIDS; i++)
			if (kids[i].pid > 0 && kids[i].guard > 0)
				close(kids[i].guard_fd);
		memset(kids, 0, sizeof kids);
		nlive = 0;
		got_signal = 0;
		if (installed) {
			installed = 1;
			q7_proc_signals_restore();
		}
	} else if (pid > 0) {
		static const struct q7_proc_opts worker = {.quiet = true};
		track(slot, pid, group ? lead : 0, &worker, "worker", guard, guard_fd);
	} else if (guard > 0) {
		end_guard(guard, guard_fd);
	}
	restore_mask(&old);
	errno = e;
	return pid;
}

pid_t q7_proc_fork(void)
{
	return fork_tracked(false);
}

pid_t q7_proc_fork_group(void)
{
	return fork_tracked(true);
}

void q7_proc_forget(pid_t pid)
{
	sigset_t old;
	block_forwarded(&old);
	int slot = find(pid);
	if (slot >= 0) {
		/* our copy of its guard's pipe would keep the guard from
		 * seeing the death of the process that started it */
		if (kids[slot].guard > 0)
			close(kids[slot].guard_fd);
		kids[slot].pid = 0;
		kids[slot].guard = 0;
		nlive = nlive - 1;
	}
	restore_mask(&old);
}

void q7_proc_reap_orphans(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* This process's children (of every thread), from /proc; at most max. */
static size_t list_children(pid_t *out, size_t max)
{
	size_t n = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *t;
	while (d && (t = readdir(d)) != NULL && n < max) {
		if (t->d_name[0] == '.')
			continue;
		char path[300];
		snprintf(path, sizeof path, "/proc/self/task/%.32s/children", t->d_name);
		FILE *f = fopen(path, "re");
		long v;
		while (f && n < max && fscanf(f, "%ld", &v) == 1)
			out[n++] = (pid_t)v;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

int q7_proc_kill_strays(void)
{
	int reaped = 0;
	pid_t found[256];
	/* Each round kills what is there; their orphans come to us (the
	 * reaper) and are found by the next. */
	for (int round = 0; round < 64; round++) {
		size_t n = list_children(found, sizeof found / sizeof found[0]), strays = 0;
		for (size_t i = 0; i < n; i++) {
			if (find(found[i]) >= 0)
				continue;
			found[strays++] = found[i];
			kill(found[i], SIGKILL);
		}
		if (strays == 0)
			break;
		for (size_t i = 0; i < strays; i++) {
			int st;
			while (waitpid(found[i], &st, 0) < 0 && errno == EINTR)
				;
			reaped++;
		}
	}
	return reaped;
}

int q7_proc_wait_fd(pid_t pid, int fd, double timeout_s)
{
	/* Data wakes the poll at once; an exit is seen at the next look, so
	 * within one nap (no pidfd: valgrind has none, and a forked child of
	 * the child may hold fd open after pid is gone). */
	double end = timeout_s >= 0 ? q7_now_s() + timeout_s : 0;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	for (;;) {
		if (fd >= 0 && poll(&p, 1, 0) > 0 && p.revents)
			return 1;
		if (exited(pid, false))
			return 0;
		double nap = FD_NAP_S;
		if (timeout_s >= 0) {
			double left = end - q7_now_s();
			if (left <= 0)
				return Q7_PROC_TIMEOUT;
			nap = left < nap ? left : nap;
		}
		p.revents = 0;
		poll(&p, fd >= 0 ? 1 : 0, (int)(nap * 1000) + 1);
	}
}

int q7_proc_wait(pid_t pid, int *status)
{
	int slot = find(pid);
	if (slot < 0) {
		q7_error("wait: process %d is not a child q7 tracks", (int)pid);
		return Q7_EXIT_INTERNAL;
	}
	exited(pid, true);
	return finish(slot, status);
}

static bool among(pid_t pid, const pid_t *pids, size_t n)
{
	if (!pids)
		return true;
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}


int q7_proc_wait_any(const pid_t *pids, size_t n, double timeout_s, pid_t *pid, int *status)
{
	/* SIGCHLD blocked: one that comes between a look and the sleep stays
	 * pending and ends the sleep at once. */
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	double end = timeout_s > 0 ? q7_now_s() + timeout_s : 0;
	int slot = -1;
	bool any;
	for (;;) {
		any = false;
		for (int i = 0; i < MAX_KIDS && slot < 0; i++) {
			if (kids[i].pid <= 0 || !among(kids[i].pid, pids, n))
				continue;
			any = true;
			if (exited(kids[i].pid, false))
				slot = i;
		}
		if (slot >= 0 || !any || timeout_s == 0)
			break;
		double nap = NAP_S;
		if (timeout_s > 0) {
			double left = end - q7_now_s();
			if (left <= 0)
				break;
			nap = left < nap ? left : nap;
		}
		struct timespec ts = {(time_t)nap, (long)((nap - (double)(time_t)nap) * 1e9)};
		sigtimedwait(&chld, NULL, &ts); /* a child, a time-out or a forwarded signal */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (slot < 0)
		return any ? Q7_PROC_TIMEOUT : Q7_PROC_NONE;
	*pid = kids[slot].pid;
	return finish(slot, status);
}

int q7_proc_wait_all(void)
{
	int first = 0;
	for (int i = 0; i < MAX_KIDS; i++) {
		if (kids[i].pid <= 0)
			continue;
		exited(kids[i].pid, true);
		int code = finish(i, NULL);
		if (code && !first)
			first = code;
	}
	return first;
}

static void kill_slot(int slot, int sig)
{
	kids[slot].stopped_by = sig;
	kill(kids[slot].target, sig);
}

void q7_proc_kill(pid_t pid, int sig)
{
	int slot = find(pid);
	if (slot >= 0)
		kill_slot(slot, sig);
}

void q7_proc_kill_all(int sig)
{
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i].pid > 0)
			kill_slot(i, sig);
}

int q7_proc_running(void)
{
	return nlive;
}

static int capture(char *const *argv, int fd, char **out, bool guard,
                   const volatile sig_atomic_t *stop)
{
	*out = NULL;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		q7_error("pipe: %s", strerror(errno));
		return -1;
	}
	struct q7_proc_opts o = {.in = Q7_PROC_NULL, .out = Q7_PROC_NULL, .err = Q7_PROC_NULL,
	                         .dies_with_us = guard};
	if (fd == 1)
		o.out = p[1];
	else
		o.err = p[1];
	pid_t pid = q7_proc_spawn(argv, &o);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	char chunk[8192];
	bool stopped = false;
	for (;;) {
		if (stop && *stop) {
			q7_proc_kill(pid, SIGKILL);
			stopped = true;
			break;
		}
		/* With stop: a nap, or EINTR, and *stop is looked at again. */
		struct pollfd pf = {.fd = p[0], .events = POLLIN};
		if (stop && poll(&pf, 1, 250) <= 0)
			continue;
		ssize_t n = read(p[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		q7_sb_addn(&b, chunk, (size_t)n);
	}
	close(p[0]);
	*out = q7_sb_take(&b);
	int code = q7_proc_wait(pid, NULL);
	return stopped ? Q7_PROC_STOPPED : code;
}

int q7_proc_capture(char *const *argv, int fd, char **out)
{
	return capture(argv, fd, out, false, NULL);
}

int q7_proc_capture_until(char *const *argv, int fd, char **out, const volatile sig_atomic_t *stop)
{
	return capture(argv, fd, out, true, stop);
}
