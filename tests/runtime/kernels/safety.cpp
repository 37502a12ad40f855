// Kernels that break the two rules of docs/runtime.md ("What a kernel
// may write") when `bad` is not 0, and keep them when it is: a write into
// a const input, 16 floats written past get_dst_tensor(), 16 floats
// written past a tensor the kernel made. Built for the host and the
// device; run by tests/runtime/safety.sh (q7-run) and
// tests/torch/test_safety.py (q7cc.torch).
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

// y = 2x; with bad, x[1] = 42 as well.
Q7_KERNEL torch::Tensor write_input(const torch::Tensor &x, int64_t bad)
{
    torch::Tensor y = get_dst_tensor();
    const float *in = x.data_ptr<float>();
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = 2 * in[i];
    if (bad)
        const_cast<float *>(in)[1] = 42;
    return y;
}

// y = 1 everywhere, and bad floats past its end.
Q7_KERNEL torch::Tensor past_dst(const torch::Tensor &x, int64_t bad)
{
    torch::Tensor y = get_dst_tensor();
    volatile float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel() + bad; i++)
        out[i] = 1;
    return y;
}

// t = torch::zeros like x, filled with 3 and bad floats past its end;
// y = t.
Q7_KERNEL torch::Tensor past_zeros(const torch::Tensor &x, int64_t bad)
{
    torch::Tensor t = torch::zeros({x.numel()}, torch::kFloat);
    volatile float *p = t.data_ptr<float>();
    for (int64_t i = 0; i < x.numel() + bad; i++)
        p[i] = 3;
    torch::Tensor y = get_dst_tensor();
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = p[i];
    return y;
}

// y = x; with bad, bad floats written past the end of x.
Q7_KERNEL torch::Tensor past_input(const torch::Tensor &x, int64_t bad)
{
    torch::Tensor y = get_dst_tensor();
    volatile float *in = const_cast<float *>(x.data_ptr<float>());
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i];
    for (int64_t i = 0; i < bad; i++)
        in[x.numel() + i] = 5;
    return y;
}

// y = 1 everywhere, and one float 7 written `far` floats past the end
// of y (far >= 0), or -far floats before its start.
Q7_KERNEL torch::Tensor far_dst(const torch::Tensor &x, int64_t far)
{
    torch::Tensor y = get_dst_tensor();
    volatile float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = 1;
    out[far >= 0 ? x.numel() + far : far] = 7;
    return y;
}

// y = x, and one float 5 written `far` floats past the end of x.
Q7_KERNEL torch::Tensor far_input(const torch::Tensor &x, int64_t far)
{
    torch::Tensor y = get_dst_tensor();
    volatile float *in = const_cast<float *>(x.data_ptr<float>());
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i];
    in[x.numel() + far] = 5;
    return y;
}

// t = torch::zeros like x, one float 3 written `far` floats past its end;
// y = 2.
Q7_KERNEL torch::Tensor far_zeros(const torch::Tensor &x, int64_t far)
{
    torch::Tensor t = torch::zeros({x.numel()}, torch::kFloat);
    volatile float *p = t.data_ptr<float>();
    p[x.numel() + far] = 3;
    torch::Tensor y = get_dst_tensor();
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = 2;
    return y;
}

// y = x, but element k (every element when k < 0) is y[k] + x[k]: read
// before it is written (what a fresh output holds shows: NaN; the
// uninitialised-output check names element k).
Q7_KERNEL torch::Tensor read_dst(const torch::Tensor &x, int64_t k)
{
    torch::Tensor y = get_dst_tensor();
    const float *in = x.data_ptr<float>();
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < y.numel(); i++)
        out[i] = (i == k || k < 0 ? out[i] : 0.0f) + in[i];
    return y;
}

// Recursion depth n with 544-byte frames (about 760 KB at 1,400).
static float deep(int n, float v)
{
    volatile char pad[512];
    pad[0] = (char)n;
    return n == 0 ? v : deep(n - 1, v) + pad[0] * 0.0f;
}

// A 96 KiB local array of which 16 floats are used: past the bottom of
// the device core's 64 KiB stack, without touching its last bytes.
static float big_frame(int k)
{
    volatile float a[24576];
    for (int i = 0; i < 16; i++)
        a[i] = (float)(i + k);
    return a[k & 15] * 0.0f + 1;
}

// y = 1, through recursion n deep (n >= 0), or through a 96 KiB frame
// (n < 0). The device registers at most 10 kernels: one for both.
Q7_KERNEL torch::Tensor recurse(const torch::Tensor &x, int64_t n)
{
    torch::Tensor y = get_dst_tensor();
    float *out = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = n < 0 ? big_frame((int)i) : deep((int)n, 1);
    return y;
}

// Counts to n (a kernel that, for a large n, never returns): y = x.
Q7_KERNEL torch::Tensor spin(const torch::Tensor &x, int64_t n)
{
    volatile int64_t i = 0;
    while (i < n)
        i = i + 1;
    torch::Tensor y = get_dst_tensor();
    const float *in = x.data_ptr<float>();
    float *out = y.data_ptr<float>();
    for (int64_t k = 0; k < x.numel(); k++)
        out[k] = in[k];
    return y;
}
