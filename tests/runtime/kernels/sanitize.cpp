// Kernels with bugs only the sanitizers see (a heap buffer overflow in
// malloc'd memory, an undefined shift), for q7-run --sanitize
// (tests/runtime/sanitize.sh); with bad 0 / a small shift they behave.
#include <stdlib.h>
#include <torch/torch.h>
#include <q7/kernel.h>

// y[0] = 1, through a malloc'd block of 8 floats written 8 + bad times.
Q7_KERNEL torch::Tensor heap_over(const torch::Tensor &x, int64_t bad)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    volatile float *m = static_cast<float *>(malloc(8 * sizeof(float)));
    for (int64_t i = 0; i < 8 + bad; i++)
        m[i] = 1;
    y.data_ptr<float>()[0] = m[0];
    free(const_cast<float *>(m));
    return y;
}

// y[0] = 1 << by (undefined for by >= 32).
Q7_KERNEL torch::Tensor shift(const torch::Tensor &x, int64_t by)
{
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    volatile int one = 1;
    y.data_ptr<float>()[0] = (float)(one << (int)by);
    return y;
}
