// The shape functions of params.cpp, against the real libtorch. The op
// names differ from the compute names where the test wants to see that
// the third argument of m.def is what runs.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor affine_shape(torch::Tensor x, int64_t offset, double scale, c10::Scalar floor) {
    (void)offset;
    (void)scale;
    (void)floor;
    return torch::zeros(x.sizes(), torch::kFloat);
}

torch::Tensor outer_shape(const torch::Tensor& a, const torch::Tensor& b) {
    TORCH_CHECK(a.dim() == 1 && b.dim() == 1, "outer: two 1-D tensors, not ", a.dim(), "-D and ",
                b.dim(), "-D");
    return torch::zeros({a.size(0), b.size(0)}, torch::kFloat);
}

NEURON_LIBRARY(q7_test, m) {
    m.def("affine", &affine_shape, "affine");
    m.def("outer", &outer_shape, "pairwise");
}
