/* Saving and resuming an execution context, and calling a function on
 * another stack: what the stack switch and the runtime's error exit need.
 *
 * On Xtensa (call0 ABI, lx106) these are the few instructions in
 * context_xtensa.S: a context is a0 (return address), a1 (sp) and the
 * callee-saved a12..a15. On the host the compiler's __builtin_setjmp does
 * the same, and ucontext moves to another stack (stack_switch.cpp). */
#ifndef Q7_RT_CONTEXT_H
#define Q7_RT_CONTEXT_H

#include <stdint.h>

#if defined(__XTENSA__)
struct q7rt_ctx {
	uint32_t a0, a1, a12, a13, a14, a15;
};
typedef struct q7rt_ctx q7rt_jmp;
extern "C" {
/* 0 when saving; the value given to q7rt_ctx_resume when resumed. */
int q7rt_ctx_save(struct q7rt_ctx *ctx) __attribute__((returns_twice));
void q7rt_ctx_resume(struct q7rt_ctx *ctx, int value) __attribute__((noreturn));
/* Calls fn() with the stack pointer at top (16-byte aligned, with at least
 * 16 bytes above it for the caller's a0/a1) and returns when fn returns. */
void q7rt_call_on_stack(void (*fn)(), uintptr_t top);
}
#define Q7RT_SETJMP(j) q7rt_ctx_save(&(j))
#define Q7RT_LONGJMP(j) q7rt_ctx_resume(&(j), 1)
#else
typedef void *q7rt_jmp[5];
#define Q7RT_SETJMP(j) __builtin_setjmp(j)
#define Q7RT_LONGJMP(j) __builtin_longjmp((j), 1)
#endif

#endif
