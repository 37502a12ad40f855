// test_rebuild.py's compute function, which the test edits: out[i] =
// x[0] * STALE_SCALE (stale_scale.h) + i, + STALE_EXTRA when a flag
// defines it, for every element of the shape function's output.
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include "stale_scale.h"

#ifndef STALE_EXTRA
#define STALE_EXTRA 0
#endif

torch::Tensor stale(const torch::Tensor& x) {
    torch::Tensor y = get_dst_tensor();
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0; i < y.numel(); i++)
        out[i] = in[0] * STALE_SCALE + (float)i + STALE_EXTRA;
    return y;
}
