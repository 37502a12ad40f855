// The host half of guide_printf, as the developer guide writes it: the shape
// function and the NEURON_LIBRARY block naming the compute function.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor tensor_negate_shape(torch::Tensor t1) {
    size_t num_elem = t1.numel();
    torch::Tensor t_out = torch::zeros({num_elem}, torch::kFloat);
    return t_out;
}

NEURON_LIBRARY(guide_printf, m) {
    m.def("tensor_negate", &tensor_negate_shape, "tensor_negate_compute");
}
