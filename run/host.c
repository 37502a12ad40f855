/* The host target of the run engine: a host-profile kernel library,
 * checked (host_elf.c), then run in this process (here) or in a child
 * process (host_iso.c); how its images load: docs/runtime.md, "The run
 * engine". RTLD_LOCAL because their symbols may mangle like libtorch's,
 * and must never serve anyone else. Cores run one after another over the
 * same destination: SPMD kernels do not synchronise, so any order is a
 * valid schedule. The runtime re-initialises the arena at every call. The
 * two ways to call a core in this process, direct and guarded: engine.h,
 * enum q7_host_mode.
 *
 * Memory: a q7_host owns its images, arena, frame and paths; a call's
 * result owns out_data (only when the call gave no destination). */
#include "host.h"
#include "call_limits.h"
#include "fdio.h"
#include "host_confine.h"
#include "host_elf.h"
#include "host_fault.h"
#include "host_int.h"
#include "host_iso.h"
#include "host_san.h"
#include "result.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support.h"

/* The arena's default: as large as its 32-bit block sizes allow, reserved
 * (MAP_NORESERVE) and committed page by page as kernels use it, so it
 * holds what a kernel allocates without costing what it does not. */
#define DEFAULT_HEAP ((size_t)0xfffff000u)

int q7_host_write(int fd, const void *buf, uint32_t len)
{
	return (int)write(fd == 2 ? 2 : 1, buf, len);
}

/* ---- loading the images ------------------------------------------------- */

/* dlopen needs a slash to take a path as a path. */
static void *open_file(const char *path, const char *as, struct q7_err *err)
{
	char *p = strchr(as, '/') ? q7_xstrdup(as) : q7_xasprintf("./%s", as);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	free(p);
	if (!h) {
		const char *why = dlerror();
		q7_err_set(err, NULL, "%s: cannot load: %s%s", path, why ? why : "unknown error",
		           why && strstr(why, "ELF class") ? " (an Xtensa image? use the emulated target)" : "");
	}
	return h;
}

/* A copy of path's bytes in an anonymous file: -1 with err set. */
static int copy_image(const char *path, struct q7_err *err)
{
	size_t len = 0;
	const char *why = NULL;
	char *bytes = q7_read_regular(path, Q7_READ_HOSTLIB_MAX, &len, &why);
	int fd = bytes ? memfd_create(q7_path_basename(path), MFD_CLOEXEC) : -1;
	if (fd >= 0 && q7_write_all(fd, bytes, len, -1) != 0) {
		int e = errno; /* close may set it */
		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd < 0)
		q7_err_set(err, NULL, "%s: cannot copy it for another core: %s", path,
		           bytes ? strerror(errno) : why);
	free(bytes);
	return fd;
}

static void images_unload(struct q7_host_images *im)
{
	/* In reverse, copies after their handles. */
	for (unsigned i = Q7_NUM_CORES; i-- > 0;) {
		if (im->handles[i])
			dlclose(im->handles[i]);
		im->handles[i] = NULL;
		if (im->copies[i] >= 0)
			close(im->copies[i]);
		im->copies[i] = -1;
	}
}

int q7_host_images_load(struct q7_host_images *im, unsigned cores, char *const *paths,
                        volatile unsigned *loading, struct q7_err *err)
{
	memset(im, 0, sizeof *im);
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		im->copies[i] = -1;
	im->cores = cores;
	for (unsigned core = 0; core < cores; core++) {
		im->paths[core] = paths[core];
		if (loading)
			*loading = core;
		bool again = false;
		for (unsigned k = 0; k < core; k++)
			again = again || strcmp(paths[k], paths[core]) == 0;
		if (again) {
			/* The loader knows a file again by its name and its inode:
			 * an anonymous copy is a new object, with its own globals. It
			 * stays open while loaded, so that its /proc name stays
			 * unique. */
			im->copies[core] = copy_image(paths[core], err);
			if (im->copies[core] < 0)
				goto fail;
			char as[64];
			snprintf(as, sizeof as, "/proc/self/fd/%d", im->copies[core]);
			im->handles[core] = open_file(paths[core], as, err);
		} else {
			im->handles[core] = open_file(paths[core], paths[core], err);
		}
		if (!im->handles[core])
			goto fail;
		void *entry = dlsym(im->handles[core], "q7_entry");
		if (!entry) {
			q7_err_set(err, NULL, "%s: not a q7cc kernel library (no q7_entry)", paths[core]);
			goto fail;
		}
		*(void **)&im->entries[core] = entry;
		q7_fault_prepare(&im->faults[core], "", paths[core], entry, core, cores);
	}
	return 0;
fail:
	images_unload(im);
	return -1;
}

