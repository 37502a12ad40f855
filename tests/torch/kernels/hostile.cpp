// Kernels that misbehave, for the isolated host mode (test_isolate.py):
// each would end the Python process in-process; isolated, its call
// raises a RuntimeError and the next call works. Host only (fork, exit).
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <torch/torch.h>
#include <q7/kernel.h>

// Writes `at` into element `at` of its int32 input: past the end for
// at >= numel. The tests' inputs hold their indices (torch.arange), so a
// write inside the tensor leaves it as it was (a change would be an
// error: docs/runtime.md, "What a kernel may write").
Q7_KERNEL torch::Tensor scribble(const torch::Tensor& x, int64_t at) {
    volatile int32_t* p = const_cast<int32_t*>(x.data_ptr<int32_t>());
    p[at] = (int32_t)at;
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

// Opens the guard page the kernel's process put after its input's bytes
// (they end where it begins): the next call's overrun must fault still.
Q7_KERNEL torch::Tensor unguard(const torch::Tensor& x) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t end = (uintptr_t)x.data_ptr<int32_t>() + (uintptr_t)x.numel() * 4;
    mprotect((void*)((end + page - 1) & ~(page - 1)), page, PROT_READ | PROT_WRITE);
    return torch::zeros(x.sizes(), torch::kInt);
}
