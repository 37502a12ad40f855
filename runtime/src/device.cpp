/* The few C++ ABI functions a kernel may pull in on the device:
 * std::nothrow, guarded statics, pure virtual calls, and the
 * exception-handling entry points (docs/runtime.md, "C++ on the device";
 * libgcc's unwinder wants malloc). Built for the Xtensa target only. */
#include <new>

#include "rt.h"

const std::nothrow_t std::nothrow{}; /* operator new and delete: new_delete.cpp */

extern "C" {
/* One core runs one call at a time: no locking is needed. */
int __cxa_guard_acquire(uint64_t *g) { return *reinterpret_cast<char *>(g) == 0; }
void __cxa_guard_release(uint64_t *g) { *reinterpret_cast<char *>(g) = 1; }
void __cxa_guard_abort(uint64_t *g) { (void)g; }
void __cxa_pure_virtual() { q7rt_fail("pure virtual function called"); }
/* `new T[n]` with an n whose bytes overflow: the op fails, as a throw
 * would end it (the compiler calls this for every non-constant n). */
void __cxa_throw_bad_array_new_length() { q7rt_fail("new[]: the array's length is too large"); }
/* Static destructors never run: the image is unloaded, not exited. */
int __cxa_atexit(void (*fn)(void *), void *obj, void *dso)
{
	(void)fn; (void)obj; (void)dso;
	return 0;
}
void *__dso_handle = &__dso_handle;

/* Never called: see the top of the file. */
int __gxx_personality_v0(int version, int actions, uint64_t cls, void *exc, void *ctx)
{
	(void)version; (void)actions; (void)cls; (void)exc; (void)ctx;
	return 3; /* _URC_FATAL_PHASE1_ERROR: no handler, ever */
}
void _Unwind_Resume(void *exc)
{
	(void)exc;
	q7rt_fail("C++ exception unwinding is not supported on the device");
}
void *__cxa_begin_catch(void *exc) { return exc; }
void __cxa_end_catch() {}
}

namespace std {
void terminate() noexcept
{
	q7rt_fail("std::terminate was called");
}
} // namespace std