/* ---- a call's outcome, either way --------------------------------------- */

/* The first check of a call: the op's name and argument count fit a
 * frame, several cores have a destination. 0, or 1 with r set. */
static int q7_host_call_check(const struct q7_call *c, unsigned cores, struct q7_run_result *r)
{
	memset(r, 0, offsetof(struct q7_run_result, message) + 1);
	memset(&r->out, 0, sizeof *r - offsetof(struct q7_run_result, out));
	if (c->nargs > Q7_MAX_ARGS || strlen(c->op) >= Q7_MAX_OP_NAME) {
		q7_run_fail(r, "%s: %u arguments (at most %d), a name of %zu characters (at most %d)",
		            c->op, c->nargs, Q7_MAX_ARGS, strlen(c->op), Q7_MAX_OP_NAME - 1);
		return 1;
	}
	if (cores > 1 && c->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", cores);
		return 1;
	}
	return 0;
}

int q7_host_core_done(struct q7_frame *f, unsigned core, unsigned cores, struct q7_run_result *r)
{
	if (f->switched_stack)
		r->switched_stack = 1;
	f->message[sizeof f->message - 1] = 0;
	if (f->status != Q7_STATUS_OK) {
		/* "core N: " fits: the frame's message is cut to make room. */
		int k = cores > 1 ? snprintf(r->message, sizeof r->message, "core %u: ", core) : 0;
		snprintf(r->message + k, sizeof r->message - (size_t)k, "%s", f->message);
		r->status = f->status;
		return 1;
	}
	/* A warning (status OK and a message): every core gives the same one,
	 * so the first is kept. */
	if (f->message[0] && !r->message[0])
		snprintf(r->message, sizeof r->message, "%s", f->message);
	return 0;
}

int q7_host_finish(const struct q7_call *c, const struct q7_frame *f, uint64_t dst_data,
                   const uint64_t (*range)[2], unsigned nrange, struct q7_run_result *r)
{
	if (c->dst.data != 0) {
		/* Written in place: the runtime copied a returned tensor into it
		 * or the kernel wrote it through get_dst_tensor(). */
		struct q7_tensor_desc out; /* read once: a kernel's thread may rewrite f */
		memcpy(&out, (const void *)&f->out, sizeof out);
		if (q7_run_check_in_dst(c->op, &out, dst_data, &c->dst, r) != 0)
			return 1;
		r->out = out;
		r->out.data = c->dst.data;
		r->status = Q7_STATUS_OK;
		return 0;
	}
	static const unsigned char nothing[1];
	const unsigned char *span = NULL;
	size_t span_bytes = 0;
	uint64_t data = f->out.data, n, extent;
	for (unsigned i = 0; !span && i < nrange; i++)
		if (data >= range[i][0] && data < range[i][1]) {
			span = (const unsigned char *)(uintptr_t)data;
			span_bytes = (size_t)(range[i][1] - data);
		}
	if (!span && q7_tensor_bytes(&f->out, &n, &extent) && n == 0)
		span = nothing; /* an empty tensor: no byte to read, wherever it says it is */
	if (!span) {
		q7_run_fail(r, "%s: the returned tensor lies outside the memory the kernel shares", c->op);
		return 1;
	}
	if (q7_run_take_output(f, span, span_bytes, r) != 0)
		return 1;
	r->status = Q7_STATUS_OK;
	return 0;
}

/* ---- a kernel that faults, in this process ------------------------------ */

/* What the handler reports, set before each core's call; the image's
 * path before it for a crash while listing the ops. */
static struct q7_fault fault;
static char fault_before[512];

/* ---- a breach of the confinement, survived ------------------------------- */

/* A core's call under recovery: a fault in the confinement's memory
 * (host_confine.h) is the kernel's write (or read) outside its own, not
 * the process's broken state: the handler jumps back to the call, which
 * fails with the region and the offset. Per thread: the direct mode's
 * caller, the guarded mode's core thread. */
struct recovery {
	sigjmp_buf jump;
	const struct q7_confine *cf;
	uint64_t addr;
	bool write;
};
static __thread struct recovery *recovering;

/* From a fault handler: jumps back to the call when the fault is a
 * breach of its confinement; returns otherwise. Async-signal-safe. */
