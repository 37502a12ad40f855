/* <torch/torch.h>: the kernel-author torch API of the public Neuron custom-op
 * reference guide, implemented over q7cc's open runtime: docs/runtime.md,
 * "What kernels get". <assert.h> too, as the guide's examples use assert()
 * without including it. Everything is in namespace at, and so in torch
 * (the value types in c10). */
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
