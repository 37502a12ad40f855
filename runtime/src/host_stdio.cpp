/* printf and its relatives for host kernel libraries: only core 0 prints
 * (docs/runtime.md, "printf and several cores"); otherwise the C library's
 * own output (stdout), which the loader flushes after each core.
 *
 * The definitions are hidden and come before the C library on the kernel
 * library's link line, so the kernel's calls bind to them (by symbol name:
 * GCC's builtin declarations cannot change visibility). GCC turns some
 * printf calls into puts and putchar, so those are here too. Built for the
 * host only; device_printf.c and q7rt_write do the same on the device. */
#include <stdarg.h>
#include <stdio.h>

#include <q7/runtime.h>

#define Q7RT_HOOK extern "C" __attribute__((visibility("hidden")))

namespace {

bool muted() { return q7rt_cpu_count() > 1 && q7rt_cpu_id() != 0; }

int count_only(const char *fmt, va_list ap)
{
	char one;
	return vsnprintf(&one, 1, fmt, ap);
}

} // namespace

Q7RT_HOOK int q7rt_host_vprintf(const char *fmt, va_list ap) __asm__("vprintf");
int q7rt_host_vprintf(const char *fmt, va_list ap)
{
	return muted() ? count_only(fmt, ap) : vfprintf(stdout, fmt, ap);
}

Q7RT_HOOK int q7rt_host_printf(const char *fmt, ...) __asm__("printf");
int q7rt_host_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = muted() ? count_only(fmt, ap) : vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

Q7RT_HOOK int q7rt_host_puts(const char *s) __asm__("puts");
int q7rt_host_puts(const char *s)
{
	if (muted())
		return 1;
	return fputs(s, stdout) < 0 || fputc('\n', stdout) < 0 ? EOF : 1;
}

Q7RT_HOOK int q7rt_host_putchar(int c) __asm__("putchar");
int q7rt_host_putchar(int c)
{
	if (muted())
		return (unsigned char)c;
	return fputc(c, stdout);
}
