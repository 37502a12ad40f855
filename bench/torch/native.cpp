// The same kernels (kernels.cpp, the example's relu.cpp) registered
// natively with TORCH_LIBRARY, compiled against libtorch: what a
// q7cc.torch op's per-call cost is measured against.
#include <ATen/EmptyTensor.h>
#include <torch/library.h>

#include <cstring>

#include "kernels.cpp"
#include "../../examples/customop_mlp/relu.cpp"

// What any op that returns a new tensor pays at least, q7cc.torch's
// included: a fresh output from the CPU allocator, the input copied in.
torch::Tensor fresh_copy(const torch::Tensor& x) {
    at::Tensor out = at::detail::empty_cpu(x.sizes(), x.scalar_type());
    std::memcpy(out.data_ptr(), x.data_ptr(), x.nbytes());
    return out;
}

TORCH_LIBRARY(native_bench, m) {
    m.def("identity(Tensor x) -> Tensor");
    m.def("relu_forward(Tensor t_in) -> Tensor");
    m.def("fresh_copy(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(native_bench, CPU, m) {
    m.impl("identity", &identity);
    m.impl("relu_forward", &relu_forward);
    m.impl("fresh_copy", &fresh_copy);
}
