// tests/runtime/safety.sh: an integer division by zero on the emulated
// core (it has no divider; libgcc's division stops it at a BREAK, which
// the run words as the host words SIGFPE), a store to a wild address, and
// new[] blocks, used and misused (on every target).
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

// y = x + 1 through a `new int32_t[n]` block (new[] links for the device
// too: __cxa_throw_bad_array_new_length is the runtime's).
Q7_KERNEL torch::Tensor new_array(const torch::Tensor &x)
{
    int64_t n = x.numel();
    int32_t *t = new int32_t[n];
    const int32_t *in = x.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; i++)
        t[i] = in[i] + 1;
    torch::Tensor y = get_dst_tensor();
    int32_t *out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; i++)
        out[i] = t[i];
    delete[] t;
    return y;
}

// y = x, then a store to the address at (0: a null pointer's): a fault
// the emulated core reports with the store's line when built with -g.
Q7_KERNEL torch::Tensor store_to(const torch::Tensor &x, int64_t at)
{
    torch::Tensor y = get_dst_tensor();
    const int32_t *in = x.data_ptr<int32_t>();
    int32_t *out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i];
    *(volatile int32_t *)(uintptr_t)at = 1;
    return y;
}

// y = x + 1 through a new[] block, misused as asked: how 1 writes one
// element past it, how 2 deletes it twice, how 3 deletes (delete[]) the
// data of a torch::zeros, a block of the arena that new[] did not make,
// how 4 gives the new[] block to delete (all caught, on every target: the
// block is the heap arena's on the host too).
Q7_KERNEL torch::Tensor new_misuse(const torch::Tensor &x, int64_t how)
{
    int64_t n = x.numel();
    int32_t *t = new int32_t[n];
    const int32_t *in = x.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; i++)
        t[i] = in[i] + 1;
    if (how == 1)
        t[n] = 0;
    torch::Tensor y = get_dst_tensor();
    int32_t *out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; i++)
        out[i] = t[i];
    int32_t *volatile again = t; /* no compiler's use-after-free warning */
    delete[] t;
    if (how == 2)
        delete[] again;
    if (how == 3) {
        torch::Tensor z = torch::zeros({4}, torch::kInt);
        int32_t *volatile data = z.data_ptr<int32_t>();
        delete[] data;
    }
    if (how == 4) {
        int32_t *volatile block = new int32_t[4];
        delete block;
    }
    return y;
}
