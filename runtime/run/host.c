/* The host target of the run engine: a host-profile kernel library run
 * in this process. Each distinct image is dlopen'ed once, privately
 * (RTLD_LOCAL: its symbols, which may mangle like libtorch's, never serve
 * anyone else), and kept open with one heap arena and one frame until the
 * engine is closed. Cores run one after another over the same
 * destination: SPMD kernels do not synchronise, so any order is a valid
 * schedule. The runtime re-initialises the arena at every call.
 *
 * Two ways to call a core (engine.h, enum q7_host_mode):
 * - direct: on the caller's thread, with frame->stack_limit 256 KiB below
 *   the stack pointer (never below the thread's own stack), so kernels
 *   that need more take the runtime's stack-switch path as on the device;
 * - guarded (q7-run): on a thread of its own with a 256 KiB stack, under a
 *   handler that turns a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT)
 *   into one line naming the op, the core, the signal and where in the
 *   image, as the emulated core's exception report does, instead of the
 *   shell's bare "Segmentation fault"; the process then exits with 1.
 *
 * Memory: a q7_host owns its handles, arena, frame and paths; a call's
 * result owns out_data (only when the call gave no destination). */
#include "host.h"
#include "result.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define DEFAULT_HEAP (64u << 20)
#define CORE_STACK (256u << 10) /* the native stack of a core's call */

typedef int (*entry_fn)(struct q7_frame *);

struct core_call {
	entry_fn entry;
	struct q7_frame *frame;
	int rc;
};

static int host_write(int fd, const void *buf, uint32_t len)
{
	return (int)write(fd == 2 ? 2 : 1, buf, len);
}

/* ---- a kernel that faults ------------------------------------------------ */

#define ALT_STACK (64u << 10) /* the handler's own stack: the core's may be gone */

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NFAULT (sizeof fault_signals / sizeof fault_signals[0])

/* What the handler reports, set before each core's call. */
static struct {
	char op[64];
	char image[256]; /* the file's base name */
	unsigned core, cores;
	uintptr_t lo, hi; /* the image's loaded bytes */
} fault;

/* The handler's formatting: write(2) only (async-signal-safe). */
struct line {
	char b[768];
	size_t n;
};

static void put(struct line *l, const char *s)
{
	while (*s && l->n < sizeof l->b - 1)
		l->b[l->n++] = *s++;
}

static void put_num(struct line *l, uintptr_t v, unsigned base)
{
	char d[2 * sizeof v + 1];
	int i = (int)sizeof d;
	d[--i] = 0;
	do {
		d[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && i > 0);
	if (base == 16)
		put(l, "0x");
	put(l, d + i);
}

static const char *fault_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (invalid memory access)";
	case SIGBUS: return "SIGBUS (misaligned or unmapped access)";
	case SIGFPE: return "SIGFPE (arithmetic fault, e.g. an integer division by zero)";
	case SIGILL: return "SIGILL (illegal instruction)";
	default: return "SIGABRT (abort)";
	}
}

static uintptr_t fault_pc(const void *ucv)
{
#if defined(__x86_64__) && defined(REG_RIP)
	return (uintptr_t)((const ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)((const ucontext_t *)ucv)->uc_mcontext.pc;
#else
	(void)ucv;
	return 0;
#endif
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	struct line l = {.n = 0};
	put(&l, q7_progname());
	put(&l, ": error: ");
	put(&l, fault.op);
	put(&l, ": the kernel crashed");
	if (fault.cores > 1) {
		put(&l, " on core ");
		put_num(&l, fault.core, 10);
	}
	put(&l, ": ");
	put(&l, fault_name(sig));
	if (sig == SIGSEGV || sig == SIGBUS) {
		put(&l, ", address ");
		put_num(&l, (uintptr_t)si->si_addr, 16);
	}
	uintptr_t pc = fault_pc(uc);
	if (pc >= fault.lo && pc < fault.hi) {
		/* The offset is what addr2line takes for the .so. */
		put(&l, ", at ");
		put(&l, fault.image);
		put(&l, "+");
		put_num(&l, pc - fault.lo, 16);
	} else if (pc) {
		put(&l, ", at pc ");
		put_num(&l, pc, 16);
		put(&l, " (outside ");
		put(&l, fault.image);
		put(&l, ")");
	}
	put(&l, "\n");
	ssize_t w = write(2, l.b, l.n);
	(void)w;
	_exit(Q7_EXIT_ERROR);
}

/* The loaded range of the object whose base is ctx's lo. */
static int find_range(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	if (info->dlpi_addr != fault.lo)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && info->dlpi_addr + ph->p_vaddr + ph->p_memsz > fault.hi)
			fault.hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	(void)ctx;
	return 1;
}

