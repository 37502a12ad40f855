/* Kernel output and runtime errors: printf text goes to the loader's
 * write function (frame->write_fn), errors end the op through the bail
 * context that q7_entry set. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

extern "C" void q7rt_flush(void)
{
	q7_frame *f = q7rt.frame;
	if (q7rt.outlen && f && f->write_fn) {
		q7_write_fn w = reinterpret_cast<q7_write_fn>((uintptr_t)f->write_fn);
		w(1, q7rt.out, q7rt.outlen);
	}
	q7rt.outlen = 0;
}

extern "C" void q7rt_write(const char *s, size_t n)
{
	/* As on the device: with several cores, only core 0 prints. */
	if (q7rt_cpu_count() > 1 && q7rt_cpu_id() != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		q7rt.out[q7rt.outlen++] = s[i];
		if (s[i] == '\n' || q7rt.outlen == sizeof q7rt.out)
			q7rt_flush();
	}
}

static void vfail(int status, const char *fmt, va_list ap) __attribute__((noreturn));
static void vfail(int status, const char *fmt, va_list ap)
{
	q7_frame *f = q7rt.frame;
	if (f) {
		int n = 0;
		if (q7rt.op)
			n = snprintf(f->message, sizeof f->message, "%s: ", q7rt.op);
		if (n < 0 || (size_t)n >= sizeof f->message)
			n = 0;
		vsnprintf(f->message + n, sizeof f->message - (size_t)n, fmt, ap);
		f->status = status;
	}
	if (q7rt.guarded) {
		q7rt.guarded = false;
		Q7RT_LONGJMP(q7rt.bail);
	}
	/* Called outside a running op: nothing to return to. */
	__builtin_trap();
}

void q7rt_fail_status(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(status, fmt, ap);
}

extern "C" void q7rt_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(Q7_STATUS_KERNEL_ERROR, fmt, ap);
}

void *q7rt_alloc(size_t bytes, size_t align, const char *what)
{
	void *p = q7rt_arena_alloc(&q7rt.heap, bytes, align);
	if (!p && q7rt.frame && q7rt_breached(q7rt.frame) && q7rt.guarded) {
		/* a header written over, not a full arena: the breach is the error */
		q7rt.guarded = false;
		Q7RT_LONGJMP(q7rt.bail);
	}
	if (!p)
		q7rt_fail_status(Q7_STATUS_NO_MEMORY,
		                 "out of memory: %s of %lu bytes does not fit the heap arena (%lu of %lu "
		                 "bytes in use)",
		                 what, (unsigned long)bytes, (unsigned long)q7rt.heap.used,
		                 (unsigned long)(q7rt.heap.end - q7rt.heap.base));
	return p;
}

/* The file's last component: __FILE__ is often a long absolute path. */
static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : nullptr;
	return slash ? slash + 1 : path ? path : "?";
}

extern "C" void q7rt_check_failed(const char *file, int line, const char *what)
{
	/* With more than one core the loader names the core itself. */
	if (q7rt_cpu_count() > 1)
		q7rt_fail("%s:%d: %s", base_name(file), line, what);
	q7rt_fail("%s:%d: %s (on core %u)", base_name(file), line, what, (unsigned)q7rt_cpu_id());
}
