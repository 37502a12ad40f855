// Does not fit a core's 2 MiB window (tests/emulated/run_profile.py
// link_fit): 3 MiB of zeroed data. With -DDEEP it fits, but asks for a
// 2 MiB stack, which cannot fit beside it.
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>

#ifndef DEEP
static char big[3 << 20];

Q7_KERNEL torch::Tensor touch(const torch::Tensor& x) {
    torch::Tensor out = torch::zeros({1}, torch::kInt);
    big[x.numel()] = 1;
    out.data_ptr<int32_t>()[0] = big[3];
    return out;
}
#else
Q7_KERNEL_STACK(2097152) torch::Tensor deep(const torch::Tensor& x) {
    torch::Tensor out = torch::zeros({1}, torch::kInt);
    out.data_ptr<int32_t>()[0] = (int32_t)x.numel();
    return out;
}
#endif
