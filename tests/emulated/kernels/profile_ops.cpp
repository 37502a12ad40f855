// Kernels for the instruction profile (tests/emulated/run_profile.py).
// mix() takes the same instructions whatever its argument (shifts, adds
// and a fixed loop: no multiply helper, no data-dependent branch), so a
// kernel calling it n times shows n times one call's instructions under
// it. scale() multiplies floats: the soft-float helper shows under it.
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

__attribute__((noipa)) static int32_t mix(int32_t x) {
    int32_t h = x;
    for (int k = 0; k < 8; k++)
        h = (h << 5) - h + k;
    return h;
}

__attribute__((noipa)) static float scale(float v) { return v * 1.5f; }

// out[0] = mix(x[0]) ^ mix(x[0] + 1) ^ ... (n calls), out[1] = scale(x[1]).
Q7_KERNEL torch::Tensor mix_n(const torch::Tensor& x, int64_t n) {
    torch::Tensor out = torch::zeros({2}, torch::kInt);
    const int32_t* in = x.data_ptr<int32_t>();
    int32_t acc = 0;
    for (int64_t i = 0; i < n; i++)
        acc ^= mix(in[0] + (int32_t)i);
    out.data_ptr<int32_t>()[0] = acc;
    float f = scale((float)in[1]);
    out.data_ptr<int32_t>()[1] = (int32_t)f;
    return out;
}

// out[0] = x[1] scaled n times: n float multiplies under scale(), so
// the device view's "f32 mul" frame is wide enough to be drawn beside
// the runtime's own instructions.
Q7_KERNEL torch::Tensor scale_n(const torch::Tensor& x, int64_t n) {
    torch::Tensor out = torch::zeros({1}, torch::kInt);
    float f = (float)x.data_ptr<int32_t>()[1];
    for (int64_t i = 0; i < n; i++)
        f = scale(f) * 0.5f;
    out.data_ptr<int32_t>()[0] = (int32_t)f;
    return out;
}

// out[0] = x[0] + (x[1] - 3) in float: with x = [7, 3] a sum with a zero,
// which the soft-float add's fast path hands to its general case.
Q7_KERNEL torch::Tensor sum_zero(const torch::Tensor& x) {
    torch::Tensor out = torch::zeros({1}, torch::kInt);
    const int32_t* in = x.data_ptr<int32_t>();
    out.data_ptr<int32_t>()[0] = (int32_t)((float)in[0] + (float)(in[1] - 3));
    return out;
}

// Every core: mix() over its rows of the destination (rows id, id + n, ...).
Q7_KERNEL torch::Tensor mix_rows(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    auto in = x.accessor<int32_t, 2>();
    auto acc = out.accessor<int32_t, 2>();
    uint32_t id = get_cpu_id();
    uint32_t n = get_cpu_count();
    for (int64_t r = id; r < out.size(0); r += n)
        for (int64_t c = 0; c < out.size(1); c++)
            acc[r][c] = mix(in[r][c]);
    return out;
}

// Asks for a 64 KiB stack: the memory map shows it at the window's top.
Q7_KERNEL_STACK(65536) torch::Tensor stacked(const torch::Tensor& x) {
    torch::Tensor out = torch::zeros({1}, torch::kInt);
    out.data_ptr<int32_t>()[0] = mix(x.data_ptr<int32_t>()[0]);
    return out;
}
