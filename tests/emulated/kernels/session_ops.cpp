// Kernels for the emulated session tests and bench (run_emu.py, session
// cases; bench/emulated/run): the identity, a flat ReLU that every core
// does a share of, an int32 kernel whose TORCH_CHECK fails on request, a
// kernel that never returns, and a counter that lives in the image (a
// global built by a constructor), which shows that a session keeps the
// image's state from call to call, as a device does.
#include <stdint.h>
#include <string.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

namespace {
struct Counter {
    int32_t next;
    Counter() : next(100) {}
};
Counter counter;
}  // namespace

Q7_KERNEL torch::Tensor identity(const torch::Tensor& x) {
    return x;
}

// out[i] = max(x[i], 0); core k of n does the k-th slice of the output.
Q7_KERNEL torch::Tensor relu_flat(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    TORCH_CHECK(out.numel() == x.numel(), "relu_flat: the destination has ", out.numel(),
                " elements, the input ", x.numel());
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    int64_t n = x.numel(), cores = get_cpu_count();
    int64_t chunk = (n + cores - 1) / cores;
    int64_t lo = chunk * get_cpu_id(), hi = lo + chunk < n ? lo + chunk : n;
    for (int64_t i = lo; i < hi; i++)
        o[i] = in[i] > 0.0f ? in[i] : 0.0f;
    return out;
}

// y = x * k + 1 over int32, refused when x has more than limit elements.
Q7_KERNEL torch::Tensor scale_checked(const torch::Tensor& x, int64_t k, int64_t limit) {
    TORCH_CHECK(x.numel() <= limit, "scale_checked: ", x.numel(), " elements, at most ", limit);
    torch::Tensor y = torch::empty(x.sizes(), torch::kInt);
    const int32_t* in = x.data_ptr<int32_t>();
    int32_t* out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] * (int32_t)k + 1;
    return y;
}

Q7_KERNEL torch::Tensor spin_forever(const torch::Tensor& x) {
    for (volatile uint32_t i = 0;; i++) {
    }
    return x;
}

// The image's counter: 100 at the first call after a load, then one more
// per call (per core, each core having its own image). On several cores,
// where what a kernel returns is ignored as on the device, core 0 writes
// its count into get_dst_tensor().
Q7_KERNEL torch::Tensor calls_seen(const torch::Tensor& x) {
    int32_t seen = counter.next++;
    (void)x;
    if (get_cpu_count() == 1) {
        torch::Tensor y = torch::empty({1}, torch::kInt);
        y.data_ptr<int32_t>()[0] = seen;
        return y;
    }
    torch::Tensor y = get_dst_tensor();
    if (get_cpu_id() == 0)
        y.data_ptr<int32_t>()[0] = seen;
    return y;
}

// memmove on overlapping and disjoint ranges of the destination, a copy of
// x's bytes: every alignment of source and destination, both directions,
// short and long lengths. run_emu.py's memmove case compares the bytes
// with the host's memmove (the device's is runtime/src/device_memmove.c).
Q7_KERNEL torch::Tensor moves(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    unsigned char* b = (unsigned char*)out.data_ptr<int32_t>();
    size_t n = (size_t)x.numel() * 4;
    memcpy(b, x.data_ptr<int32_t>(), n);
    static const size_t lens[] = {0, 1, 3, 4, 5, 15, 16, 17, 33, 64, 255, 1000};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
        for (size_t so = 0; so < 8; so++)
            for (size_t dof = 0; dof < 8; dof++) {
                size_t len = lens[li], src = 64 + so, dst = 64 + dof + (li & 1 ? 0 : 40);
                if (dst + len <= n && src + len <= n)
                    memmove(b + dst, b + src, len);
                if (src + 700 + len <= n)
                    memmove(b + src + 700, b + dst, len);
            }
    return out;
}

// Block moves and fills of Q7_MOVE_MIN bytes and more, which the emulated
// core's boot program makes at the host's speed (docs/emulated.md, "Block
// moves"): a copy of x's bytes, then an overlapping move up by 5 bytes and
// one down by 70,001, both across its pieces, a disjoint copy at odd
// offsets and two fills (one of zeros) across pieces too. run_emu.py's
// big_moves case compares the bytes with the host's and counts the core's
// instructions.
Q7_KERNEL torch::Tensor big_moves(const torch::Tensor& x) {
    torch::Tensor out = get_dst_tensor();
    unsigned char* b = (unsigned char*)out.data_ptr<int32_t>();
    size_t n = (size_t)x.numel() * 4;
    memcpy(b, x.data_ptr<int32_t>(), n);
    memmove(b + 5, b, n - 5 - 64);
    memmove(b + 64, b + 64 + 70001, n - 70001 - 128);
    memcpy(b + n / 2 + 3, b + 7, n / 2 - 100);
    memset(b + 1001, 0x5a, n / 3);
    memset(b + n / 2 + 77, 0, (1u << 20) + 4099);
    return out;
}
