// A kernel that reads a table built by a global object's constructor:
// y[i] = x[i] * table[i % 16], with table[k] = k * k + 1. On the host the
// dynamic loader runs the constructor; on a device core the runtime does,
// at the image's first call.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

namespace {
struct Squares {
    float v[16];
    Squares() {
        for (int k = 0; k < 16; k++)
            v[k] = (float)(k * k + 1);
    }
};
Squares table;
}  // namespace

Q7_KERNEL torch::Tensor scale_by_table(const torch::Tensor& x) {
    torch::Tensor y = torch::empty(x.sizes(), torch::kFloat);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] * table.v[i % 16];
    return y;
}