static void fault_prepare(entry_fn entry, const char *path, const struct q7_frame *f)
{
	memset(&fault, 0, sizeof fault);
	snprintf(fault.op, sizeof fault.op, "%s", f->op);
	snprintf(fault.image, sizeof fault.image, "%s", q7_path_basename(path));
	fault.core = f->cpu_id;
	fault.cores = f->cpu_count;
	Dl_info di;
	void *p;
	*(entry_fn *)&p = entry;
	if (dladdr(p, &di) && di.dli_fbase) {
		fault.lo = (uintptr_t)di.dli_fbase;
		dl_iterate_phdr(find_range, NULL);
	}
}

static void *core_main(void *arg)
{
	struct core_call *c = arg;
	stack_t alt = {.ss_sp = q7_xmalloc(ALT_STACK), .ss_size = ALT_STACK};
	sigaltstack(&alt, NULL);
	c->rc = c->entry(c->frame);
	stack_t off = {.ss_flags = SS_DISABLE};
	sigaltstack(&off, NULL);
	free(alt.ss_sp);
	return NULL;
}

/* Guarded: the core on its own small-stack thread under the fault
 * handler. 0, or -1 with the reason in err. */
static int run_guarded(entry_fn entry, const char *path, struct q7_frame *f, char *err, size_t n)
{
	pthread_attr_t attr;
	pthread_t th;
	struct core_call call = {entry, f, -1};
	fault_prepare(entry, path, f);
	struct sigaction on = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_ONSTACK},
	                 old[NFAULT];
	sigemptyset(&on.sa_mask);
	for (size_t i = 0; i < NFAULT; i++)
		sigaction(fault_signals[i], &on, &old[i]);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CORE_STACK);
	int e = pthread_create(&th, &attr, core_main, &call);
	pthread_attr_destroy(&attr);
	if (e == 0)
		pthread_join(th, NULL);
	/* The loader's own faults are not the kernel's. */
	for (size_t i = 0; i < NFAULT; i++)
		sigaction(fault_signals[i], &old[i], NULL);
	if (e != 0) {
		snprintf(err, n, "cannot start the core's thread: %s", strerror(e));
		return -1;
	}
	return 0;
}

struct q7_host {
	unsigned cores;
	enum q7_host_mode mode;
	char *paths[Q7_MAX_CORES];
	void *handles[Q7_MAX_CORES];
	entry_fn entries[Q7_MAX_CORES];
	void *heap;
	size_t heap_size;
	pthread_t stack_thread; /* the last thread that called, and its stack */
	uintptr_t stack_low;
	struct q7_frame frame;
};

/* The lowest usable address of this thread's stack (1 when unknown),
 * kept for the last thread that called (pthread_getattr_np reads /proc
 * for the main thread). */
static uintptr_t stack_low(struct q7_host *h)
{
	pthread_t self = pthread_self();
	if (h->stack_low && pthread_equal(self, h->stack_thread))
		return h->stack_low;
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
	h->stack_thread = self;
	h->stack_low = low;
	return low;
}

/* Direct: the stack limit the runtime compares a kernel's stack size with,
 * a device core's stack below here, but never below the thread's own. */
static uint64_t direct_stack_limit(struct q7_host *h)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t low = stack_low(h);
	uintptr_t lim = sp > CORE_STACK ? sp - CORE_STACK : 0;
	return lim > low ? lim : (low > 1 ? low : 0);
}

/* dlopen needs a slash to take a path as a path. */
static void *open_image(const char *path, char *err, size_t n)
{
	char *p = strchr(path, '/') ? q7_xstrdup(path) : q7_xasprintf("./%s", path);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	free(p);
	if (!h) {
		const char *why = dlerror();
		snprintf(err, n, "%s: cannot load: %s%s", path, why ? why : "unknown error",
		         why && strstr(why, "ELF class") ? " (an Xtensa image? use the emulated target)" : "");
	}
	return h;
}


