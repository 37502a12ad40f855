/* assert() and abort() in kernels: the C library's hooks
 * (docs/runtime.md, "Errors, assert and abort").
 *
 * Device: picolibc's assert calls __assert_func. Host: glibc's calls
 * __assert_fail. Each is defined here with hidden visibility: the archive
 * comes before the C library on the kernel library's link line, so the
 * kernel's references bind to these, inside the library, and the dynamic
 * linker never picks the C library's. */
#include <stdio.h>

#include <q7/runtime.h>

#define Q7RT_HOOK extern "C" __attribute__((visibility("hidden"), noreturn))

namespace {

[[noreturn]] void assert_failed(const char *file, int line, const char *expr)
{
	char what[256];
	snprintf(what, sizeof what, "assertion failed: %s", expr ? expr : "?");
	q7rt_check_failed(file ? file : "?", line, what);
}

} // namespace

#if defined(__XTENSA__)
Q7RT_HOOK void __assert_func(const char *file, int line, const char *func, const char *expr);
void __assert_func(const char *file, int line, const char *func, const char *expr)
{
	(void)func;
	assert_failed(file, line, expr);
}
#else
Q7RT_HOOK void __assert_fail(const char *expr, const char *file, unsigned line, const char *func);
void __assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
	(void)func;
	assert_failed(file, (int)line, expr);
}
#endif

/* abort itself, by its symbol name: GCC knows abort as a builtin whose
 * visibility a declaration cannot change. */
Q7RT_HOOK void q7rt_abort(void) __asm__("abort");
void q7rt_abort(void)
{
	if (q7rt_cpu_count() > 1)
		q7rt_fail("abort() was called");
	q7rt_fail("abort() was called (on core %u)", (unsigned)q7rt_cpu_id());
}
