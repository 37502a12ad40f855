// Kernels that misbehave without faulting, for q7-run's isolated host
// mode (tests/runtime/faults.sh): exit and _exit, a loop that never ends,
// a fork, per-core state in a global, and an accessor walked past its
// tensor. `on` picks the core that misbehaves (-1: all).
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <torch/torch.h>
#include <q7/kernel.h>
#include <neuron/neuron-utils.hpp>

static bool mine(int on) { return on < 0 || (uint32_t)on == q7rt_cpu_id(); }

// exit() and _exit() in a kernel: the op ends, q7-run reports it.
Q7_KERNEL torch::Tensor call_exit(const torch::Tensor &x, int status)
{
    exit(status);
    return x;
}

Q7_KERNEL torch::Tensor call_underscore_exit(const torch::Tensor &x, int status)
{
    _exit(status);
    return x;
}

// A kernel that never returns (on core `on`, or all).
Q7_KERNEL torch::Tensor spin(const torch::Tensor &x, int on)
{
    volatile bool forever = mine(on);
    while (forever)
        ;
    return torch::zeros(x.sizes(), torch::kInt);
}

// Forks: the child lingers (sleeping), the parent returns. With `wait`
// the child returns from the kernel too, as the parent does.
Q7_KERNEL torch::Tensor forks(const torch::Tensor &x, int child_returns)
{
    pid_t pid = fork();
    if (pid == 0 && !child_returns) {
        for (;;)
            sleep(1);
    }
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    y.data_ptr<int32_t>()[0] = pid == 0 ? 2 : 1;
    return y;
}

// Forks after writing its result; the child writes another value into
// the same tensor and returns, while the parent waits for it. Each process
// has its own memory, so the result is the parent's (the child's write
// must not reach the tensors its parent returns).
Q7_KERNEL torch::Tensor fork_and_wait(const torch::Tensor &x)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    y.data_ptr<int32_t>()[0] = 1;
    pid_t pid = fork();
    if (pid == 0) {
        y.data_ptr<int32_t>()[0] = 2;
        return y;
    }
    waitpid(pid, nullptr, 0);
    return y;
}

// Per-core state: a global counter each core's call increments, written
// to the destination's element cpu_id. Each core has its own copy of the
// image's globals (as on the device), so every element is the number of
// calls that core has seen.
static int calls_here;
Q7_KERNEL torch::Tensor count_calls(const torch::Tensor &x)
{
    torch::Tensor d = get_dst_tensor();
    calls_here++;
    d.data_ptr<int32_t>()[q7rt_cpu_id()] = calls_here;
    return d;
}

// A 37x53 tensor read as 256x256 through an accessor (the public sample's
// mistake): stops at the first index outside a dimension.
Q7_KERNEL torch::Tensor grad_as_256(const torch::Tensor &x)
{
    torch::Tensor grad = torch::zeros({37, 53}, torch::kFloat);
    auto g = grad.accessor<float, 2>();
    float s = 0;
    for (int i = 0; i < 256; i++)
        for (int j = 0; j < 256; j++)
            s += g[i][j];
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    y.data_ptr<int32_t>()[0] = (int32_t)s;
    return y;
}
