/* <torch/torch.h>: the kernel-author torch API of the public Neuron custom-op
 * reference guide, implemented over q7cc's open runtime (docs/runtime.md
 * lists every entry point):
 *
 *   <q7/types.h>   dtypes, Half, BFloat16, IntArrayRef, Scalar, TensorOptions
 *   <q7/tensor.h>  Tensor, its accessors (standard, TCM, streaming) and the
 *                  coherence policy
 *   <q7/ops.h>     the factories and the tensor operations
 *   <q7/check.h>   TORCH_CHECK
 *
 * and <assert.h>, as the guide's examples use assert() without including
 * it. Everything is in namespace at, and so in torch (the value types
 * in c10).
 *
 * Misuse (a wrong dtype or rank for an accessor, an out-of-range copy,
 * mismatched shapes, an exhausted arena) stops the op with a KERNEL_ERROR
 * and a message instead of corrupting memory.
 *
 * Plain C++14; no C++ standard library is needed (the gnu profile's
 * xtensa-lx106-elf-g++ ships only picolibc's C headers; q7cc adds its own
 * C++ headers, see <prefix>/include/q7cc/c++). */
#ifndef Q7_TORCH_TORCH_H
#define Q7_TORCH_TORCH_H

#include <assert.h>

#include <q7/check.h>
#include <q7/ops.h>
#include <q7/tensor.h>
#include <q7/types.h>

/* Every name of at also in torch, as kernels written for PyTorch expect. */
namespace torch {
using namespace at;
} // namespace torch

#endif
