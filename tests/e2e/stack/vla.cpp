#include <torch/torch.h>
#include <q7/kernel.h>
// A variable-length array: its frame has no size known at the build.
Q7_KERNEL torch::Tensor scratch_vla(const torch::Tensor &x) {
    torch::Tensor out = torch::zeros({1}, torch::kFloat);
    int64_t n = x.numel();
    float tmp[n];
    for (int64_t i = 0; i < n; i++)
        tmp[i] = x.data_ptr<float>()[i];
    out.data_ptr<float>()[0] = tmp[n / 2];
    return out;
}
