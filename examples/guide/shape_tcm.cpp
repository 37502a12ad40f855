// The host half of guide_tcm, as the developer guide writes it: the shape
// function and the NEURON_LIBRARY block naming the compute function.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor tensor_negate_shape(torch::Tensor t1) {
    return torch::zeros(t1.sizes(), torch::kFloat);
}

NEURON_LIBRARY(guide_tcm, m) {
    m.def("tensor_negate", &tensor_negate_shape, "tensor_negate_compute");
}
