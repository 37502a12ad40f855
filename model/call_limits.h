/* model/call_limits: the limits the host sides share, each written once: the
 * run engine's targets (host, isolated host, emulated: run/), and what
 * the bridge and q7-run say of them (docs/runtime.md, "The run engine"). */
#ifndef Q7_CALL_LIMITS_H
#define Q7_CALL_LIMITS_H

/* A call's time-out when none is given (--timeout, Q7CC_TORCH_TIMEOUT), in
 * seconds, for all cores of a call together, boot included. */
#define Q7_DEFAULT_TIMEOUT_S 60.0
/* The least time the op list's call (the runtime's code, not a kernel's,
 * and the core's boot) gets on the emulated core, whatever shorter limit
 * a user set for kernels. */
#define Q7_LIST_TIMEOUT_MIN_S 5.0
/* The native stack a host core's call runs on, and a device core's stack
 * size checked within it. */
#define Q7_CORE_STACK (256u << 10)
/* A device core's own stack (the emulated core's: runtime/include/q7/boot.h,
 * Q7_BOOT_STACK_SIZE): what a kernel without a declared stack size may
 * need at most, held against GCC's figures at the build (docs/driver.md,
 * "The kernel's stack at the build"). */
#define Q7_DEVICE_CORE_STACK (64u << 10)
/* The fault handler's own stack: the core's may be gone. */
#define Q7_ALT_STACK (64u << 10)

#endif
