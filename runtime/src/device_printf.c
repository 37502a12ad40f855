/* The printf family for device images, over printf_core: picolibc's own
 * vfprintf cannot be linked into a position-independent image, and the
 * runtime's messages and the kernels' printf both need one. Output goes to
 * the loader's write function through the runtime's line buffer. These
 * definitions come before -lc on the link line, so they are the ones used.
 * Built for Xtensa only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "printf_core.h"

void q7rt_write(const char *s, size_t n);

struct sbuf {
	char *buf;
	size_t size, len;
};

static void put_buf(void *ctx, char c)
{
	struct sbuf *b = ctx;
	if (b->len + 1 < b->size)
		b->buf[b->len] = c;
	b->len++;
}

static void put_out(void *ctx, char c)
{
	(void)ctx;
	q7rt_write(&c, 1);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sbuf b = {buf, size, 0};
	int n = q7fmt(put_buf, &b, fmt, ap);
	if (size)
		buf[b.len < size ? b.len : size - 1] = 0;
	return n;
}

int vsprintf(char *buf, const char *fmt, va_list ap)
{
	return vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
}

int vprintf(const char *fmt, va_list ap)
{
	return q7fmt(put_out, NULL, fmt, ap);
}

/* Every stream is the loader's output. */
int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	(void)f;
	return vprintf(fmt, ap);
}

/* NAME(PARAMS, ...) through its va_list form: VNAME(the ARGS, ap). */
#define Q7_VARIADIC(NAME, VNAME, PARAMS, ...) \
	int NAME PARAMS \
	{ \
		va_list ap; \
		va_start(ap, fmt); \
		int n = VNAME(__VA_ARGS__, ap); \
		va_end(ap); \
		return n; \
	}
Q7_VARIADIC(snprintf, vsnprintf, (char *buf, size_t size, const char *fmt, ...), buf, size, fmt)
Q7_VARIADIC(sprintf, vsprintf, (char *buf, const char *fmt, ...), buf, fmt)
Q7_VARIADIC(printf, vprintf, (const char *fmt, ...), fmt)
Q7_VARIADIC(fprintf, vfprintf, (FILE *f, const char *fmt, ...), f, fmt)
#undef Q7_VARIADIC

int puts(const char *s)
{
	size_t n = strlen(s);
	q7rt_write(s, n);
	q7rt_write("\n", 1);
	return (int)n + 1;
}

#undef putchar
int putchar(int c)
{
	char ch = (char)c;
	q7rt_write(&ch, 1);
	return (unsigned char)c;
}
