// The reference guide's printf example ("printf()", Example), written from
// it: negate through accessors, printing each element.
#include <torch/torch.h>
#include <stdio.h> // Contains printf()

torch::Tensor tensor_negate_compute(const torch::Tensor& t_in) {
    size_t num_elem = t_in.numel();
    torch::Tensor t_out = torch::zeros({num_elem}, torch::kFloat);

    auto t_in_acc = t_in.accessor<float, 1>();
    auto t_out_acc = t_out.accessor<float, 1>();
    for (size_t i = 0; i < num_elem; i++) {
        float tmp = -1 * t_in_acc[i];
        printf("Assigning element %d to a value of %f\n", (int)i, tmp);
        t_out_acc[i] = tmp;
    }
    return t_out;
}
