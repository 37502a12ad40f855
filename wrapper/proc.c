/* Child processes: posix_spawn, wait-status decoding, signal forwarding. */
#include "proc.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_KIDS 64

/* Live children, walked by the signal handler: a slot is 0 or a pid. */
static volatile pid_t kids[MAX_KIDS];
static volatile sig_atomic_t nlive;
static volatile sig_atomic_t got_signal;

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void die_by(int sig)
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

static void on_signal(int sig)
{
	int saved = errno;
	got_signal = sig;
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i] > 0)
			kill(kids[i], sig);
	/* With children running, the waiter dies once they have exited, so no
	 * child writes a file after the temporaries are gone. */
	if (nlive == 0)
		die_by(sig);
	errno = saved;
}

void q7_signals_install(void)
{
	for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* e.g. SIGHUP under nohup: stays ignored */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(forwarded[i], &sa, NULL);
	}
}

void q7_spawn_check_interrupted(void)
{
	if (got_signal)
		die_by(got_signal);
}

static void track(pid_t pid)
{
	for (int i = 0; i < MAX_KIDS; i++) {
		if (kids[i] == 0) {
			kids[i] = pid;
			nlive = nlive + 1;
			return;
		}
	}
	/* More children than slots: they still get the terminal's signals. */
}

static void untrack(pid_t pid)
{
	for (int i = 0; i < MAX_KIDS; i++) {
		if (kids[i] == pid) {
			kids[i] = 0;
			nlive = nlive - 1;
			return;
		}
	}
}

static pid_t start(char *const *argv, posix_spawn_file_actions_t *fa)
{
	pid_t pid;
	/* Blocked while the child is created so the handler never sees a pid
	 * that is not yet tracked. */
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	/* The child starts with q7cc's mask before the block, and with default
	 * handlers for what q7cc catches. */
	posix_spawnattr_setsigmask(&attr, &old);
	sigset_t def;
	sigemptyset(&def);
	for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
		struct sigaction cur;
		if (sigaction(forwarded[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
			sigaddset(&def, forwarded[i]);
	}
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	int rc = posix_spawnp(&pid, argv[0], fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (rc == 0)
		track(pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		q7_error("%s: cannot run: %s", argv[0], strerror(rc));
		return -1;
	}
	return pid;
}

pid_t q7_spawn_start(char *const *argv)
{
	fflush(stdout);
	fflush(stderr);
	return start(argv, NULL);
}

static int decode(int status, const char *name)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);
		/* Our own interrupt killed it: no need to say so. */
		if (sig != got_signal)
			q7_error("%s: killed by signal SIG%s (%s)", name, abbrev ? abbrev : "?",
			         strsignal(sig));
		return 128 + sig;
	}
	return Q7_EXIT_INTERNAL;
}

int q7_spawn_wait(pid_t pid, const char *name)
{
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			q7_error("%s: wait: %s", name, strerror(errno));
			untrack(pid);
			return Q7_EXIT_INTERNAL;
		}
	}
	untrack(pid);
	q7_spawn_check_interrupted();
	return decode(status, name);
}

int q7_spawn_wait_any(pid_t *pid, const char *(*name_of)(pid_t, void *), void *ctx)
{
	if (nlive == 0)
		return -1;
	int status;
	pid_t p;
	while ((p = waitpid(-1, &status, 0)) < 0) {
		if (errno != EINTR)
			return -1;
	}
	untrack(p);
	q7_spawn_check_interrupted();
	*pid = p;
	return decode(status, name_of ? name_of(p, ctx) : "child");
}

void q7_spawn_kill_all(int sig)
{
	for (int i = 0; i < MAX_KIDS; i++)
		if (kids[i] > 0)
			kill(kids[i], sig);
}

int q7_spawn_run(char *const *argv)
{
	pid_t pid = q7_spawn_start(argv);
	if (pid < 0)
		return Q7_EXIT_TOOL;
	return q7_spawn_wait(pid, q7_path_basename(argv[0]));
}

int q7_spawn_capture(char *const *argv, int fd, char **out)
{
	*out = NULL;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		q7_error("pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], fd);
	posix_spawn_file_actions_addopen(&fa, fd == 1 ? 2 : 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid = start(argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	struct q7_strbuf b = {0};
	q7_sb_add(&b, "");
	char chunk[8192];
	for (;;) {
		ssize_t n = read(p[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		q7_sb_addn(&b, chunk, (size_t)n);
	}
	close(p[0]);
	*out = q7_sb_take(&b);
	return q7_spawn_wait(pid, q7_path_basename(argv[0]));
}
