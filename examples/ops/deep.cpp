// Deep recursion: sums the first `depth` elements of x recursively, one
// stack frame per element with a 256-byte local buffer, so depth 2000 needs
// about 600 KiB of stack: more than a core's own stack. The kernel asks for
// 2 MiB (Q7_KERNEL_STACK; -DSTACK_SIZE=2097152 on the wrapper's compile does
// the same for every kernel), so the runtime switches to a stack from its
// heap. The result is a 1-element tensor.
#include <stdint.h>
#include <string.h>
#include <torch/torch.h>
#include <q7/kernel.h>

static float sum_down(const float* x, int64_t n, volatile char* prev) {
    volatile char pad[256];
    memset((char*)pad, (int)n, sizeof pad);
    if (n == 0)
        return prev ? (float)(prev[0] & 0) : 0.0f;
    return x[n - 1] + sum_down(x, n - 1, pad);
}

Q7_KERNEL_STACK(2097152) torch::Tensor deep_sum(const torch::Tensor& x, int64_t depth) {
    torch::Tensor out = torch::zeros({1}, torch::kFloat);
    int64_t n = depth < x.numel() ? depth : x.numel();
    out.data_ptr<float>()[0] = sum_down(x.data_ptr<float>(), n, nullptr);
    return out;
}