static void recover(int sig, const siginfo_t *si, const void *uc)
{
	struct recovery *rec = recovering;
	if (!rec || !rec->cf || (sig != SIGSEGV && sig != SIGBUS) || si->si_code <= 0 ||
	    !q7_confine_owns(rec->cf, (uint64_t)(uintptr_t)si->si_addr))
		return;
	struct q7_fault f;
	q7_fault_record(&f, sig, si, uc);
	rec->addr = f.addr;
	rec->write = f.wrote;
	recovering = NULL;
	siglongjmp(rec->jump, 1);
}

/* entry(f) under rec: 0 when it returned, 1 when it breached rec->cf. */
static int call_recovering(q7_entry_fn entry, struct q7_frame *f, struct recovery *rec)
{
	if (sigsetjmp(rec->jump, 1)) {
		recovering = NULL;
		return 1;
	}
	recovering = rec;
	entry(f);
	recovering = NULL;
	return 0;
}

/* The calling thread's alternate signal stack, made once when it has
 * none, so that a kernel that overflows the thread's stack is still
 * named (kept until the process ends: a thread that calls again has it). */
static void ensure_altstack(void)
{
	static __thread bool done;
	stack_t old;
	if (done || sigaltstack(NULL, &old) != 0)
		return;
	done = true;
	if (!(old.ss_flags & SS_DISABLE))
		return;
	void *alt = mmap(NULL, Q7_ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt != MAP_FAILED)
		q7_fault_altstack(alt, Q7_ALT_STACK);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	recover(sig, si, uc);
	q7_fault_record(&fault, sig, si, uc);
	q7_fault_report(&fault, false, fault_before, "");
	_exit(Q7_EXIT_ERROR);
}

struct core_call {
	q7_entry_fn entry;
	struct q7_frame *frame;
	struct recovery *rec;
	int breached;
};

static void *core_main(void *arg)
{
	struct core_call *c = arg;
	void *alt = q7_xmalloc(Q7_ALT_STACK);
	q7_fault_altstack(alt, Q7_ALT_STACK);
	c->breached = call_recovering(c->entry, c->frame, c->rec);
	q7_fault_altstack(NULL, 0);
	free(alt);
	return NULL;
}

/* Guarded: the core on its own small-stack thread under the fault
 * handler. 0, 1 when it breached rec->cf, or -1 with the reason in err. */
static int run_guarded(const struct q7_host_images *im, unsigned core, struct q7_frame *f,
                       struct recovery *rec, struct q7_err *err)
{
	pthread_attr_t attr;
	pthread_t th;
	struct core_call call = {im->entries[core], f, rec, 0};
	struct sigaction old[Q7_FAULT_NSIG];
	fault = im->faults[core];
	snprintf(fault.op, sizeof fault.op, "%s", f->op);
	snprintf(fault_before, sizeof fault_before, "%s%s", f->op[0] ? "" : im->paths[core],
	         f->op[0] ? "" : ": cannot list its ops: ");
	q7_fault_catch(on_fault, old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, Q7_CORE_STACK);
	int e = pthread_create(&th, &attr, core_main, &call);
	pthread_attr_destroy(&attr);
	if (e == 0)
		pthread_join(th, NULL);
	/* The loader's own faults are not the kernel's. */
	q7_fault_release(old);
	if (e != 0) {
		q7_err_set(err, NULL, "cannot start the core's thread: %s", strerror(e));
		return -1;
	}
	return call.breached;
}

/* ---- the host target ----------------------------------------------------- */

struct q7_host {
	unsigned cores;
	enum q7_host_mode mode;
	char *paths[Q7_NUM_CORES];
	struct q7_host_images images;  /* in-process modes */
	struct q7_iso *iso;            /* isolated */
	struct q7_confine *cf;  /* in-process: the heap arena, the call's tensors */
	size_t heap_size;
	pthread_t stack_thread; /* the last thread that called, and its stack */
	uintptr_t stack_low;
	struct q7_frame frame;
	unsigned unchecked;     /* Q7_UNCHECKED_* */
	const volatile sig_atomic_t *interrupted; /* sanitized: the caller's Ctrl-C */
};

uintptr_t q7_host_stack_low(void)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0, guard = 0;
	uintptr_t low = 1; /* unknown: found, as nothing */
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0)
			low = (uintptr_t)addr;
		pthread_attr_getguardsize(&attr, &guard);
		pthread_attr_destroy(&attr);
		low += guard;
	}
	return low;
}

uint64_t q7_host_stack_limit(uintptr_t low)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t lim = sp > Q7_CORE_STACK ? sp - Q7_CORE_STACK : 0;
	return lim > low ? lim : (low > 1 ? low : 0);
}

