/* support/proc: every child process a q7 tool runs, in one place: started
 * from an argv array (posix_spawnp, never a shell) or forked, tracked in
 * a table a signal handler may walk (proc.c says how a pid signalled is
 * never one reused), waited for, killed, and its status decoded.
 *
 * Signals: once q7_proc_signals_install() ran, SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT are forwarded to every tracked child's process group, and the
 * tool then dies by the signal: docs/driver.md, "Exit status and signals".
 *
 * Never waits for a child it did not start (no waitpid(-1)), except in
 * q7_proc_kill_strays, which a worker process calls to end what the code
 * it runs started behind its back (the run engine's isolated host mode:
 * a kernel that forks). */
#ifndef Q7_PROC_H
#define Q7_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum {
	Q7_PROC_INHERIT = 0, /* a standard fd the child shares with its parent */
	Q7_PROC_NULL = -1,   /* a standard fd opened on /dev/null */
};

/* How a child starts. All zero: inherit fds 0-2, lead its own process
 * group, receive the forwarded signal itself, have its death by a signal
 * reported under the basename of argv[0]. */
struct q7_proc_opts {
	int in, out, err;  /* Q7_PROC_INHERIT, Q7_PROC_NULL, or an fd dup'ed there */
	const int *fds;    /* fds[i] dup'ed to the child's fd 3 + i, in any order */
	size_t nfds;
	const char *dir;   /* non-NULL: the child's working directory */
	bool close_others; /* the child gets no other fd of ours (make's jobserver) */
	bool pristine;     /* empty signal mask, every signal default */
	bool session;      /* a daemon: own session, neither tracked nor waited for */
	bool quiet;        /* no message of ours about it; errors via errno */
	int stop_signal;   /* what a forwarded signal becomes (0: the same one) */
	const char *name;  /* for messages, instead of basename(argv[0]) */
	const char *tmpdir; /* non-NULL: the child's TMPDIR (q7_temp_tool_dir) */
	bool dies_with_us;  /* its group is killed when this process dies, even by
	                     * SIGKILL (a guard process in it: q7_proc_spawn) */
};

/* Results of the waits besides a child's code. */
enum { Q7_PROC_NONE = -1, Q7_PROC_TIMEOUT = -2, Q7_PROC_STOPPED = -3 };

/* Forwards SIGINT/SIGTERM/SIGHUP/SIGQUIT to the children (a signal that
 * was ignored stays ignored, e.g. SIGHUP under nohup). Pairs with
 * q7_proc_signals_restore(); pairs may nest. */
void q7_proc_signals_install(void);
/* While on, a forwarded signal does not wait for the work in hand: the
 * handler waits for the children it forwarded the signal to, removes the
 * temporaries and dies at once. For work whose result is worthless after
 * a signal and that may take long (an analysis in-process, or waiting
 * for the analysis server's answer). */
void q7_proc_signals_abandon(bool on);
/* Puts back the handlers the outermost q7_proc_signals_install() replaced. */
void q7_proc_signals_restore(void);

/* Starts argv (argv[0] a path, or a name searched on PATH); o may be NULL.
 * With o->dies_with_us the child's group is led by a guard forked first,
 * which kills the group (the child and what it started) once this
 * process is gone, however it died; the guard ends when the child is
 * reaped.
 * A command line the kernel refuses as too long (E2BIG) is started again
 * as argv[0] @FILE, FILE a temporary of the rest of its words.
 * A child that reads a terminal on stdin ("-" among its words) stays in
 * our process group. Returns the pid, or -1 with errno set after printing
 * "<argv0>: cannot run: <why>" (unless o->quiet). */
pid_t q7_proc_spawn(char *const *argv, const struct q7_proc_opts *o);
/* fork(), the child tracked (quiet, in our process group, stopped by
 * SIGTERM). In the child (0): nothing tracked, our handlers undone; it
 * must end with _exit(). -1 with errno set on failure. */
pid_t q7_proc_fork(void);

/* The same, the child in a process group of its own: q7_proc_kill and
 * the forwarded signals reach the whole group, so what the child starts
 * behind our back goes with it. A guard leads the group, as for
 * dies_with_us: the group dies with this process, even by SIGKILL. */
pid_t q7_proc_fork_group(void);
/* Stops tracking pid without waiting for it: a child of the process this
 * one was forked from, which is not this process's own. */
void q7_proc_forget(pid_t pid);

/* For a worker process whose code may start processes behind our back
 * (a kernel that forks): makes this process the reaper of its orphaned
 * descendants (PR_SET_CHILD_SUBREAPER). */
void q7_proc_reap_orphans(void);
/* Kills (SIGKILL) and reaps every child of this process that is not
 * tracked, and the orphans that then come to it, until none is left.
 * Returns how many were reaped. */
int q7_proc_kill_strays(void);

/* Waits until fd is readable (or at its end) or the tracked child pid has
 * exited (it stays to be reaped by q7_proc_wait), for at most timeout_s
 * seconds (< 0: no limit). 1: fd is readable; 0: pid exited;
 * Q7_PROC_TIMEOUT. */
int q7_proc_wait_fd(pid_t pid, int fd, double timeout_s);

/* Waits for the tracked child pid. Returns its code (q7_proc_code), or
 * Q7_EXIT_INTERNAL if pid is not tracked; *status (when non-NULL) gets the
 * raw wait status. */
int q7_proc_wait(pid_t pid, int *status);
/* Waits for the first of pids[0..n) to exit (of every tracked child when
 * pids is NULL), for at most timeout_s seconds (< 0: no limit, 0: only
 * one that already exited). Sets *pid (and *status) and returns its code;
 * or Q7_PROC_NONE (none of them running) or Q7_PROC_TIMEOUT. */
int q7_proc_wait_any(const pid_t *pids, size_t n, double timeout_s, pid_t *pid, int *status);
/* Waits for every tracked child. Returns 0, or the first non-zero code. */
int q7_proc_wait_all(void);

/* Sends sig to the tracked child pid (its process group). Its death by
 * sig is then not reported. */
void q7_proc_kill(pid_t pid, int sig);
/* q7_proc_kill of every tracked child. */
void q7_proc_kill_all(int sig);
/* How many children are tracked. */
int q7_proc_running(void);

/* The decoder: exit code N gives N, death by signal N gives 128+N. */
int q7_proc_code(int status);
/* The same in words: "exit status N", "killed by signal SIGSEGV
 * (Segmentation fault)". */
void q7_proc_describe(int status, char *buf, size_t size);

/* Runs argv with fd (1 or 2) captured into *out (caller frees), the other
 * output and stdin on /dev/null. Returns its code, or -1 (printed). */
int q7_proc_capture(char *const *argv, int fd, char **out);
/* q7_proc_capture, the child dying with this process (dies_with_us) and,
 * when stop is non-NULL, killed within a quarter of a second once *stop is
 * set (the caller's Ctrl-C): then Q7_PROC_STOPPED. */
int q7_proc_capture_until(char *const *argv, int fd, char **out, const volatile sig_atomic_t *stop);

#endif
