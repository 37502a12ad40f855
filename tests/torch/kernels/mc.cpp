// Multicore kernels (a library built with multicore=True: eight per-core
// images, with examples/ops/relu_tcm.cpp, the vendor's multicore ReLU).
// Each core writes its share of get_dst_tensor().
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

// Row r is written by core r % count: x + 1000 * (core + 1).
Q7_KERNEL torch::Tensor which_core(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    auto in = x.accessor<int32_t, 2>();
    auto o = out.accessor<int32_t, 2>();
    uint32_t id = get_cpu_id(), n = get_cpu_count();
    for (int64_t r = id; r < x.size(0); r += n)
        for (int64_t c = 0; c < x.size(1); c++)
            o[r][c] = in[r][c] + 1000 * (int32_t)(id + 1);
    return out;
}

// Writes 2x through get_dst_tensor() and returns another tensor, which
// the device ignores (and q7cc says so, once).
Q7_KERNEL torch::Tensor twice_other(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    uint32_t id = get_cpu_id(), n = get_cpu_count();
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = id; i < x.numel(); i += n)
        o[i] = 2.0f * in[i];
    return torch::zeros(x.sizes(), torch::kFloat);
}

// Per-core state: each core counts the calls it has seen in a global and
// writes the count at its own index. Each device core has its own copy of
// the image's globals, kept from call to call; so does each host core.
static int32_t calls_seen_here;
Q7_KERNEL torch::Tensor calls_per_core(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    out.data_ptr<int32_t>()[get_cpu_id()] = ++calls_seen_here;
    return out;
}
