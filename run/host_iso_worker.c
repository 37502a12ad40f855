/* run/host_iso_worker: the isolated host mode's worker process: it
 * loads the images, lists their ops, and runs each call's cores on the
 * shared region's frames, guarding the pages around the tensors; it ends
 * only by _exit (host_iso.c's header says when). */
#include "host_iso_int.h"
#include "host_fault.h"
#include "host_int.h"
#include "result.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proc.h"
#include "support.h"

/* The worker's own state (its copy of the parent's memory). */
static struct {
	pid_t pid;
	struct ctl *ctl;
	int fd;
	unsigned char *base;
	size_t reserve;
	size_t page;
	uint64_t used;          /* where the guarded rest begins; 0: none yet */
	struct q7_slot slots[Q7_MAX_SLOTS]; /* the last call's, guarded */
	unsigned nslots;
	struct q7_host_images images;
	uintptr_t stack_low;
} w;

static void on_worker_fault(int sig, siginfo_t *si, void *uc)
{
	if (getpid() != w.pid) /* a process the kernel forked */
		_exit(128 + sig);
	q7_fault_record(&w.ctl->fault, sig, si, uc);
	w.ctl->end = END_FAULT;
	_exit(Q7_EXIT_ERROR);
}

/* exit() in a kernel: recorded, then _exit, so that the atexit handlers
 * and destructors this process inherited (Python's, q7-run's temporary
 * files) never run here. */
static void on_worker_exit(int status, void *arg)
{
	(void)arg;
	if (getpid() == w.pid) {
		w.ctl->exit_status = status;
		w.ctl->end = END_EXIT;
	}
	fflush(stdout); /* what the kernel printed first, as exit would */
	_exit(status);
}

/* In a process a kernel forks: the shared region becomes inaccessible,
 * so the child cannot write into the call's tensors, heap arena or frames
 * beside its parent (its first touch faults, and on_worker_fault ends
 * it); what it does in its own memory is its business. */
static void worker_forked(void)
{
	mprotect(w.base, w.reserve, PROT_NONE);
}

static void worker_notify(uint32_t seq)
{
	if (send(w.fd, &seq, sizeof seq, MSG_NOSIGNAL) != (ssize_t)sizeof seq) {
		/* The parent is gone, or the kernel closed (or replaced) the
		 * descriptor: the parent, if there, reads why in the region. */
		w.ctl->end = END_LOST;
		_exit(Q7_EXIT_INTERNAL);
	}
}

/* The guard after each slot of the last call (gap: its protection, -1:
 * left) and an input's pages (in: theirs). */
static void guard(int gap, int in)
{
	for (unsigned i = 0; i < w.nslots; i++) {
		const struct q7_slot *sl = &w.slots[i];
		uint64_t start = sl->data & ~(uint64_t)(w.page - 1);
		if (gap >= 0)
			mprotect(w.base + sl->end, GUARD_GAP, gap);
		if (sl->arg >= 0 && sl->end > start)
			mprotect(w.base + start, sl->end - start, in);
	}
}

/* The guard pages as the call lays them out (the inputs' slots
 * read-only: a write into one faults at its byte), and the rest of the
 * region past the layout. Made inaccessible again at every call, layout
 * the same or not: a kernel may have opened one with mprotect, and the
 * next call's overrun would then go unseen. */
static void worker_layout(void)
{
	struct ctl *c = w.ctl;
	if (c->used != w.used && w.used)
		mprotect(w.base + w.used, w.reserve - w.used, PROT_READ | PROT_WRITE);
	if (c->used < w.reserve)
		mprotect(w.base + c->used, w.reserve - c->used, PROT_NONE);
	w.used = c->used;
	unsigned n = c->nslots < Q7_MAX_SLOTS ? c->nslots : Q7_MAX_SLOTS;
	bool same = w.nslots == n && memcmp(w.slots, c->slots, n * sizeof c->slots[0]) == 0;
	guard(same ? -1 : PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE);
	w.nslots = n;
	memcpy(w.slots, c->slots, n * sizeof w.slots[0]);
	mprotect(w.base + c->heap + c->heap_size, GUARD_GAP, PROT_NONE);
	guard(PROT_NONE, PROT_READ);
}

