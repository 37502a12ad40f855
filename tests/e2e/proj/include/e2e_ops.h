#pragma once
#include <torch/torch.h>
#include <q7/kernel.h>

namespace e2e {
/* Marked on the declaration; the definition in scale.cpp is unmarked. */
Q7_KERNEL torch::Tensor scale(const torch::Tensor &x, float s, int n);
}
