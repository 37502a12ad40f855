/* operator new and delete over the call's heap arena, the same on every
 * target: docs/runtime.md, "new and delete". On the host the process's
 * next definitions serve outside a call and for a block the arena does
 * not hold (libstdc++'s, found with RTLD_NEXT; malloc and free without
 * it). */
#include <new>

#include "rt.h"

#if !defined(__XTENSA__)
#include <dlfcn.h>
#include <stdlib.h>

/* size_t in a mangled name: unsigned long (m) on the 64-bit hosts, else
 * unsigned int (j). */
#if __SIZEOF_SIZE_T__ == 8
#define Q7RT_SZ "m"
#else
#define Q7RT_SZ "j"
#endif

/* Hidden in the library that links them: <new> declared them with
 * default visibility, which a visibility attribute cannot change, so the
 * assembler is told (ELF). */
__asm__(".hidden _Znw" Q7RT_SZ "\n.hidden _Zna" Q7RT_SZ "\n.hidden _ZdlPv\n.hidden _ZdaPv\n"
        ".hidden _ZdlPv" Q7RT_SZ "\n.hidden _ZdaPv" Q7RT_SZ "\n"
        ".hidden _Znw" Q7RT_SZ "RKSt9nothrow_t\n.hidden _Zna" Q7RT_SZ "RKSt9nothrow_t\n"
        ".hidden _ZdlPvRKSt9nothrow_t\n.hidden _ZdaPvRKSt9nothrow_t");

/* The process's own operator new / delete. */
static void *next_new(size_t n, bool array)
{
	static void *(*fn[2])(size_t);
	if (!fn[array])
		*(void **)&fn[array] = dlsym(RTLD_NEXT, array ? "_Zna" Q7RT_SZ : "_Znw" Q7RT_SZ);
	return fn[array] ? fn[array](n) : malloc(n ? n : 1);
}

static void next_delete(void *p, bool array)
{
	static void (*fn[2])(void *);
	if (!fn[array])
		*(void **)&fn[array] = dlsym(RTLD_NEXT, array ? "_ZdaPv" : "_ZdlPv");
	fn[array] ? fn[array](p) : free(p);
}
#endif

/* The arena tag of new's blocks and of new[]'s: a delete frees only a
 * block of its own form (a tensor's data, the destination, a new[] block
 * given to delete: refused, as the sanitizer's operator new refuses
 * them). */
static uint32_t new_tag(bool array) { return array ? 0x6e657731u : 0x6e657730u; }

/* n bytes from the call's arena, tagged; when it is full the op ends
 * (out of memory), or with nothrow the answer is NULL. */
static void *arena_new(size_t n, bool array, bool nothrow = false)
{
#if !defined(__XTENSA__)
	if (!q7rt.frame)
		return next_new(n, array);
#endif
	void *p = nothrow ? q7rt_arena_alloc(&q7rt.heap, n, 16)
	                  : q7rt_alloc(n, 16, array ? "operator new[]" : "operator new");
	q7rt_arena_tag(&q7rt.heap, p, new_tag(array));
	return p;
}

static void arena_delete(void *p, bool array)
{
	if (!p)
		return;
	bool ours = q7rt_arena_owns(&q7rt.heap, p);
#if !defined(__XTENSA__)
	if (!ours) {
		next_delete(p, array);
		return;
	}
	if (!q7rt.frame)
		return; /* a block of an earlier call: gone with its arena */
#endif
	if (!ours || q7rt_arena_free_tagged(&q7rt.heap, p, new_tag(array)) != 0)
		q7rt_fail("operator delete%s: the pointer is not a block of the heap arena in use "
		          "(deleted twice, or not from new%s)", array ? "[]" : "", array ? "[]" : "");
}

void *operator new(size_t n) { return arena_new(n, false); }
void *operator new[](size_t n) { return arena_new(n, true); }
void operator delete(void *p) noexcept { arena_delete(p, false); }
void operator delete[](void *p) noexcept { arena_delete(p, true); }
void operator delete(void *p, size_t) noexcept { arena_delete(p, false); }
void operator delete[](void *p, size_t) noexcept { arena_delete(p, true); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return arena_new(n, false, true); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return arena_new(n, true, true); }
void operator delete(void *p, const std::nothrow_t &) noexcept { arena_delete(p, false); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { arena_delete(p, true); }
