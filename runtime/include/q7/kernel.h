/* <q7/kernel.h>: marks a function as a custom-op kernel for q7cc.
 *
 *   #include <q7/kernel.h>
 *   Q7_KERNEL at::Tensor relu(const at::Tensor &x);
 *   Q7_KERNEL_STACK(65536) at::Tensor deep(const at::Tensor &x, int n);
 *
 * Under clang (q7cc's analysis, xt-clang++) the marks are annotate
 * attributes that q7cc reads; under other compilers (GCC) they expand to
 * nothing, so the same source builds everywhere without warnings (for
 * q7cc -E: docs/driver.md, "Preprocessed input"). The stack size is in
 * bytes, like -DSTACK_SIZE=, at most 4 MiB. */
#ifndef Q7_KERNEL_H
#define Q7_KERNEL_H

#define Q7_KERNEL_STR_(x) #x
#define Q7_KERNEL_STR(x) Q7_KERNEL_STR_(x)

#if defined(__clang__)
#define Q7_KERNEL __attribute__((annotate("q7.kernel")))
#define Q7_KERNEL_STACK(bytes)              \
	__attribute__((annotate("q7.kernel"), \
	               annotate("q7.stack=" Q7_KERNEL_STR(bytes))))
#else
#define Q7_KERNEL
#define Q7_KERNEL_STACK(bytes)
#endif

#endif
