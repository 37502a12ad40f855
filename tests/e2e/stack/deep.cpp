#include <torch/torch.h>
#include <q7/kernel.h>
// Recursion with a 544-byte frame, 1,400 deep: about 760 KB.
static float down(const float *x, int depth, volatile char *prev) {
    volatile char pad[512];
    pad[depth % 512] = (char)depth;
    if (depth == 0)
        return prev ? (float)(prev[0] & 0) : 0.0f;
    return x[0] + down(x, depth - 1, pad);
}
Q7_KERNEL torch::Tensor deep_down(const torch::Tensor &x) {
    torch::Tensor out = torch::zeros({1}, torch::kFloat);
    out.data_ptr<float>()[0] = down(x.data_ptr<float>(), 1400, nullptr);
    return out;
}