/* ---- direct: the op named before a fault ends the process ----------------- */

/* The direct call running on this thread, if any. */
struct direct_call {
	const struct q7_host *h;
	unsigned core;
	const char *op;
};
static __thread const struct direct_call *direct_now;
static struct sigaction direct_before[Q7_FAULT_NSIG];
static pthread_once_t direct_once = PTHREAD_ONCE_INIT;

/* A fault in a kernel run on the caller's thread cannot be survived (the
 * caller's memory may be what it broke). As Python's faulthandler names
 * the frames, one line names the op, the signal and where in the image,
 * then the signal goes on to what handled it before (faulthandler, or the
 * default): the process ends as it did. Async-signal-safe. */
static void on_direct_fault(int sig, siginfo_t *si, void *uc)
{
	const struct direct_call *c = direct_now;
	recover(sig, si, uc);
	if (c) {
		struct q7_fault f = c->h->images.faults[c->core];
		strncpy(f.op, c->op, sizeof f.op - 1); /* its last byte stays 0 */
		q7_fault_record(&f, sig, si, uc);
		q7_fault_report(&f, true, "", " (in this process, which it ends; q7cc.torch's "
		                "isolate=True runs kernels apart and raises an error instead)");
		direct_now = NULL;
	}
	q7_fault_release(direct_before);
	if (si->si_code <= 0) /* sent (kill, raise, abort): send it again */
		raise(sig);
	/* else the faulting instruction, run again, raises it */
}

static void direct_catch(void)
{
	q7_fault_catch(on_direct_fault, direct_before);
}

int q7_host_open(const struct q7_strvec *images, const struct q7_engine_opts *o,
                 struct q7_host **out, struct q7_err *err)
{
	struct q7_host *h = q7_xmalloc(sizeof *h);
	*out = NULL;
	*h = (struct q7_host){.cores = (unsigned)images->n, .mode = o->host_mode,
	                      .unchecked = o->unchecked, .interrupted = o->interrupted,
	                      .heap_size = o->heap_size ? o->heap_size : DEFAULT_HEAP};
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		h->images.copies[i] = -1;
	if (h->cores == 0 || h->cores > Q7_NUM_CORES) {
		q7_err_set(err, NULL, "%u cores asked, 1 to %d", h->cores, Q7_NUM_CORES);
		goto fail;
	}
	for (unsigned core = 0; core < h->cores; core++) {
		h->paths[core] = q7_xstrdup(images->v[core]);
		bool seen = false;
		for (unsigned k = 0; k < core; k++)
			seen = seen || strcmp(h->paths[k], h->paths[core]) == 0;
		/* What the loader would fault on, refused before it reads it. */
		if (!seen && q7_host_elf_check_kernels(h->paths[core], err) != 0)
			goto fail;
	}
	if (h->mode == Q7_HOST_SANITIZED && h->cores != 1) {
		q7_err_set(err, NULL, "%s: %u cores: a sanitized library runs on one", h->paths[0],
		           h->cores);
		goto fail;
	}
	if (h->mode == Q7_HOST_ISOLATED &&
	    q7_iso_open(h->paths, h->cores, h->heap_size, o, &h->iso, err) != 0)
		goto fail;
	if (h->mode == Q7_HOST_SANITIZED || h->mode == Q7_HOST_ISOLATED) {
		*out = h; /* nothing loaded here: the worker's, or each call q7-run's */
		return 0;
	}
	h->cf = q7_confine_new(h->heap_size);
	if (!h->cf) {
		q7_err_set(err, NULL, "cannot allocate a heap arena of %zu bytes", h->heap_size);
		goto fail;
	}
	if (q7_host_images_load(&h->images, h->cores, h->paths, NULL, err) != 0)
		goto fail;
	if (h->mode == Q7_HOST_DIRECT)
		pthread_once(&direct_once, direct_catch);
	*out = h;
	return 0;
fail:
	q7_host_close(h);
	return -1;
}

void q7_host_close(struct q7_host *h)
{
	if (!h)
		return;
	q7_iso_close(h->iso);
	images_unload(&h->images);
	for (unsigned i = 0; i < Q7_NUM_CORES; i++)
		free(h->paths[i]);
	q7_confine_free(h->cf);
	free(h);
}

/* What q7_host_close_at_exit kept: reachable, so that leak checkers see
 * memory kept on purpose, not lost. */
static struct q7_host *kept_at_exit;

