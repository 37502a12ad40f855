// The reference guide's element-wise add of two 1-D tensors through
// TensorAccessor ("Tensor Accessors", Example Usage), written from it.
// No mark: shape_add.cpp's NEURON_LIBRARY block names the kernel.
#include <torch/torch.h>

torch::Tensor tensor_add_compute(const torch::Tensor& t1, const torch::Tensor& t2) {
    size_t num_elem = t1.numel();
    assert(t1.sizes() == t2.sizes());
    torch::Tensor t_out = torch::empty({num_elem}, torch::kFloat);

    auto t1_acc = t1.accessor<float, 1>();
    auto t2_acc = t2.accessor<float, 1>();
    auto t_out_acc = t_out.accessor<float, 1>();
    for (size_t i = 0; i < num_elem; i++) {
        t_out_acc[i] = t1_acc[i] + t2_acc[i];
    }
    return t_out;
}
