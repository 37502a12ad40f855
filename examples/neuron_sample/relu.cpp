// The device half of a Neuron custom-op project as the public sample
// writes it: no Q7_KERNEL mark; shape.cpp's NEURON_LIBRARY block names
// relu_forward as the compute function.
#include <stdint.h>
#include <stdlib.h>
#include <torch/torch.h>

torch::Tensor relu_forward(const torch::Tensor& t_in) {
    torch::Tensor t_out = torch::zeros(t_in.sizes(), torch::kFloat);
    auto t_in_acc = t_in.accessor<float, 1>();
    auto t_out_acc = t_out.accessor<float, 1>();
    auto shape = t_in.sizes();
    for (int i = 0; i < shape[0]; i++) {
        t_out_acc[i] = t_in_acc[i] > 0.0 ? t_in_acc[i] : 0.0;
    }
    return t_out;
}
