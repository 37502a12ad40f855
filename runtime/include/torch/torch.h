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
 * it. Everything is in namespace at, with the names the guide uses also in
 * torch (and the value types in c10).
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

namespace torch {
using at::BFloat16;
using at::Half;
using at::IntArrayRef;
using at::Scalar;
using at::ScalarType;
using at::Tensor;
using at::TensorAccessor;
using at::TensorOptions;
using at::TensorReadStreamAccessor;
using at::TensorTcmAccessor;
using at::TensorWriteStreamAccessor;
using at::dtype;
using at::kBFloat16;
using at::kBool;
using at::kByte;
using at::kChar;
using at::kDouble;
using at::kFloat;
using at::kHalf;
using at::kInt;
using at::kLong;
using at::kShort;
/* factories */
using at::empty;
using at::empty_like;
using at::eye;
using at::full;
using at::ones;
using at::ones_like;
using at::zeros;
using at::zeros_like;
/* operations */
using at::abs;
using at::abs_out;
using at::add;
using at::add_out;
using at::bitwise_and;
using at::bitwise_and_out;
using at::bitwise_not;
using at::bitwise_not_out;
using at::bitwise_or;
using at::bitwise_or_out;
using at::ceil;
using at::ceil_out;
using at::clamp;
using at::clamp_out;
using at::cos;
using at::cos_out;
using at::div;
using at::div_out;
using at::exp;
using at::exp_out;
using at::floor;
using at::floor_out;
using at::log;
using at::log10;
using at::log10_out;
using at::log2;
using at::log2_out;
using at::log_out;
using at::mul;
using at::mul_out;
using at::pow;
using at::pow_out;
using at::sin;
using at::sin_out;
using at::sub;
using at::sub_out;
using at::tan;
using at::tan_out;
} // namespace torch

#endif
