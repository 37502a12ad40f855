/* memmove, memcpy and memset for a device image, in place of picolibc's,
 * whose memmove moves a byte at a time (docs/performance.md). Disjoint
 * ranges go to picolibc's memcpy, overlapping ones move a word at a time
 * when source and destination share their alignment; a block of
 * Q7_MOVE_MIN bytes or more goes to the loader's mover first, when the
 * frame names one (docs/emulated.md, "Block moves", which says how a
 * kernel's calls come here). Built for Xtensa only. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "q7/frame.h"

/* picolibc's memcpy and memset, renamed when the C library was staged. */
void *q7_core_memcpy(void *dst, const void *src, size_t n);
void *q7_core_memset(void *dst, int c, size_t n);

/* The frame's mover, set by the entry for each call (none without one). */
static q7_move_fn mover;

void q7rt_device_mover(const struct q7_frame *f);
void q7rt_device_mover(const struct q7_frame *f)
{
	mover = f ? (q7_move_fn)(uintptr_t)f->move_fn : 0;
}

/* True when the loader moved (fill Q7_MOVE_COPY) or filled the n bytes. */
static int moved(void *dst, const void *src, size_t n, int fill)
{
	return n >= Q7_MOVE_MIN && mover && mover(dst, src, (uint32_t)n, fill) == 0;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	if (moved(dst, src, n, Q7_MOVE_COPY))
		return dst;
	return q7_core_memcpy(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
	if (moved(dst, NULL, n, (unsigned char)c))
		return dst;
	return q7_core_memset(dst, c, n);
}

/* The byte loops must stay loops: GCC would make them memmove calls. */
#define Q7_NO_IDIOMS __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* A word that may hold any type's bytes. */
typedef uint32_t __attribute__((may_alias)) word;

/* 16 bytes, all four words loaded before any is stored: right in either
 * direction within the block. */
static inline void copy16(unsigned char *d, const unsigned char *s)
{
	word a = ((const word *)s)[0], b = ((const word *)s)[1];
	word c = ((const word *)s)[2], e = ((const word *)s)[3];
	((word *)d)[0] = a;
	((word *)d)[1] = b;
	((word *)d)[2] = c;
	((word *)d)[3] = e;
}

Q7_NO_IDIOMS static void move_down(unsigned char *d, const unsigned char *s, size_t n)
{
	if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
		for (; n && ((uintptr_t)d & 3u); n--)
			*d++ = *s++;
		for (; n >= 16; n -= 16, d += 16, s += 16)
			copy16(d, s);
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(word *)d = *(const word *)s;
	}
	while (n--)
		*d++ = *s++;
}

Q7_NO_IDIOMS static void move_up(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n;
	s += n;
	if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
		for (; n && ((uintptr_t)d & 3u); n--)
			*--d = *--s;
		for (; n >= 16; n -= 16) {
			d -= 16;
			s -= 16;
			copy16(d, s);
		}
		for (; n >= 4; n -= 4) {
			d -= 4;
			s -= 4;
			*(word *)d = *(const word *)s;
		}
	}
	while (n--)
		*--d = *--s;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (d == s || n == 0 || moved(dst, src, n, Q7_MOVE_COPY))
		return dst;
	if (d + n <= s || s + n <= d)
		return q7_core_memcpy(dst, src, n);
	if (d < s)
		move_down((unsigned char *)dst, (const unsigned char *)src, n);
	else
		move_up((unsigned char *)dst, (const unsigned char *)src, n);
	return dst;
}
