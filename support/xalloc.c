/* Allocation that cannot fail: q7cc is a short-lived process and has no
 * sensible recovery from running out of memory, so it says so and exits. */
#include "support.h"

#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Q7_NORETURN void out_of_memory(void)
{
	q7_fatal(Q7_EXIT_INTERNAL, "out of memory");
}

void *q7_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *q7_xtsearch(const void *key, void **root, int (*cmp)(const void *, const void *))
{
	void *node = tsearch(key, root, cmp);
	if (!node)
		out_of_memory();
	return node;
}

void *q7_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *q7_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *q7_xgrow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	size_t n = *cap ? *cap : 8;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (size && n > SIZE_MAX / size)
		out_of_memory();
	v = q7_xrealloc(v, n * size);
	*cap = n;
	return v;
}

char *q7_xstrdup(const char *s)
{
	return q7_xstrndup(s, strlen(s));
}

char *q7_xstrndup(const char *s, size_t n)
{
	char *p = q7_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *q7_xasprintf(const char *fmt, ...)
{
	struct q7_strbuf b = {0};
	va_list ap;
	va_start(ap, fmt);
	q7_sb_vaddf(&b, fmt, ap);
	va_end(ap);
	return q7_sb_take(&b);
}
