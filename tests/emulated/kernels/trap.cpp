// __builtin_trap on the emulated core (a BREAK instruction: a debug
// exception, whose pc EPC1 does not hold), for run_emu.py's trap case.
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor trap(const torch::Tensor &x, int64_t on)
{
    if (on)
        __builtin_trap();
    return torch::zeros(x.sizes(), torch::kInt);
}
