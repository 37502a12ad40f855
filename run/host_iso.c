/* The isolated host mode (host_iso.h).
 *
 * The shared region: shared anonymous memory (MAP_SHARED | MAP_ANONYMOUS,
 * MAP_NORESERVE: pages exist once touched) made before the worker is
 * forked, so it lies at the same address in both; no file, so a file size
 * limit (ulimit -f) does not touch it. Laid out in pages:
 *
 *   [control block][heap arena][G][slot 0][G][slot 1][G] ... [dst][G][rest]
 *
 * G is a gap of guard pages (GUARD_GAP, 64 MiB), inaccessible in the
 * worker, and so is the rest of the region past the last one; the
 * inputs' slots are read-only there (docs/runtime.md, "What a kernel may
 * write"). A slot's tensor data ends where its guard begins (its first
 * bytes may share a page with nothing; --guard=start: it begins right
 * after the guard before it). The control block holds the request (the
 * layout, one frame per core) and the worker's side (its state, the core
 * it is on, what ended it, the op list). A call that needs more than the
 * region has gets a new worker with a region twice as large.
 *
 * A call: the parent copies the tensors into their slots, fills the
 * frames with the slots' addresses, writes the sequence number on a
 * socket and waits for it back, for the worker's exit, or for the
 * deadline (support/proc's q7_proc_wait_fd). The worker protects the
 * guard pages, runs the cores, kills whatever the kernel left running
 * (q7_proc_kill_strays: it is its orphans' reaper), and answers. The
 * parent then copies the destination back.
 *
 * The worker ends only by _exit: at the end of its socket, after a fault
 * (its handler records it in the control block), when a kernel calls
 * exit (an on_exit handler records the status first, so none of the
 * parent's atexit handlers run in it), or when a kernel calls _exit. In
 * a process the kernel forks the shared region is inaccessible (an
 * atfork handler), so the child dies at its first touch of the call's
 * memory, and one that comes back through the worker's loop leaves at
 * once: nothing is written twice, and nothing beside the parent.
 *
 * Signals: with forward_signals (q7-run), support/proc's forwarding is
 * installed while the worker starts or runs a call. */
#include "bytes.h"
#include "host_iso_int.h"
#include "host_fault.h"
#include "host_int.h"
#include "result.h"
#include "target.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "support.h"

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

/* ---- the parent's side -------------------------------------------------- */

/* The region, at least need bytes: RESERVE, or twice need when that is
 * more; less where less address space is to be had (valgrind). */
static int region_open(struct q7_iso *s, size_t need, struct q7_err *err)
{
	size_t want = need > RESERVE / 2 ? round_up(need * 2, s->page) : RESERVE;
	void *p = MAP_FAILED;
	for (size_t r = want; p == MAP_FAILED && r >= need; r = r / 2 / s->page * s->page) {
		p = mmap(NULL, r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		         0);
		if (p != MAP_FAILED)
			s->reserve = r;
	}
	if (p == MAP_FAILED) {
		q7_err_set(err, NULL, "cannot make %zu bytes of memory shared with the kernel's process: %s",
		           need, strerror(errno));
		return -1;
	}
	s->base = p;
	s->ctl = p;
	return 0;
}

static void region_close(struct q7_iso *s)
{
	if (s->base)
		munmap(s->base, s->reserve);
	s->base = NULL;
	s->ctl = NULL;
	s->reserve = 0;
}

/* Kills the worker (and its process group) and reaps it, the region
 * kept; *status (NULL: not asked) gets how it ended. */
static void worker_stop(struct q7_iso *s, int *status)
{
	if (s->pid > 0) {
		q7_proc_kill(s->pid, SIGKILL);
		q7_proc_wait(s->pid, status);
	}
	if (s->fd >= 0)
		close(s->fd);
	s->pid = 0;
	s->fd = -1;
}

