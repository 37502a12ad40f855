// rowsum_wrong_shape.cpp: a shape function giving the input's shape, not
// the kernel's (one float per row), for test_first_mistakes.py.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor row_sums_shape(torch::Tensor x, double scale) {
    return torch::empty_like(x);
}

NEURON_LIBRARY(first_ops, m) {
    m.def("row_sums", &row_sums_shape, "row_sums");
}
