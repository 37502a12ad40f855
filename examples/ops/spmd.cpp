// An 8-core SPMD kernel: core i fills rows i, i+8, i+16, ... of the shared
// output with row * 1000 + column * 10 + the core's id, reading the input,
// so every core's share is checked separately.
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor spmd_rows(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    auto in = x.accessor<int32_t, 2>();
    auto acc = out.accessor<int32_t, 2>();
    uint32_t id = get_cpu_id();
    uint32_t n = get_cpu_count();
    for (int64_t r = id; r < out.size(0); r += n) {
        for (int64_t c = 0; c < out.size(1); c++) {
            acc[r][c] = in[r][c] + (int32_t)(r * 1000 + c * 10 + id);
        }
    }
    return out;
}
