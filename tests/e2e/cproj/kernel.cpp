// The kernel, in C++, calls the C helper for each element.
#include <torch/torch.h>
#include <q7/kernel.h>

#include "helper.h"

Q7_KERNEL torch::Tensor c_affine(const torch::Tensor& x) {
    torch::Tensor y = torch::empty(x.sizes(), torch::kFloat);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = helper_affine(in, (int)i);
    return y;
}
