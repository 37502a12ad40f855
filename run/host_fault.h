/* run/host_fault: a host kernel's fault, from the signal to the
 * one-line report. The guarded mode (host.c) catches and reports it in
 * this process; the isolated mode's worker (host_iso.c) catches it in the
 * child and leaves the record in memory it shares with its parent, which
 * reports it. The line: docs/runtime.md, "q7-run".
 *
 * Everything the handler runs is async-signal-safe: the record is plain
 * data, the line is formatted without stdio. */
#ifndef Q7_RUN_HOST_FAULT_H
#define Q7_RUN_HOST_FAULT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "q7/frame.h"

/* What a report says; plain data, so it may live in shared memory. */
struct q7_fault {
	char op[Q7_MAX_OP_NAME];  /* "" while listing the ops */
	char image[256];          /* the image's file name (base name) */
	uint32_t core, cores;
	int32_t sig;              /* 0: no fault */
	uint64_t addr;            /* si_addr of SIGSEGV and SIGBUS */
	int32_t wrote;            /* the access wrote: 1, read: 0 (x86-64's error code; else 1) */
	uint64_t pc;              /* the faulting instruction, 0 when unknown */
	uint64_t lo, hi;          /* the image's loaded bytes, 0 when unknown */
};

/* The signal in words: "SIGSEGV (invalid memory access)". */
const char *q7_fault_name(int sig);
/* Sets f's op, image (path's base name), core and cores, and the loaded
 * range of the image that holds entry; clears the signal. */
void q7_fault_prepare(struct q7_fault *f, const char *op, const char *path, const void *entry,
                      unsigned core, unsigned cores);
/* Fills f's sig, addr and pc from a handler's arguments (siginfo_t,
 * ucontext_t). Async-signal-safe. */
void q7_fault_record(struct q7_fault *f, int sig, const void *siginfo, const void *ucontext);
/* The report, NUL-terminated, no newline: "<op>: the kernel crashed[ on
 * core N]: <signal>[, address A[: <where>]], at <image>+<offset>" ("the
 * runtime crashed" for the op list's request, an empty op). where
 * (NULL: none) says what the address is, e.g. a guard page's tensor.
 * Async-signal-safe. Returns its length. */
size_t q7_fault_format(const struct q7_fault *f, const char *where, char *buf, size_t size);
/* The one report a fault handler prints itself, since a process a kernel
 * crashed cannot hand an error back: "<program>: error: " ("fatal: "
 * when the signal then ends the process), before, the report (no where),
 * after, a newline, on stderr. Async-signal-safe. */
void q7_fault_report(const struct q7_fault *f, bool fatal, const char *before, const char *after);

/* Installs handler (an SA_SIGINFO handler, run on the alternate stack)
 * for the fault signals, saving the previous actions in old (Q7_FAULT_NSIG
 * of them) when non-NULL; q7_fault_release puts them back. */
#define Q7_FAULT_NSIG 5
void q7_fault_catch(void (*handler)(int, siginfo_t *, void *), struct sigaction *old);
void q7_fault_release(const struct sigaction *old);
/* The calling thread's alternate signal stack (bytes the caller owns), so
 * that a kernel that overflows its stack is caught too; NULL turns it
 * off. */
void q7_fault_altstack(void *stack, size_t size);

#endif
