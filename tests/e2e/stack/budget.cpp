#include <torch/torch.h>
#include <q7/kernel.h>
// Declares 8 KiB of stack and takes 16 KiB.
Q7_KERNEL_STACK(8192) torch::Tensor tight(const torch::Tensor &x) {
    torch::Tensor out = torch::zeros({1}, torch::kFloat);
    float tmp[4096];
    int64_t n = x.numel() < 16 ? x.numel() : 16;
    for (int64_t i = 0; i < n; i++)
        tmp[(i * 257) % 4096] = x.data_ptr<float>()[i];
    float s = 0;
    for (int64_t i = 0; i < n; i++)
        s += tmp[(i * 257) % 4096];
    out.data_ptr<float>()[0] = s;
    return out;
}
