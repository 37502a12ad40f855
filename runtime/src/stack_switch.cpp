/* switch_stack_or_call_wrapper and switchBack (docs/runtime.md, "The stack
 * switch"). With no way to know the headroom (a device loader that leaves
 * stack_limit 0), the wrapper is called directly. */
#include <string.h>

#include "rt.h"

#if !defined(__XTENSA__)
#include <pthread.h>
#include <ucontext.h>
#endif

bool switched_stack;

namespace {

const uint32_t RESERVED = 128; /* above the new sp: the saved context */
const uint32_t MIN_SWITCH = 1024;

uintptr_t current_sp()
{
#if defined(__XTENSA__)
	uintptr_t sp;
	__asm__ volatile("mov %0, a1" : "=r"(sp));
	return sp;
#else
	return reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
#endif
}

uintptr_t stack_limit()
{
	if (q7rt.frame && q7rt.frame->stack_limit)
		return (uintptr_t)q7rt.frame->stack_limit;
#if !defined(__XTENSA__)
	pthread_attr_t attr;
	void *addr = nullptr;
	size_t size = 0, guard = 0;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return 0;
	pthread_attr_getstack(&attr, &addr, &size);
	pthread_attr_getguardsize(&attr, &guard);
	pthread_attr_destroy(&attr);
	return reinterpret_cast<uintptr_t>(addr) + guard;
#else
	return 0;
#endif
}

#if defined(__XTENSA__)
q7rt_ctx back_ctx;

void run_on(customop_wrapper_body fn, void *stack, uintptr_t top)
{
	(void)stack;
	if (q7rt_ctx_save(&back_ctx) == 0)
		q7rt_call_on_stack(fn, top);
}

void go_back() { q7rt_ctx_resume(&back_ctx, 1); }
#else
ucontext_t back_ctx, run_ctx;
customop_wrapper_body run_fn;

void trampoline() { run_fn(); }

void run_on(customop_wrapper_body fn, void *stack, uintptr_t top)
{
	run_fn = fn;
	if (getcontext(&run_ctx) != 0)
		q7rt_fail("stack switch: getcontext failed");
	run_ctx.uc_stack.ss_sp = stack;
	run_ctx.uc_stack.ss_size = top - reinterpret_cast<uintptr_t>(stack);
	run_ctx.uc_link = &back_ctx;
	makecontext(&run_ctx, trampoline, 0);
	if (swapcontext(&back_ctx, &run_ctx) != 0)
		q7rt_fail("stack switch: swapcontext failed");
}

void go_back() { setcontext(&back_ctx); }
#endif

} // namespace

int switch_stack_or_call_wrapper(customop_wrapper_body fn, uint32_t size)
{
	if (!fn)
		q7rt_fail("switch_stack_or_call_wrapper: no wrapper");
	if (size > MAX_STACK_SIZE)
		q7rt_fail("stack switch: %lu bytes asked, at most %u", (unsigned long)size,
		          (unsigned)MAX_STACK_SIZE);
	switched_stack = false;
	uintptr_t sp = current_sp();
	uintptr_t limit = stack_limit();
	if (limit == 0 || (sp > limit && sp - limit >= size)) {
		fn();
		return 0;
	}
	uint32_t bytes = size < MIN_SWITCH ? MIN_SWITCH : size;
	void *stack = q7rt_alloc(bytes, 64, "a switched stack");
	uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + bytes - RESERVED) & ~(uintptr_t)15;
	switched_stack = true;
	if (q7rt.frame)
		q7rt.frame->switched_stack = 1;
	q7rt.on_switched = true;
	run_on(fn, stack, top);
	q7rt.on_switched = false;
	q7rt_arena_free(&q7rt.heap, stack);
	return 0;
}

void switchBack()
{
	if (q7rt.on_switched)
		go_back();
}
