// Accessors, streams, the coherence policy, the tcm pool, TORCH_CHECK,
// assert and abort, and the device's C++ headers, as a kernel author uses
// them. Results packed by rows.h; run_api.py has the expected values.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>

#include "rows.h"

// x: float32 [r, c]. Rows: y = 2x + 1 through standard accessors (read-only
// from the const tensor, read-write from a new one); the same through the
// TCM accessors; a 3-D accessor walk; int16 through accessors; and, for
// operator=, a tensor assigned from another and moved.
Q7_KERNEL torch::Tensor api_accessors(const torch::Tensor &x) {
    int64_t r = x.size(0), c = x.size(1), n = x.numel();
    Rows rows(5, 2 * n);
    torch::Tensor y = torch::empty(x.sizes(), torch::kFloat);
    {
        torch::TensorAccessor<float, 2, true> in = x.accessor<float, 2>();
        torch::TensorAccessor<float, 2, false> out = y.accessor<float, 2>();
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++)
                out[i][j] = 2.0f * in[i][j] + 1.0f;
    }
    rows.add(y);
    torch::Tensor z = torch::empty(x.sizes(), torch::kFloat);
    {
        torch::TensorTcmAccessor<true> in = x.tcm_accessor();
        torch::TensorTcmAccessor<false> out = z.tcm_accessor();
        float *buf = (float *)torch::neuron::tcm_malloc(sizeof(float) * 7);
        TORCH_CHECK(buf != nullptr);
        for (int64_t i = 0; i < n; i += 7) {
            size_t k = (size_t)(n - i < 7 ? n - i : 7);
            in.tensor_to_tcm<float>(buf, (size_t)i, k);
            for (size_t j = 0; j < k; j++)
                buf[j] = 2.0f * buf[j] + 1.0f;
            out.tcm_to_tensor<float>(buf, (size_t)i, k);
        }
        torch::neuron::tcm_free(buf);
    }
    rows.add(z);
    torch::Tensor cube = torch::zeros({2, r, c}, torch::kFloat);
    auto w3 = cube.accessor<float, 3>();
    auto in2 = x.accessor<float, 2>();
    for (int64_t k = 0; k < 2; k++)
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++)
                w3[k][i][j] = in2[i][j] * (float)(k + 1);
    TORCH_CHECK(w3.size(0) == 2 && w3[1].size(0) == r && w3.stride(0) == r * c);
    rows.add(cube);
    torch::Tensor s16 = torch::zeros(x.sizes(), torch::kShort);
    auto a16 = s16.accessor<int16_t, 2>();
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++)
            a16[i][j] = (int16_t)(i * 100 + j);
    rows.add(s16);
    torch::Tensor assigned;
    assigned = y;                            // operator=(const Tensor &)
    torch::Tensor moved;
    moved = torch::full({r, c}, 3, torch::kFloat); // operator=(Tensor &&)
    TORCH_CHECK(assigned.unsafeGetTensorImpl() == y.unsafeGetTensorImpl());
    auto ma = moved.accessor<float, 2>();
    auto aa = assigned.accessor<float, 2>();
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++)
            ma[i][j] += aa[i][j];
    rows.add(moved);
    return rows.t;
}

// Streams over x (float32, any length, maybe not contiguous) and xi (int16):
// row 0: x + x through two read streams and a write stream closed by
// close(); row 1: xi * 3 through streams of int16, the write stream flushed
// at its scope's end; row 2: six read streams open at once (four in the
// tcm pool, two unbuffered), each element the sum of all six; row 3
// (int32): close()'s results, whether tcm_malloc failed while four streams
// held the pool, and whether tcm_malloc(16384) works once they are closed.
Q7_KERNEL torch::Tensor api_streams(const torch::Tensor &x, const torch::Tensor &xi) {
    int64_t n = x.numel();
    Rows rows(4, n);
    torch::Tensor sum = torch::empty(x.sizes(), torch::kFloat);
    auto r1 = x.read_stream_accessor<float>();
    auto r2 = x.read_stream_accessor<float>();
    auto w = sum.write_stream_accessor<float>();
    for (int64_t i = 0; i < n; i++)
        w.write(r1.read() + r2.read());
    int c_w = w.close(), c_r = r1.close(), c_again = r1.close();
    r2.close();
    rows.add(sum);
    torch::Tensor tri = torch::empty(xi.sizes(), torch::kShort);
    {
        torch::TensorReadStreamAccessor<int16_t> in = xi.read_stream_accessor<int16_t>();
        torch::TensorWriteStreamAccessor<int16_t> out = tri.write_stream_accessor<int16_t>();
        for (int64_t i = 0; i < xi.numel(); i++)
            out.write((int16_t)(in.read() * 3));
    } // no close(): written back here
    rows.add(tri);
    torch::Tensor six = torch::empty(x.sizes(), torch::kFloat);
    int pool_full, whole_pool;
    {
        auto a = x.read_stream_accessor<float>();
        auto b = x.read_stream_accessor<float>();
        auto c = x.read_stream_accessor<float>();
        auto d = x.read_stream_accessor<float>();
        void *p = torch::neuron::tcm_malloc(16);
        pool_full = p == nullptr;
        torch::neuron::tcm_free(p);
        auto e = x.read_stream_accessor<float>();
        auto f = x.read_stream_accessor<float>();
        auto o = six.write_stream_accessor<float>();
        for (int64_t i = 0; i < n; i++)
            o.write(a.read() + b.read() + c.read() + d.read() + e.read() + f.read());
    }
    void *all = torch::neuron::tcm_malloc(16384);
    whole_pool = all != nullptr;
    torch::neuron::tcm_free(all);
    rows.add(six);
    torch::Tensor flags = torch::zeros({5}, torch::kInt);
    int32_t *fp = flags.data_ptr<int32_t>();
    fp[0] = c_w;
    fp[1] = c_r;
    fp[2] = c_again;
    fp[3] = pool_full;
    fp[4] = whole_pool;
    rows.add(flags);
    return rows.t;
}

