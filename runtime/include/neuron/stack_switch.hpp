/* <neuron/stack_switch.hpp>: running an op's wrapper on a big enough stack
 * (docs/runtime.md, "The stack switch"). */
#ifndef Q7_NEURON_STACK_SWITCH_HPP
#define Q7_NEURON_STACK_SWITCH_HPP

#include <stdint.h>

#ifndef STACK_SIZE
#define STACK_SIZE 4196 // ~4 KiB when the author asks for nothing else
#endif
#define MAX_STACK_SIZE 0x400000
static_assert(STACK_SIZE <= MAX_STACK_SIZE, "STACK_SIZE is over MAX_STACK_SIZE (4 MiB)");

extern bool switched_stack;

typedef void (*customop_wrapper_body)();
int switch_stack_or_call_wrapper(customop_wrapper_body fn, uint32_t size = STACK_SIZE);
#if UINTPTR_MAX == 0xffffffffu
/* The vendor wrapper passes the function's address as a 32-bit integer. */
inline int switch_stack_or_call_wrapper(uintptr_t fn, uint32_t size = STACK_SIZE)
{
	return switch_stack_or_call_wrapper(reinterpret_cast<customop_wrapper_body>(fn), size);
}
#endif
/* Leaves a wrapper running on a switched stack: back to the caller of
 * switch_stack_or_call_wrapper. Returns at once when no switch happened. */
void switchBack();

#endif
