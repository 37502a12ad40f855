/* wrapper/proc: every child process q7cc runs.
 *
 * Owns: posix_spawn with argv arrays (never a shell), the one place that
 * decodes a wait status (exit code passes through; death by signal is
 * reported by name and becomes 128+N), the list of live children that
 * SIGINT/SIGTERM/SIGHUP are forwarded to, and capturing a child's output. */
#ifndef Q7_PROC_H
#define Q7_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/* Installs the forwarding handlers; call once before the first spawn. */
void q7_signals_install(void);

/* Starts argv (argv[0] a path, or a name searched on PATH). Returns the
 * pid, or -1 after printing "q7cc: <argv0>: cannot run: <why>". */
pid_t q7_spawn_start(char *const *argv);

/* Waits for pid. Returns its exit status, or 128+N after printing
 * "q7cc: error: <name>: killed by signal SIGxxx (...)". If q7cc itself got
 * a signal meanwhile, cleans up and dies by it. */
int q7_spawn_wait(pid_t pid, const char *name);

/* Waits for any of the running children started by q7_spawn_start; sets
 * *pid and returns its decoded status as q7_spawn_wait does. -1 when no
 * child is running. */
int q7_spawn_wait_any(pid_t *pid, const char *(*name_of)(pid_t, void *), void *ctx);

/* start + wait. */
int q7_spawn_run(char *const *argv);

/* Runs argv with fd (1 or 2) captured into *out (caller frees) and the
 * other output discarded. Returns the decoded status, or -1 (printed). */
int q7_spawn_capture(char *const *argv, int fd, char **out);

/* Sends sig to every running child (used to stop a multicore link). */
void q7_spawn_kill_all(int sig);

/* Dies by the signal q7cc received, if any, after removing temp files. */
void q7_spawn_check_interrupted(void);

#endif