/* After the worker died while starting: the reason, naming the image. */
static void start_failed(struct q7_iso *s, int st, struct q7_err *err)
{
	struct ctl *c = s->ctl;
	const char *path = s->paths[c->core < s->cores ? c->core : 0];
	char how[128];
	q7_proc_describe(st, how, sizeof how);
	if (c->end == END_FAULT)
		q7_err_set(err, NULL, "%s: cannot load: the %s crashed: %s, address 0x%llx", path,
		           c->state == ST_LOADING ? "dynamic loader (or the library's constructors)"
		                                  : "runtime, listing the ops,",
		           q7_fault_name(c->fault.sig), (unsigned long long)c->fault.addr);
	else if (c->end == END_EXIT)
		q7_err_set(err, NULL, "%s: cannot load: a constructor exited with status %d", path,
		           c->exit_status);
	else
		q7_err_set(err, NULL, "%s: cannot load: its process ended while loading (%s)", path, how);
}

/* How often a call looks at the caller's interrupted flag, and what
 * answer() then returns. */
#define INTERRUPT_NAP_S 0.1
enum { INTERRUPTED = 3 };

/* The worker's answer, by the deadline t0 + timeout: 1 with *seq; 0 when
 * it exited (to be reaped); Q7_PROC_TIMEOUT; 2 when its socket ended and
 * it lives on (a kernel that closed the descriptor); or INTERRUPTED once
 * *s->interrupted is set (looked at every INTERRUPT_NAP_S). */
static int answer(struct q7_iso *s, double t0, uint32_t *seq)
{
	int rc;
	for (;;) {
		double left = s->timeout - (q7_now_s() - t0);
		if (left < 0)
			left = 0;
		bool last = !s->interrupted || left <= INTERRUPT_NAP_S;
		rc = q7_proc_wait_fd(s->pid, s->fd, last ? left : INTERRUPT_NAP_S);
		if (rc != Q7_PROC_TIMEOUT || last)
			break;
		if (*s->interrupted)
			return INTERRUPTED;
	}
	if (rc != 1)
		return rc;
	if (recv(s->fd, seq, sizeof *seq, MSG_WAITALL) == (ssize_t)sizeof *seq)
		return 1;
	/* The end of the socket: it is exiting, most likely. */
	double left = s->timeout - (q7_now_s() - t0);
	rc = q7_proc_wait_fd(s->pid, -1, left > 1 ? left : 1);
	return rc == 0 ? 0 : 2;
}

/* Forks the worker and waits until it has loaded the images (and listed
 * the ops) or failed. 0, or -1 with err set. */
static int worker_start(struct q7_iso *s, size_t need, struct q7_err *err)
{
	if (!s->base && region_open(s, need, err) != 0)
		return -1;
	struct ctl *c = s->ctl;
	memset(c, 0, sizeof *c);
	c->heap = s->ctl_bytes;
	c->heap_size = s->heap_size;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		q7_err_set(err, NULL, "cannot make a socket for the kernel's process: %s", strerror(errno));
		return -1;
	}
	s->started = q7_now_s();
	pid_t pid = q7_proc_fork_group();
	if (pid == 0) {
		close(sv[0]);
		q7_iso_worker_main(s, sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		q7_err_set(err, NULL, "cannot start the kernel's process: %s", strerror(errno));
		return -1;
	}
	s->pid = pid;
	s->fd = sv[0];
	s->fresh = true;
	uint32_t seq = 1;
	int rc = answer(s, s->started, &seq), st = 0;
	if (rc == 1 && seq == 0 && !c->load_error[0])
		return 0;
	worker_stop(s, &st); /* its process group too, should it have started any */
	if (rc == INTERRUPTED)
		q7_err_set(err, NULL, "interrupted while loading (the kernel's process was stopped)");
	else if (rc == 1 && seq == 0)
		q7_err_set(err, NULL, "%s", c->load_error);
	else if (rc == Q7_PROC_TIMEOUT)
		q7_err_set(err, NULL, "%s: cannot load: still loading after %g s (a constructor that never "
		           "returns?)", s->paths[c->core < s->cores ? c->core : 0], s->timeout);
	else
		start_failed(s, st, err);
	return -1;
}

