// Element-wise ReLU over a 2-D float tensor, written like the public Neuron
// sample (accessor<float, N>): allocate the output with torch::zeros and
// index both tensors with accessors.
#include <stdint.h>
#include <stdlib.h>
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor relu_forward(const torch::Tensor& t_in) {
    torch::Tensor t_out = torch::zeros(t_in.sizes(), torch::kFloat);
    auto t_in_acc = t_in.accessor<float, 2>();
    auto t_out_acc = t_out.accessor<float, 2>();
    auto shape = t_in.sizes();
    for (int i = 0; i < shape[0]; i++) {
        for (int j = 0; j < shape[1]; j++) {
            t_out_acc[i][j] = t_in_acc[i][j] > 0.0 ? t_in_acc[i][j] : 0.0;
        }
    }
    return t_out;
}
