// The host half of guide_mc, as the developer guide writes it: the shape
// function and the NEURON_LIBRARY block naming the compute function.
#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor example_shape(torch::Tensor t1) {
    return torch::zeros(t1.sizes(), torch::kFloat);
}

NEURON_LIBRARY(guide_mc, m) {
    m.def("example_kernel", &example_shape, "example_kernel");
}