/* The slot a faulting address lies in or is nearest, the heap arena
 * among them (arg Q7_RUN_HEAP), into *hit with *at its offset there;
 * false when addr lies outside the region. */
static bool region_hit(const struct q7_iso *s, uint64_t addr, struct q7_slot *hit, long long *at)
{
	uint64_t base = (uint64_t)(uintptr_t)s->base;
	if (!s->base || addr < base || addr - base >= s->reserve)
		return false;
	struct q7_slot all[Q7_MAX_SLOTS + 1] = {
		{.data = s->ctl->heap, .bytes = s->ctl->heap_size, .arg = Q7_RUN_HEAP}};
	memcpy(all + 1, s->slots, s->nslots * sizeof all[0]);
	*hit = *q7_slot_nearest(all, s->nslots + 1, addr - base, at);
	return true;
}

/* What a faulting address is when it lies in the region (a guard page, or
 * the rest of the region past the layout, the only parts that fault):
 * the nearest tensor, "offset 16 of argument 1 (x), past its end (16
 * bytes)". Empty when nothing. */
static void guard_hit(const struct q7_iso *s, const char *op, uint64_t addr, char *buf, size_t size)
{
	struct q7_slot hit;
	long long at;
	char what[96] = "the heap arena";
	buf[0] = 0;
	if (!region_hit(s, addr, &hit, &at))
		return;
	if (hit.arg == Q7_RUN_DST)
		snprintf(what, sizeof what, "the destination (get_dst_tensor())");
	else if (hit.arg >= 0)
		q7_run_list_arg(s->ctl->list, op, (unsigned)hit.arg, what, sizeof what);
	if (at < 0)
		snprintf(buf, size, "offset -%llu of %s, before its start", (unsigned long long)-at, what);
	else if ((uint64_t)at >= hit.bytes)
		snprintf(buf, size, "offset %llu of %s, past its end (%llu bytes)", (unsigned long long)at,
		         what, (unsigned long long)hit.bytes);
	else /* an input's read-only slot */
		snprintf(buf, size, "offset %llu of %s, into it (a kernel never changes its inputs)",
		         (unsigned long long)at, what);
}

/* A write fault in a tensor's slot or the gap after it, worded as the
 * in-process modes word it (host_confine.c): an input's through
 * r->changed_arg, for the engine to name. 1 when it was one. */
static int slot_breach(const struct q7_iso *s, const struct q7_call *c, struct q7_run_result *r)
{
	const struct q7_fault *f = &s->ctl->fault;
	struct q7_slot hit;
	long long at;
	if ((f->sig != SIGSEGV && f->sig != SIGBUS) || !f->wrote ||
	    !region_hit(s, f->addr, &hit, &at) || hit.arg == Q7_RUN_HEAP)
		return 0;
	if (hit.arg >= 0 && at >= 0)
		return q7_run_changed(r, c->op, (unsigned)hit.arg, (uint64_t)at,
		                      (uint64_t)at >= hit.bytes, hit.bytes);
	char op[24 + Q7_MAX_OP_NAME];
	snprintf(op, sizeof op, "%s", c->op);
	if (s->cores > 1)
		snprintf(op, sizeof op, "core %u: %s", s->ctl->core, c->op);
	return q7_run_outside(r, op, "wrote", hit.arg, hit.bytes, at);
}

/* After the worker died in a call: the one-line reason (the caller sets
 * the status). */