// Streams and the tcm pool misused, one per `which` (each ends the op).
Q7_KERNEL torch::Tensor api_stream_errors(const torch::Tensor &x, int64_t which) {
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    switch (which) {
    case 0: { // read past the end
        auto r = x.read_stream_accessor<float>();
        for (int64_t i = 0; i <= x.numel(); i++)
            y.data_ptr<float>()[0] += r.read();
        break;
    }
    case 1: { // write past the end
        auto w = y.write_stream_accessor<float>();
        for (int64_t i = 0; i <= x.numel(); i++)
            w.write(1.0f);
        break;
    }
    case 2: { // read after close
        auto r = x.read_stream_accessor<float>();
        r.close();
        y.data_ptr<float>()[0] = r.read();
        break;
    }
    case 3: { // the wrong dtype
        auto r = x.read_stream_accessor<int32_t>();
        (void)r;
        break;
    }
    case 4: { // not a tcm block
        float local = 0;
        torch::neuron::tcm_free(&local);
        break;
    }
    case 5: { // an index past a 1-D accessor's end (the device checks with Q7_ACCESSOR_CHECKS)
        auto a = x.accessor<float, 1>();
        y.data_ptr<float>()[0] = a[x.numel()];
        break;
    }
    case 6: { // a row index past a 2-D accessor's rows: a 37x53 grad read as 256x256
        torch::Tensor grad = torch::zeros({37, 53}, torch::kFloat);
        auto g = grad.accessor<float, 2>();
        float s = 0;
        for (int i = 0; i < 256; i++)
            s += g[i][i % 53];
        y.data_ptr<float>()[0] = s;
        break;
    }
    case 7: { // a tcm copy larger than its tcm_malloc block
        float *b = static_cast<float *>(torch::neuron::tcm_malloc(2 * sizeof(float)));
        x.tcm_accessor().tensor_to_tcm<float>(b, 0, (size_t)x.numel());
        y.data_ptr<float>()[0] = b[0];
        break;
    }
    default: break;
    }
    return y;
}

// The coherence policy: `policy` is set on y (a copy of x), then
// `scenario` mixes accessors on it:
//   0: a write stream, then a standard accessor while it is open;
//   1: a standard accessor alive, then a write stream;
//   2: a read stream, then a write stream;
//   3: two read streams and a standard accessor (coherent: no write);
//   4: a standard accessor that ends before the write stream opens.
// Returns [the policy read back, 1] once the mix got through.
Q7_KERNEL torch::Tensor api_coherence(const torch::Tensor &x, int64_t policy, int64_t scenario) {
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    TORCH_CHECK(y.get_accessor_coherence_policy() == torch::CoherencyEnforcer::COHERENT);
    y.set_accessor_coherence_policy((torch::CoherencyEnforcer::Policy)policy);
    int64_t n = y.numel();
    switch (scenario) {
    case 0: {
        auto w = y.write_stream_accessor<float>();
        auto a = y.accessor<float, 1>();
        w.write(a[0]);
        break;
    }
    case 1: {
        auto a = y.accessor<float, 1>();
        auto w = y.write_stream_accessor<float>();
        w.write(a[0] + 1.0f);
        break;
    }
    case 2: {
        auto r = y.read_stream_accessor<float>();
        auto w = y.write_stream_accessor<float>();
        w.write(r.read());
        break;
    }
    case 3: {
        auto r1 = y.read_stream_accessor<float>();
        auto r2 = y.read_stream_accessor<float>();
        auto a = y.accessor<float, 1>();
        a[0] = r1.read() + r2.read() + (float)n;
        break;
    }
    default: {
        {
            auto a = y.accessor<float, 1>();
            a[0] = 5.0f;
        }
        auto w = y.write_stream_accessor<float>();
        w.write(6.0f);
        break;
    }
    }
    torch::Tensor out = torch::zeros({2}, torch::kInt);
    out.data_ptr<int32_t>()[0] = (int32_t)y.get_accessor_coherence_policy();
    out.data_ptr<int32_t>()[1] = 1;
    return out;
}

// TORCH_CHECK, assert and abort, one per `which`; 4 passes every check.
Q7_KERNEL torch::Tensor api_checks(const torch::Tensor &x, int64_t which) {
    switch (which) {
    case 0: assert(x.numel() < 0); break;
    case 1: abort(); break;
    case 2: TORCH_CHECK(x.numel() == 3, "want 3 elements, got ", x.numel(), " of ", x.scalar_type(), " ", x.sizes()); break;
    case 3: TORCH_CHECK(x.dim() == 7); break;
    default:
        assert(x.numel() >= 0);
        TORCH_CHECK(x.numel() >= 0, "never shown");
        break;
    }
    return torch::ones({1}, torch::kInt);
}
