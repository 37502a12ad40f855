#include <torch/torch.h>
#include <q7/kernel.h>
// A 3 MiB lookup table: more than a core's 2 MiB window of eight.
static float table[786432];
Q7_KERNEL torch::Tensor lookup(const torch::Tensor &x) {
    torch::Tensor out = torch::empty_like(x);
    const float *in = x.data_ptr<float>();
    float *o = out.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++) {
        table[i % 786432] += in[i];
        o[i] = table[(i * 7) % 786432];
    }
    return out;
}