static void call_failed(struct q7_iso *s, const struct q7_call *c, int st, struct q7_run_result *r)
{
	struct ctl *ctl = s->ctl;
	const char *op = c->op[0] ? c->op : "the op list";
	unsigned core = ctl->core;
	char how[128];
	q7_proc_describe(st, how, sizeof how);
	if (ctl->end == END_FAULT && c->op[0] && slot_breach(s, c, r))
		return;
	if (ctl->end == END_FAULT) {
		char where[256], line[Q7_MESSAGE_SIZE];
		guard_hit(s, c->op, ctl->fault.addr, where, sizeof where);
		q7_fault_format(&ctl->fault, where[0] ? where : NULL, line, sizeof line);
		q7_run_fail(r, "%s", line);
	} else if (ctl->end == END_EXIT) {
		q7_run_fail(r, "%s: the kernel exited with status %d on core %u (exit() ends the op)", op,
		            ctl->exit_status, core);
	} else if (ctl->end == END_LOST) {
		q7_run_fail(r, "%s: the kernel closed the descriptor its process answers q7-run on (core "
		            "%u); a kernel may close only the descriptors it opened", op, core);
	} else if (WIFEXITED(st)) {
		q7_run_fail(r, "%s: the kernel exited with status %d on core %u (_exit() ends the op)", op,
		            WEXITSTATUS(st), core);
	} else {
		q7_run_fail(r, "%s: the kernel's process was %s on core %u", op, how, core);
	}
}

/* The call's layout: a slot per tensor argument and the destination.
 * Returns the region's size, or 0 when a tensor is too large. */
static size_t layout(struct q7_iso *s, const struct q7_call *c)
{
	/* past the heap arena's guard */
	uint64_t off = s->ctl_bytes + s->heap_size + GUARD_GAP;
	/* The destination last: a write past it runs into the rest of the
	 * region, which the worker keeps inaccessible, not into an input. */
	s->nslots = q7_call_slots(c, s->slots);
	for (unsigned i = 0; i < s->nslots; i++) {
		struct q7_slot *sl = &s->slots[i];
		if (q7_slot_desc(c, sl)->ndim > Q7_MAX_DIMS || sl->bytes > ((uint64_t)1 << 40))
			return 0;
		uint64_t span = round_up(sl->bytes, s->page);
		sl->data = s->guard == Q7_GUARD_START ? off : off + span - sl->bytes;
		sl->end = off + span;
		off = sl->end + GUARD_GAP;
	}
	return off;
}

/* The destination slot's bytes that no guard covers: before its data in
 * its first page (the guard at the end) and after it in its last (at the
 * start). Filled with Q7_PAD_BYTE before the call (r NULL), checked
 * after it: 0, or 1 with r failed. */
static int dst_pads(const struct q7_iso *s, const struct q7_call *c, const struct q7_slot *sl,
                    struct q7_run_result *r)
{
	unsigned char *at = s->base + sl->data;
	long long pad[2][2] = {{-(long long)(sl->data & (s->page - 1)), 0},
	                       {(long long)sl->bytes, (long long)(sl->end - sl->data)}};
	for (unsigned k = 0; k < 2; k++)
		if (!r)
			memset(at + pad[k][0], Q7_PAD_BYTE, (size_t)(pad[k][1] - pad[k][0]));
		else if (q7_pad_check(r, c->op, at, sl->bytes, pad[k][0], pad[k][1]))
			return 1;
	return 0;
}

/* The request: the layout, tensors copied into their slots, a frame per
 * core with the slots' addresses. */