int q7_host_open(const struct q7_strvec *images, size_t heap_size, enum q7_host_mode mode,
                 struct q7_host **out, char *err, size_t n)
{
	struct q7_host *h = q7_xcalloc(1, sizeof *h);
	*out = NULL;
	h->cores = (unsigned)images->n;
	h->mode = mode;
	h->heap_size = heap_size ? heap_size : DEFAULT_HEAP;
	if (h->cores == 0 || h->cores > Q7_MAX_CORES) {
		snprintf(err, n, "%u cores asked, 1 to %d", h->cores, Q7_MAX_CORES);
		goto fail;
	}
	if (posix_memalign(&h->heap, 64, h->heap_size) != 0) {
		h->heap = NULL;
		snprintf(err, n, "cannot allocate a heap arena of %zu bytes", h->heap_size);
		goto fail;
	}
	for (unsigned core = 0; core < h->cores; core++) {
		h->paths[core] = q7_xstrdup(images->v[core]);
		h->handles[core] = open_image(h->paths[core], err, n);
		if (!h->handles[core])
			goto fail;
		*(void **)&h->entries[core] = dlsym(h->handles[core], "q7_entry");
		if (!h->entries[core]) {
			snprintf(err, n, "%s: not a q7cc kernel library (no q7_entry)", h->paths[core]);
			goto fail;
		}
	}
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
	/* dlclose in reverse; the same image opened twice is refcounted. */
	for (unsigned i = Q7_MAX_CORES; i-- > 0;) {
		if (h->handles[i])
			dlclose(h->handles[i]);
		free(h->paths[i]);
	}
	free(h->heap);
	free(h);
}

/* The frame of core's call (the op's name is shorter than f->op: checked
 * by q7_host_call). Only the arguments the call has are copied. */
static void fill_frame(struct q7_host *h, const struct q7_call *c, unsigned core)
{
	struct q7_frame *f = &h->frame;
	q7_run_frame_fill(f, c->op, c->nargs, c->args, &c->dst, core, h->cores);
	f->heap_base = (uint64_t)(uintptr_t)h->heap;
	f->heap_size = h->heap_size;
	f->write_fn = (uint64_t)(uintptr_t)host_write;
}

int q7_host_call(struct q7_host *h, const struct q7_call *c, struct q7_run_result *r)
{
	struct q7_frame *f = &h->frame;
	char err[Q7_MESSAGE_SIZE];
	memset(r, 0, offsetof(struct q7_run_result, message) + 1);
	memset(&r->out, 0, sizeof *r - offsetof(struct q7_run_result, out));
	if (c->nargs > Q7_MAX_ARGS || strlen(c->op) >= sizeof f->op) {
		q7_run_fail(r, "%s: %u arguments (at most %d), a name of %zu characters (at most %zu)",
		            c->op, c->nargs, Q7_MAX_ARGS, strlen(c->op), sizeof f->op - 1);
		return 1;
	}
	if (h->cores > 1 && c->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", h->cores);
		return 1;
	}
	for (unsigned core = 0; core < h->cores; core++) {
		fill_frame(h, c, core);
		if (h->mode == Q7_HOST_DIRECT) {
			f->stack_limit = direct_stack_limit(h);
			h->entries[core](f);
		} else {
			if (run_guarded(h->entries[core], h->paths[core], f, err, sizeof err) != 0) {
				q7_run_fail(r, "%s", err);
				return 1;
			}
			fflush(stdout);
		}
		if (f->switched_stack)
			r->switched_stack = 1;
		f->message[sizeof f->message - 1] = 0;
		if (f->status != Q7_STATUS_OK) {
			/* "core N: " fits: the frame's message is cut to make room. */
			int k = h->cores > 1 ? snprintf(r->message, sizeof r->message, "core %u: ", core) : 0;
			snprintf(r->message + k, sizeof r->message - (size_t)k, "%s", f->message);
			r->status = f->status;
			return 1;
		}
		/* A warning (status OK and a message): every core gives the same
		 * one, so the first is kept. */
		if (f->message[0] && !r->message[0])
			snprintf(r->message, sizeof r->message, "%s", f->message);
	}
	if (c->dst.data != 0) {
		/* Written in place: the runtime copied a returned tensor into it
		 * or the kernel wrote it through get_dst_tensor(). */
		if (f->out.data != c->dst.data) {
			q7_run_fail(r, "%s: the runtime left the result outside the destination", c->op);
			return 1;
		}
		r->out = f->out;
		r->status = Q7_STATUS_OK;
		return 0;
	}
	if (q7_run_take_output(f, (const unsigned char *)(uintptr_t)f->out.data, SIZE_MAX, r) != 0)
		return 1;
	r->status = Q7_STATUS_OK;
	return 0;
}
