/* Host kernel faults (host_fault.h): the signals, the record, the image's
 * range, the report line, the handler's installation. */
#include "host_fault.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "support.h"

static const int fault_signals[Q7_FAULT_NSIG] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* The range search's state (dl_iterate_phdr's callback). */
struct range {
	uintptr_t base, hi;
};

static int find_range(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct range *r = ctx;
	(void)size;
	if (info->dlpi_addr != r->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && info->dlpi_addr + ph->p_vaddr + ph->p_memsz > r->hi)
			r->hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	return 1;
}

void q7_fault_prepare(struct q7_fault *f, const char *op, const char *path, const void *entry,
                      unsigned core, unsigned cores)
{
	*f = (struct q7_fault){.core = core, .cores = cores};
	snprintf(f->op, sizeof f->op, "%s", op);
	snprintf(f->image, sizeof f->image, "%s", q7_path_basename(path));
	Dl_info di;
	if (entry && dladdr(entry, &di) && di.dli_fbase) {
		struct range r = {(uintptr_t)di.dli_fbase, 0};
		dl_iterate_phdr(find_range, &r);
		f->lo = r.base;
		f->hi = r.hi;
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

/* Whether the faulting access wrote (x86-64's page-fault error code; a
 * write elsewhere, the likelier for a kernel's breach). */
static int fault_wrote(const void *ucv)
{
#if defined(__x86_64__) && defined(REG_ERR)
	return ucv && (((const ucontext_t *)ucv)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
	(void)ucv;
	return 1;
#endif
}

void q7_fault_record(struct q7_fault *f, int sig, const void *siginfo, const void *ucontext)
{
	const siginfo_t *si = siginfo;
	f->sig = sig;
	f->wrote = fault_wrote(ucontext);
	f->addr = (uint64_t)(uintptr_t)si->si_addr;
	f->pc = ucontext ? fault_pc(ucontext) : 0;
}

/* The line, built without stdio. */
struct line {
	char *b;
	size_t n, size;
};

static void put(struct line *l, const char *s)
{
	while (*s && l->n + 1 < l->size)
		l->b[l->n++] = *s++;
	l->b[l->n] = 0;
}

static void put_num(struct line *l, uint64_t v, unsigned base)
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

const char *q7_fault_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (invalid memory access)";
	case SIGBUS: return "SIGBUS (misaligned or unmapped access)";
	case SIGFPE: return "SIGFPE (arithmetic fault, e.g. an integer division by zero)";
	case SIGILL: return "SIGILL (illegal instruction)";
	default: return "SIGABRT (abort)";
	}
}

size_t q7_fault_format(const struct q7_fault *f, const char *where, char *buf, size_t size)
{
	struct line l = {buf, 0, size};
	if (size == 0)
		return 0;
	buf[0] = 0;
	/* An empty op is the op list's request: the runtime's own code. */
	if (f->op[0]) {
		put(&l, f->op);
		put(&l, ": the kernel crashed");
	} else {
		put(&l, "the runtime crashed");
	}
	if (f->cores > 1) {
		put(&l, " on core ");
		put_num(&l, f->core, 10);
	}
	put(&l, ": ");
	put(&l, q7_fault_name(f->sig));
	if (f->sig == SIGSEGV || f->sig == SIGBUS) {
		put(&l, ", address ");
		put_num(&l, f->addr, 16);
		if (where) {
			put(&l, ": ");
			put(&l, where);
		}
	}
	if (f->pc >= f->lo && f->pc < f->hi) {
		/* The offset is what addr2line takes for the .so. */
		put(&l, ", at ");
		put(&l, f->image);
		put(&l, "+");
		put_num(&l, f->pc - f->lo, 16);
	} else if (f->pc) {
		put(&l, ", at pc ");
		put_num(&l, f->pc, 16);
		put(&l, " (outside ");
		put(&l, f->image);
		put(&l, ")");
	}
	return l.n;
}

void q7_fault_report(const struct q7_fault *f, bool fatal, const char *before, const char *after)
{
	char buf[1024];
	struct line l = {buf, 0, sizeof buf - 1}; /* and the newline */
	put(&l, q7_progname());
	put(&l, fatal ? ": fatal: " : ": error: ");
	put(&l, before);
	l.n += q7_fault_format(f, NULL, buf + l.n, l.size - l.n);
	put(&l, after);
	buf[l.n++] = '\n';
	ssize_t w = write(2, buf, l.n);
	(void)w;
}

void q7_fault_catch(void (*handler)(int, siginfo_t *, void *), struct sigaction *old)
{
	struct sigaction on = {.sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_ONSTACK};
	sigemptyset(&on.sa_mask);
	for (int i = 0; i < Q7_FAULT_NSIG; i++)
		sigaction(fault_signals[i], &on, old ? &old[i] : NULL);
}

void q7_fault_release(const struct sigaction *old)
{
	for (int i = 0; i < Q7_FAULT_NSIG; i++)
		sigaction(fault_signals[i], &old[i], NULL);
}

void q7_fault_altstack(void *stack, size_t size)
{
	stack_t alt = {.ss_sp = stack, .ss_size = size, .ss_flags = stack ? 0 : SS_DISABLE};
	sigaltstack(&alt, NULL);
}
