// Kernels whose results lie about their memory, for q7-run's host
// target (tests/runtime/faults.sh): a result larger than the
// destination it is in, or than the heap arena it came from, a frame a
// thread of the kernel's rewrites while the loader reads it, and a kernel
// that closes every descriptor (the worker's connection among them).
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <torch/torch.h>
#include <q7/kernel.h>
#include <neuron/neuron-utils.hpp>

// The destination's own bytes described as a tensor 16384 times larger:
// the loader must not read its own memory past the destination into the
// output.
Q7_KERNEL torch::Tensor grow_dst(const torch::Tensor &x)
{
    torch::Tensor d = get_dst_tensor();
    d.unsafeGetTensorImpl()->sizes[0] = 65536;
    return d;
}

// A result whose shape (65535 x 65535 int32, 16 GiB) lies far past the
// memory it came from (the heap arena).
Q7_KERNEL torch::Tensor grow_result(const torch::Tensor &x)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
    q7rt_tensor *t = y.unsafeGetTensorImpl();
    t->ndim = 2;
    t->sizes[0] = t->sizes[1] = 65535;
    t->strides[0] = 65535;
    t->strides[1] = 1;
    return y;
}

// A thread of the kernel's that rewrites the call's frame (the runtime's
// state, whose first member is the frame) while the loader reads it: the
// result it describes becomes 65535 x 65535 int32.
struct q7rt_state;
extern q7rt_state q7rt;
static volatile q7_frame *rewritten;
static void *rewrite_out(void *)
{
    volatile q7_frame *f = rewritten;
    while (f->out.ndim != 1) // until the runtime described the result
        ;
    for (;;) {
        f->out.ndim = 2;
        f->out.sizes[0] = f->out.sizes[1] = 65535;
        f->out.strides[0] = 65535;
        f->out.strides[1] = 1;
    }
    return nullptr;
}
Q7_KERNEL torch::Tensor rewrite_frame(const torch::Tensor &x)
{
    rewritten = *reinterpret_cast<q7_frame *volatile *>(&q7rt);
    pthread_t t;
    pthread_create(&t, nullptr, rewrite_out, nullptr);
    return torch::zeros(x.sizes(), torch::kInt);
}

// Closes every descriptor, the worker's connection to q7-run among them.
Q7_KERNEL torch::Tensor close_all(const torch::Tensor &x)
{
    for (int fd = 0; fd < 1024; fd++)
        close(fd);
    return torch::zeros(x.sizes(), torch::kInt);
}
