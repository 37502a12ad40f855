// A kernel with optional parts: a hook function and a bias variable, both
// undefined weak, which nothing in the image defines. The device image
// carries R_XTENSA_GLOB_DAT and R_XTENSA_JMP_SLOT for them (and the PLT's
// two R_XTENSA_RTLD words); the prelinker binds them to 0, so the hook is
// skipped and the default bias used, as on the host.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

extern "C" void optional_hook(int32_t *data, int64_t n) __attribute__((weak));
extern "C" int32_t optional_bias __attribute__((weak));

Q7_KERNEL torch::Tensor scale_with_hook(const torch::Tensor& x, int k) {
    torch::Tensor y = torch::empty(x.sizes(), torch::kInt);
    const int32_t* in = x.data_ptr<int32_t>();
    int32_t* out = y.data_ptr<int32_t>();
    int32_t bias = &optional_bias ? optional_bias : 7;
    int32_t hooked = 0;
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] * k + bias;
    if (optional_hook) {
        optional_hook(out, x.numel());
        hooked = 1000;
    }
    out[0] += hooked;
    return y;
}