static void fill(struct q7_iso *s, const struct q7_call *c)
{
	struct ctl *ctl = s->ctl;
	struct q7_arg args[Q7_MAX_ARGS];
	struct q7_tensor_desc dst = c->dst;
	if (c->nargs)
		memcpy(args, c->args, c->nargs * sizeof *args);
	memcpy(ctl->slots, s->slots, s->nslots * sizeof s->slots[0]);
	ctl->nslots = s->nslots;
	for (unsigned i = 0; i < s->nslots; i++) {
		const struct q7_slot *sl = &s->slots[i];
		struct q7_tensor_desc *d = sl->arg < 0 ? &dst : &args[sl->arg].u.tensor;
		unsigned char *to = s->base + sl->data;
		if (sl->arg < 0 && c->dst_fresh) /* a new output: the pattern that shows (docs/runtime.md) */
			q7_run_uninit_fill(to, sl->bytes, c);
		else if (sl->bytes && d->data)
			memcpy(to, (const void *)(uintptr_t)d->data, sl->bytes);
		if (sl->arg < 0)
			dst_pads(s, c, sl, NULL);
		d->data = (uint64_t)(uintptr_t)to;
	}
	ctl->ncores = s->cores;
	ctl->time_limit = s->timeout;
	ctl->end = END_NONE;
	ctl->core = 0;
	for (unsigned core = 0; core < s->cores; core++) {
		struct q7_frame *f = &ctl->frames[core];
		q7_run_frame_fill(f, c->op, c->nargs, args, &dst, core, s->cores);
		f->heap_base = (uint64_t)(uintptr_t)(s->base + ctl->heap);
		f->heap_size = ctl->heap_size;
		f->write_fn = (uint64_t)(uintptr_t)q7_host_write;
		f->status = Q7_STATUS_KERNEL_ERROR;
		if (s->unchecked & Q7_UNCHECKED_ZONES)
			f->loader_flags |= Q7_FRAME_UNCHECKED;
	}
}

/* A process forked from the one that started the worker (a DataLoader
 * worker, multiprocessing's fork) shares its socket and memory: it lets
 * go of them without touching them, and starts a worker of its own. */
static void let_go_after_fork(struct q7_iso *s)
{
	if (s->forks == q7_fork_count())
		return;
	if (s->pid > 0)
		q7_proc_forget(s->pid);
	if (s->fd >= 0)
		close(s->fd);
	s->pid = 0;
	s->fd = -1;
	region_close(s);
	s->forks = q7_fork_count();
}

/* The worker's answer to call c: each core's frame checked, the
 * destination copied back, the returned tensor into r. 0, or 1 with r
 * set. */
static int take_answer(struct q7_iso *s, const struct q7_call *c, struct q7_run_result *r)
{
	/* Each frame read once, into memory of this process's own: the
	 * kernel's process (a thread of it still running) may rewrite
	 * the shared one between a check and a use. */
	struct q7_frame *f = &s->answer;
	for (unsigned core = 0; core < s->cores; core++) {
		memcpy(f, &s->ctl->frames[core], sizeof *f);
		if (q7_host_core_done(f, core, s->cores, r) != 0)
			return 1;
	}
	if (!(s->unchecked & Q7_UNCHECKED_INPUTS) &&
	    q7_slots_inputs_compare(c, s->slots, s->nslots, s->base, 0, NULL, r) != 0)
		return 1;
	uint64_t dst_slot = 0;
	for (unsigned i = 0; i < s->nslots; i++)
		if (s->slots[i].arg < 0) {
			if (dst_pads(s, c, &s->slots[i], r) != 0)
				return 1;
			dst_slot = (uint64_t)(uintptr_t)(s->base + s->slots[i].data);
			memcpy((void *)(uintptr_t)c->dst.data, s->base + s->slots[i].data,
			       s->slots[i].bytes);
		}
	/* The heap arena and the slots, as the region holds them. */
	uint64_t base = (uint64_t)(uintptr_t)s->base, range[Q7_MAX_SLOTS + 1][2] = {
		{base + s->ctl->heap, base + s->ctl->heap + s->ctl->heap_size}};
	for (unsigned i = 0; i < s->nslots; i++) {
		range[i + 1][0] = base + s->slots[i].data;
		range[i + 1][1] = range[i + 1][0] + s->slots[i].bytes;
	}
	return q7_host_finish(c, f, dst_slot, range, s->nslots + 1, r);
}

