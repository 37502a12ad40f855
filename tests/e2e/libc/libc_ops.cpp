// A kernel that leans on the C library and on libgcc helpers that call the
// soft-float helpers back: strtof (picolibc, absolute pointers in .rodata),
// __builtin_powif (libgcc __powisf2 -> __mulsf3) and complex multiplication
// (libgcc __mulsc3 -> __mulsf3/__addsf3).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor libc_mix(const torch::Tensor& x, int p) {
    torch::Tensor y = torch::empty(x.sizes(), torch::kFloat);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    float bias = strtof("0.5", nullptr);
    for (int64_t i = 0; i < x.numel(); i++) {
        _Complex float z;
        __real__ z = in[i];
        __imag__ z = 1.0f;
        _Complex float w = z * z;  // (a+i)^2 = a^2-1 + 2ai
        out[i] = __builtin_powif(in[i], p) + __real__ w + bias;
    }
    return y;
}