void q7_host_close_at_exit(struct q7_host *h)
{
	if (h && h->mode != Q7_HOST_ISOLATED && h->mode != Q7_HOST_SANITIZED && !kept_at_exit)
		kept_at_exit = h;
	else
		q7_host_close(h);
}

/* The frame of core's call (the op's name is shorter than f->op: checked
 * by q7_host_call_check). Only the arguments the call has are copied. */
static void fill_frame(struct q7_host *h, const struct q7_call *c, unsigned core)
{
	struct q7_frame *f = &h->frame;
	q7_run_frame_fill(f, c->op, c->nargs, c->args, &c->dst, core, h->cores);
	f->heap_base = (uint64_t)(uintptr_t)q7_confine_heap(h->cf);
	f->heap_size = h->heap_size;
	f->write_fn = (uint64_t)(uintptr_t)q7_host_write;
	if (h->unchecked & Q7_UNCHECKED_ZONES)
		f->loader_flags |= Q7_FRAME_UNCHECKED;
	else if (c->dst.data && c->dst_room >= Q7_RED_ZONE)
		f->loader_flags |= Q7_FRAME_DST_ROOM;
}

static int call_cores(struct q7_host *h, const struct q7_call *c, struct q7_run_result *r);

int q7_host_call(struct q7_host *h, const struct q7_call *c, struct q7_run_result *r)
{
	if (q7_host_call_check(c, h->cores, r) != 0)
		return 1;
	if (h->mode == Q7_HOST_ISOLATED)
		return q7_iso_call(h->iso, c, r);
	if (h->mode == Q7_HOST_SANITIZED)
		return q7_san_call(h->paths[0], c, h->interrupted, r);
	if (h->unchecked & Q7_UNCHECKED_INPUTS)
		return call_cores(h, c, r);
	struct q7_call run;
	if (q7_confine_enter(h->cf, c, &run) != 0) {
		q7_run_fail(r, "%s: cannot map the memory the kernel runs on: %s", c->op, strerror(errno));
		return 1;
	}
	int rc = call_cores(h, &run, r);
	return rc != 0 ? rc : q7_confine_leave(h->cf, c, &run, r);
}

/* The in-process modes' call: every core, then the result. */
static int call_cores(struct q7_host *h, const struct q7_call *c, struct q7_run_result *r)
{
	struct q7_frame *f = &h->frame;
	char err[Q7_MESSAGE_SIZE];
	struct recovery rec = {.cf = h->cf};
	for (unsigned core = 0; core < h->cores; core++) {
		fill_frame(h, c, core);
		int breached;
		if (h->mode == Q7_HOST_DIRECT) {
			ensure_altstack();
			/* the stack's bottom kept for the last thread that called
			 * (pthread_getattr_np reads /proc for the main thread) */
			if (!h->stack_low || !pthread_equal(pthread_self(), h->stack_thread)) {
				h->stack_thread = pthread_self();
				h->stack_low = q7_host_stack_low();
			}
			f->stack_limit = q7_host_stack_limit(h->stack_low);
			struct direct_call now = {h, core, c->op};
			direct_now = &now;
			breached = call_recovering(h->images.entries[core], f, &rec);
			direct_now = NULL;
		} else {
			breached = run_guarded(&h->images, core, f, &rec, &Q7_ERR_OF(err));
			if (breached < 0) {
				q7_run_fail(r, "%s", err);
				return 1;
			}
			fflush(stdout);
		}
		if (breached) {
			char op[24 + Q7_MAX_OP_NAME];
			snprintf(op, sizeof op, "%s", c->op);
			if (h->cores > 1)
				snprintf(op, sizeof op, "core %u: %s", core, c->op);
			q7_confine_fault(h->cf, op, rec.addr, rec.write, r);
			return 1;
		}
		if (q7_host_core_done(f, core, h->cores, r) != 0)
			return 1;
	}
	/* The runtime makes tensors in the heap arena and the arguments' bytes. */
	uint64_t heap = (uint64_t)(uintptr_t)q7_confine_heap(h->cf), numel, extent;
	uint64_t range[Q7_MAX_ARGS + 1][2] = {{heap, heap + h->heap_size}};
	unsigned n = 1;
	for (unsigned i = 0; i < c->nargs; i++)
		if (c->args[i].kind == Q7_ARG_TENSOR &&
		    q7_tensor_bytes(&c->args[i].u.tensor, &numel, &extent)) {
			range[n][0] = c->args[i].u.tensor.data;
			range[n][1] = range[n][0] + extent;
			n++;
		}
	return q7_host_finish(c, f, c->dst.data, range, n, r);
}
