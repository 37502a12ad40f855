#include <torch/torch.h>
#include <q7/kernel.h>
float smooth(const float *x, int64_t n);
Q7_KERNEL torch::Tensor smoothed(const torch::Tensor &x) {
    torch::Tensor out = torch::zeros({1}, torch::kFloat);
    out.data_ptr<float>()[0] = smooth(x.data_ptr<float>(), x.numel());
    return out;
}
