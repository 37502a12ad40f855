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

// Outputs described by returning an argument, as the vendor's style
// invites: the op must still never write into it.
torch::Tensor same_as_input(torch::Tensor t_in) {
    return t_in;
}

torch::Tensor same_as_grad(torch::Tensor t_grad, torch::Tensor t_in) {
    (void)t_in;
    return t_grad;
}

torch::Tensor flat_view_of_input(torch::Tensor t_in) {
    return t_in.view({-1});
}

NEURON_LIBRARY(q7_test, m) {
    m.def("relu_same", &same_as_input, "relu_fw");
    m.def("relu_grad_same", &same_as_grad, "relu_bw");
    m.def("relu_flat", &flat_view_of_input, "relu_fw");
    m.def("affine", &affine_shape, "affine");
    m.def("outer", &outer_shape, "pairwise");
}
