// Compute functions with the parameter kinds the developer guide names
// (int64_t, double, Scalar) and one whose output shape is none of its
// inputs'. No marks: params_shape.cpp's NEURON_LIBRARY block names them.
#include <stdint.h>
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>

// y = max(x * scale + offset, floor), in double, rounded to float once.
torch::Tensor affine(const torch::Tensor& x, int64_t offset, double scale,
                     const torch::Scalar& floor) {
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    double lo = floor.toDouble();
    for (int64_t i = 0; i < x.numel(); i++) {
        double v = (double)in[i] * scale + (double)offset;
        out[i] = (float)(v < lo ? lo : v);
    }
    return y;
}

// out[i][j] = a[i] * b[j] + j: an [n, m] result of an [n] and an [m].
torch::Tensor pairwise(const torch::Tensor& a, const torch::Tensor& b) {
    torch::Tensor out = get_dst_tensor();
    auto ra = a.accessor<float, 1>();
    auto rb = b.accessor<float, 1>();
    auto o = out.accessor<float, 2>();
    for (int64_t i = 0; i < a.size(0); i++)
        for (int64_t j = 0; j < b.size(0); j++)
            o[i][j] = ra[i] * rb[j] + (float)j;
    return out;
}

// ReLU and its gradient into get_dst_tensor(), element by element: the
// compute functions of shape functions that return an argument.
torch::Tensor relu_fw(const torch::Tensor& x) {
    torch::Tensor y = get_dst_tensor();
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0; i < y.numel(); i++)
        out[i] = in[i] > 0.0f ? in[i] : 0.0f;
    return y;
}

torch::Tensor relu_bw(const torch::Tensor& g, const torch::Tensor& x) {
    torch::Tensor y = get_dst_tensor();
    const float* grad = g.data_ptr<float>();
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    for (int64_t i = 0; i < y.numel(); i++)
        out[i] = in[i] > 0.0f ? grad[i] : 0.0f;
    return y;
}
