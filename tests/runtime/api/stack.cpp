// A kernel that needs about 300 KB of stack, in a library whose stack size
// is given only as a compile flag (-DSTACK_SIZE=307200, as the vendor's
// extra_cflags): more than a core's own stack (64 KiB on the emulated
// core, 256 KiB for q7-run's host threads), so the runtime must switch.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

static int64_t big_frame(int64_t seed) {
    volatile int32_t buf[72000]; // 288,000 bytes
    for (int32_t i = 0; i < 72000; i++)
        buf[i] = (int32_t)((i * 7 + seed) % 1000);
    int64_t sum = 0;
    for (int32_t i = 0; i < 72000; i++)
        sum += buf[i];
    return sum;
}

Q7_KERNEL torch::Tensor api_deep(const torch::Tensor &x) {
    torch::Tensor out = torch::zeros({1}, torch::kLong);
    out.data_ptr<int64_t>()[0] = big_frame(x.numel());
    return out;
}