static void worker_run(void)
{
	struct ctl *c = w.ctl;
	worker_layout();
	if (c->time_limit > 0)
		alarm((unsigned)ceil(c->time_limit) + 2);
	for (unsigned core = 0; core < c->ncores; core++) {
		struct q7_frame *f = &c->frames[core];
		c->core = core;
		c->fault = w.images.faults[core];
		snprintf(c->fault.op, sizeof c->fault.op, "%s", f->op);
		f->stack_limit = q7_host_stack_limit(w.stack_low);
		w.images.entries[core](f);
		if (getpid() != w.pid) /* the kernel forked, and this is the child */
			_exit(0);
		if (f->status != Q7_STATUS_OK)
			break;
	}
	alarm(0);
	/* The kernel's printf goes through this process's stdio. */
	fflush(stdout);
	q7_proc_kill_strays();
}

/* The op list into the control block, for the names of arguments in
 * messages (left empty when it does not fit). */
static void worker_list(void)
{
	struct ctl *c = w.ctl;
	struct q7_frame *f = &c->frames[0];
	struct q7_tensor_desc dst;
	memset(&dst, 0, sizeof dst);
	dst.dtype = Q7_DTYPE_UINT8;
	dst.ndim = 1;
	dst.sizes[0] = LIST_ROOM - 1;
	dst.strides[0] = 1;
	dst.data = (uint64_t)(uintptr_t)c->list;
	c->state = ST_LISTING;
	c->core = 0;
	q7_run_frame_fill(f, "", 0, NULL, &dst, 0, 1);
	f->heap_base = (uint64_t)(uintptr_t)(w.base + c->heap);
	f->heap_size = c->heap_size;
	f->stack_limit = q7_host_stack_limit(w.stack_low);
	w.images.entries[0](f);
	if (f->status == Q7_STATUS_OK && f->out.sizes[0] < LIST_ROOM)
		c->list[f->out.sizes[0]] = 0;
	else
		c->list[0] = 0;
}

void q7_iso_worker_main(struct q7_iso *s, int fd)
{
	static const int deflt[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGCHLD};
	w.pid = getpid();
	w.ctl = s->ctl;
	w.fd = fd;
	w.base = s->base;
	w.reserve = s->reserve;
	w.page = s->page;
	w.stack_low = q7_host_stack_low();
	/* The parent's handlers (Python's, say) are not the worker's. */
	for (size_t i = 0; i < sizeof deflt / sizeof deflt[0]; i++)
		signal(deflt[i], SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	q7_proc_reap_orphans();
	pthread_atfork(NULL, NULL, worker_forked);
	void *alt = mmap(NULL, Q7_ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	q7_fault_altstack(alt == MAP_FAILED ? NULL : alt, Q7_ALT_STACK);
	q7_fault_catch(on_worker_fault, NULL);
	struct ctl *c = w.ctl;
	c->state = ST_LOADING;
	char err[Q7_MESSAGE_SIZE];
	if (q7_host_images_load(&w.images, s->cores, s->paths, &c->core, &Q7_ERR_OF(err)) != 0) {
		snprintf(c->load_error, sizeof c->load_error, "%s", err);
		worker_notify(0);
		_exit(0);
	}
	on_exit(on_worker_exit, NULL);
	worker_list();
	worker_notify(0);
	for (;;) {
		uint32_t seq;
		ssize_t got = recv(fd, &seq, sizeof seq, MSG_WAITALL);
		if (got < 0 && errno == EINTR)
			continue;
		if (got != (ssize_t)sizeof seq)
			_exit(0); /* the parent closed its end */
		worker_run();
		worker_notify(seq);
	}
}