static int call_locked(struct q7_iso *s, const struct q7_call *c, struct q7_run_result *r)
{
	char err[Q7_MESSAGE_SIZE];
	let_go_after_fork(s);
	size_t need = layout(s, c);
	if (need == 0) {
		q7_run_fail(r, "%s: a tensor of more than 2^40 bytes", c->op);
		return 1;
	}
	if (s->base && need > s->reserve) {
		/* A new reservation, twice as large: a new worker (the images'
		 * globals start again, as after a failure). */
		worker_stop(s, NULL);
		region_close(s);
	}
	if (s->pid == 0 && worker_start(s, need, &Q7_ERR_OF(err)) != 0) {
		q7_run_fail(r, "%s", err);
		return 1;
	}
	fill(s, c);
	s->ctl->used = need;
	struct ctl *ctl = s->ctl;
	uint32_t seq = ++ctl->seq;
	double t0 = s->fresh ? s->started : q7_now_s();
	s->fresh = false;
	if (send(s->fd, &seq, sizeof seq, MSG_NOSIGNAL) != (ssize_t)sizeof seq) {
		/* It died between calls: a fault of its own? Start again. */
		worker_stop(s, NULL);
		q7_run_fail(r, "%s: the kernel's process ended between calls; call again", c->op);
		return 1;
	}
	uint32_t back = 0;
	int rc = answer(s, t0, &back), st = 0;
	if (rc == 1 && back == seq)
		return take_answer(s, c, r);
	/* A kernel is stopped only with its process (and whatever it
	 * started, with its process group); the next call starts a new one. */
	worker_stop(s, &st);
	const char *op = c->op[0] ? c->op : "the op list";
	if (rc == INTERRUPTED) {
		q7_run_fail(r, "%s: interrupted (the kernel's process was stopped)", c->op);
		return 1;
	}
	if (rc == Q7_PROC_TIMEOUT)
		q7_run_fail(r, "%s: timed out after %g s on core %u (the kernel's process was "
		            "stopped); a kernel that never returns? --timeout=SECONDS sets the limit",
		            op, s->timeout, ctl->core);
	else if (rc == 1 || rc == 2) /* the socket's end without an answer: a kernel closed it */
		q7_run_fail(r, "%s: the kernel's process stopped answering on core %u (did the "
		            "kernel close its descriptors?)", op, ctl->core);
	else /* it exited */
		call_failed(s, c, st, r);
	r->status = Q7_STATUS_KERNEL_ERROR;
	return 1;
}

/* Around each use of the worker: the process-wide lock of every process
 * operation (target.h), and for q7-run its signals forwarded. */
static void enter(const struct q7_iso *s)
{
	q7_target_proc_lock();
	if (s->forward)
		q7_proc_signals_install();
}

static void leave(const struct q7_iso *s)
{
	if (s->forward)
		q7_proc_signals_restore();
	q7_target_proc_unlock();
}

int q7_iso_call(struct q7_iso *s, const struct q7_call *c, struct q7_run_result *r)
{
	enter(s);
	int rc = call_locked(s, c, r);
	leave(s);
	return rc;
}

int q7_iso_open(char *const *paths, unsigned cores, size_t heap_size,
                const struct q7_engine_opts *o, struct q7_iso **out, struct q7_err *err)
{
	struct q7_iso *s = q7_xcalloc(1, sizeof *s);
	*out = NULL;
	s->paths = paths;
	s->cores = cores;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->heap_size = round_up(heap_size, s->page);
	s->timeout = o->timeout_s > 0 ? o->timeout_s : Q7_DEFAULT_TIMEOUT_S;
	s->guard = o->guard;
	s->forward = o->forward_signals;
	s->unchecked = o->unchecked;
	s->interrupted = o->interrupted;
	s->fd = -1;
	s->forks = q7_fork_count();
	s->ctl_bytes = round_up(sizeof(struct ctl), s->page);
	enter(s);
	int rc = worker_start(s, s->ctl_bytes + s->heap_size + s->page, err);
	leave(s);
	if (rc != 0) {
		q7_iso_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void q7_iso_close(struct q7_iso *s)
{
	if (!s)
		return;
	q7_target_proc_lock();
	let_go_after_fork(s); /* in a forked child: the parent's left as they are */
	worker_stop(s, NULL); /* the worker and whatever is left in its group */
	region_close(s);
	q7_target_proc_unlock();
	free(s);
}
