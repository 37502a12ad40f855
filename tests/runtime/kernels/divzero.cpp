// An integer division by zero (tests/runtime/safety.sh): the device core
// has no divider, and libgcc's division stops it at a BREAK, which the
// run worded as the host words SIGFPE.
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

// y = x / by, elementwise, in int32.
Q7_KERNEL torch::Tensor divide_by(const torch::Tensor &x, int64_t by)
{
    torch::Tensor y = get_dst_tensor();
    const int32_t *in = x.data_ptr<int32_t>();
    int32_t *out = y.data_ptr<int32_t>();
    volatile int32_t d = (int32_t)by;
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] / d;
    return y;
}
