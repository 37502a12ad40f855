// Kernels that misbehave, for the isolated host mode (test_isolate.py):
// each would end the Python process in-process; isolated, its call
// raises a RuntimeError and the next call works. Host only (fork, exit).
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <torch/torch.h>
#include <q7/kernel.h>

// Writes element `at` of its int32 input: past the end for at >= numel.
Q7_KERNEL torch::Tensor scribble(const torch::Tensor& x, int64_t at) {
    volatile int32_t* p = const_cast<int32_t*>(x.data_ptr<int32_t>());
    p[at] = 7;
    return torch::zeros(x.sizes(), torch::kInt);
}

Q7_KERNEL torch::Tensor leave(const torch::Tensor& x, int64_t status) {
    exit((int)status);
    return x;
}

Q7_KERNEL torch::Tensor spin(const torch::Tensor& x) {
    volatile bool forever = true;
    while (forever)
        ;
    return x;
}

// The child of its fork sleeps for ever; the parent returns 1s.
Q7_KERNEL torch::Tensor forks(const torch::Tensor& x) {
    if (fork() == 0)
        for (;;)
            sleep(1);
    return torch::ones(x.sizes(), torch::kInt);
}

// The calls this image has seen: the image's state lives between calls.
static int calls_seen;
Q7_KERNEL torch::Tensor count(const torch::Tensor& x) {
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    y.data_ptr<int32_t>()[0] = ++calls_seen;
    return y;
}
