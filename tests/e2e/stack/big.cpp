#include <torch/torch.h>
#include <q7/kernel.h>
// A 96 KiB scratch array of which 16 elements are used.
Q7_KERNEL torch::Tensor big_local(const torch::Tensor &x) {
    torch::Tensor out = torch::empty_like(x);
    float scratch[24576];
    const float *in = x.data_ptr<float>();
    float *o = out.data_ptr<float>();
    int64_t n = x.numel() < 16 ? x.numel() : 16;
    for (int64_t i = 0; i < n; i++)
        scratch[(i * 1531) % 24576] = in[i] * 2.0f;
    for (int64_t i = 0; i < n; i++)
        o[i] = scratch[(i * 1531) % 24576];
    return out;
}
