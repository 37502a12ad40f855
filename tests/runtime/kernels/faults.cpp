// Kernels that fault on purpose, for q7-run's crash report on the host
// (tests/runtime/faults.sh): wild pointers, a division by zero, abort,
// and accesses past (or before) a tensor, which the isolated mode's guard
// pages stop at the first byte. `on` picks the core that faults (-1:
// all), so an 8-core run shows which core it was.
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <torch/torch.h>
#include <q7/kernel.h>
#include <neuron/neuron-utils.hpp>

static bool mine(int on) { return on < 0 || (uint32_t)on == q7rt_cpu_id(); }

Q7_KERNEL torch::Tensor bad_store(const torch::Tensor &x, int on)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    if (mine(on)) {
        volatile int32_t *p = (volatile int32_t *)(uintptr_t)16;
        *p = 1;
    }
    return y;
}

Q7_KERNEL torch::Tensor divide(const torch::Tensor &x, int by)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    int32_t *out = y.data_ptr<int32_t>();
    const int32_t *in = x.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] / by;
    return y;
}

// abort() ends the op with a message (the runtime's hook), not the process.
Q7_KERNEL torch::Tensor give_up(const torch::Tensor &x, int on)
{
    if (mine(on))
        abort();
    return torch::zeros(x.sizes(), torch::kInt);
}

// SIGABRT raised some other way is still a crash report.
Q7_KERNEL torch::Tensor raise_abort(const torch::Tensor &x, int on)
{
    if (mine(on))
        raise(SIGABRT);
    return torch::zeros(x.sizes(), torch::kInt);
}

// Writes (or reads) the int32 element `at` of its argument: past the end
// for at >= numel, before the start for at < 0.
Q7_KERNEL torch::Tensor poke(const torch::Tensor &x, int at)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    volatile int32_t *p = x.data_ptr<int32_t>();
    p[at] = 7;
    return y;
}

Q7_KERNEL torch::Tensor peek(const torch::Tensor &x, int at)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    volatile const int32_t *p = x.data_ptr<int32_t>();
    y.data_ptr<int32_t>()[0] = p[at];
    return y;
}

// Writes past the end of get_dst_tensor(), on core `on`.
Q7_KERNEL torch::Tensor poke_dst(const torch::Tensor &x, int on)
{
    torch::Tensor d = get_dst_tensor();
    if (mine(on)) {
        volatile int32_t *p = d.data_ptr<int32_t>();
        p[d.numel()] = 7;
    }
    return d;
}
