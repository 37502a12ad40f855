// Kernels without a shape file (their schemas are derived from the C++,
// their outputs shaped like the first tensor): an int32 kernel, and ones
// that the runtime stops with an error the caller can catch. Accessor
// indices are checked on the device too (its default is off), so that
// both targets stop past_row the same way.
#define Q7_ACCESSOR_CHECKS 1
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

// y = x * k (wrapping in 32 bits), negated when negate.
Q7_KERNEL torch::Tensor iscale(const torch::Tensor& x, int64_t k, bool negate) {
    torch::Tensor y = get_dst_tensor();
    const int32_t* in = x.data_ptr<int32_t>();
    int32_t* out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++) {
        uint32_t v = (uint32_t)in[i] * (uint32_t)k;
        out[i] = (int32_t)(negate ? 0u - v : v);
    }
    return y;
}

// TORCH_CHECK: the input must be 2-D.
Q7_KERNEL torch::Tensor rows_only(const torch::Tensor& x) {
    TORCH_CHECK(x.dim() == 2, "rows_only wants a 2-D tensor");
    return x;
}

// A float accessor on whatever comes: an int32 tensor is refused.
Q7_KERNEL torch::Tensor as_float(const torch::Tensor& x) {
    auto a = x.accessor<float, 1>();
    torch::Tensor y = torch::zeros({x.size(0)}, torch::kFloat);
    auto b = y.accessor<float, 1>();
    for (int64_t i = 0; i < x.size(0); i++)
        b[i] = a[i] + 1.0f;
    return y;
}

// A tcm copy past the tensor's end.
Q7_KERNEL torch::Tensor past_end(const torch::Tensor& x) {
    float* buf = (float*)torch::neuron::tcm_malloc(64 * sizeof(float));
    auto acc = x.tcm_accessor();
    acc.tensor_to_tcm<float>(buf, (size_t)x.numel() - 2, 4);
    torch::neuron::tcm_free(buf);
    return x;
}

// An accessor index one past the rows.
Q7_KERNEL torch::Tensor past_row(const torch::Tensor& x) {
    auto a = x.accessor<float, 2>();
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    y.data_ptr<float>()[0] = a[x.size(0)][0];
    return y;
}

// Counts to n (on the emulated core, n = 1 << 40 runs for hours): a long
// call to interrupt with Ctrl-C.
Q7_KERNEL torch::Tensor count_to(const torch::Tensor& x, int64_t n) {
    volatile int64_t i = 0;
    while (i < n)
        i = i + 1;
    return x;
}

// y = x / k (int32 division, truncated): the profile's device view counts
// each division as one instruction (docs/profile.md).
Q7_KERNEL torch::Tensor iquot(const torch::Tensor& x, int64_t k) {
    torch::Tensor y = get_dst_tensor();
    const int32_t* in = x.data_ptr<int32_t>();
    int32_t* out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] / (int32_t)k;
    return y;
}
