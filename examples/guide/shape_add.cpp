// The host half of guide_add, as the developer guide writes it: the shape
// function and the NEURON_LIBRARY block naming the compute function.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor tensor_add_shape(torch::Tensor t1, torch::Tensor t2) {
    (void)t2;
    return torch::zeros(t1.sizes(), torch::kFloat);
}

NEURON_LIBRARY(guide_add, m) {
    m.def("tensor_add", &tensor_add_shape, "tensor_add_compute");
}
