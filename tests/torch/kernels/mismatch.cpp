// The kernel of mismatch_shape.cpp and ghost_shape.cpp (test_shape_check.py):
// scale(Tensor, int, float), against shape functions that disagree.
#include <torch/torch.h>
#include <q7/kernel.h>

torch::Tensor scale(const torch::Tensor& x, int64_t n, double a) {
    torch::Tensor y = torch::zeros(x.sizes(), torch::kFloat);
    auto xa = x.accessor<float, 1>();
    auto ya = y.accessor<float, 1>();
    for (int64_t i = 0; i < x.size(0); i++)
        ya[i] = xa[i] * (float)n * (float)a;
    return y;
}
