/* q7_run_host: runs an op of a host-profile kernel library in this
 * process. The library is dlopen'ed (each distinct image once, privately:
 * RTLD_LOCAL), and each core's call runs on its own thread with a small
 * stack like a device core's, so kernels that need more take the runtime's
 * stack-switch path as they would on the device. Cores run one after
 * another over the same destination: SPMD kernels do not synchronise, so
 * any order is a valid schedule. Each call gets a fresh heap arena.
 *
 * A kernel that faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) ends
 * q7-run with a report naming the op, the core, the signal and where in
 * the image, as the emulated core's exception report does, instead of the
 * shell's bare "Segmentation fault"; no output file is written. */
#include "result.h"
#include "run.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "image.h"
#include "npy.h"
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

static int run_core(entry_fn entry, const char *path, struct q7_frame *f,
                    struct q7_run_result *r)
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
	/* q7-run's own faults are not the kernel's. */
	for (size_t i = 0; i < NFAULT; i++)
		sigaction(fault_signals[i], &old[i], NULL);
	if (e != 0) {
		q7_run_fail(r, "cannot start the core's thread: %s", strerror(e));
		return -1;
	}
	return 0;
}

/* dlopen needs a slash to take a path as a path. */
static void *open_image(const char *path, struct q7_run_result *r)
{
	char *p = strchr(path, '/') ? q7_xstrdup(path) : q7_xasprintf("./%s", path);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	free(p);
	if (!h) {
		const char *why = dlerror();
		q7_run_fail(r, "%s: cannot load: %s%s", path, why ? why : "unknown error",
		     why && strstr(why, "ELF class") ? " (an Xtensa image? try --target=emulated)" : "");
	}
	return h;
}

static void fill_frame(struct q7_frame *f, const struct q7_run_request *req, unsigned core,
                       void *heap, size_t heap_size)
{
	q7_run_frame_init(f, req, core, req->cores ? req->cores : 1);
	f->heap_base = (uint64_t)(uintptr_t)heap;
	f->heap_size = heap_size;
	f->write_fn = (uint64_t)(uintptr_t)host_write;
}


int q7_run_host(const struct q7_run_request *req, struct q7_run_result *r)
{
	memset(r, 0, sizeof *r);
	unsigned cores = req->cores ? req->cores : 1;
	if (cores > 8) {
		q7_run_fail(r, "%u cores asked, at most 8", cores);
		return 1;
	}
	if (cores > 1 && req->dst.data == 0) {
		q7_run_fail(r, "%u cores need a destination tensor", cores);
		return 1;
	}
	struct q7_strvec paths = {0};
	char *err = NULL;
	if (q7_run_images(req->lib, cores, &paths, &err) != 0) {
		q7_run_fail(r, "%s", err);
		free(err);
		return 1;
	}
	size_t heap_size = req->heap_size ? req->heap_size : DEFAULT_HEAP;
	void *heap = NULL;
	struct q7_frame *f = q7_xcalloc(1, sizeof *f);
	void *handles[8] = {0};
	int rc = 1;
	if (posix_memalign(&heap, 64, heap_size) != 0) {
		q7_run_fail(r, "cannot allocate a heap arena of %zu bytes", heap_size);
		goto out;
	}
	for (unsigned core = 0; core < cores; core++) {
		handles[core] = open_image(paths.v[core], r);
		if (!handles[core])
			goto out;
		entry_fn entry;
		*(void **)&entry = dlsym(handles[core], "q7_entry");
		if (!entry) {
			q7_run_fail(r, "%s: not a q7cc kernel library (no q7_entry)", paths.v[core]);
			goto out;
		}
		fill_frame(f, req, core, heap, heap_size);
		if (run_core(entry, paths.v[core], f, r) != 0)
			goto out;
		fflush(stdout);
		if (f->switched_stack)
			r->switched_stack = 1;
		if (f->status != Q7_STATUS_OK) {
			r->status = f->status;
			/* "core N: " fits: the frame's message is cut to make room. */
			int n = cores > 1 ? snprintf(r->message, sizeof r->message, "core %u: ", core) : 0;
			memcpy(r->message + n, f->message, sizeof r->message - (size_t)n - 1);
			r->message[sizeof r->message - 1] = 0;
			goto out;
		}
		if (core + 1 == cores && q7_run_take_output(f, (const unsigned char *)(uintptr_t)f->out.data, SIZE_MAX, r) != 0)
			goto out;
	}
	r->status = Q7_STATUS_OK;
	rc = 0;
out:
	/* dlclose in reverse; the same image opened twice is refcounted. */
	for (unsigned i = cores; i-- > 0;)
		if (handles[i])
			dlclose(handles[i]);
	free(heap);
	free(f);
	q7_sv_free(&paths);
	return rc;
}
