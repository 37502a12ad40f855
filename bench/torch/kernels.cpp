// The identity kernel of bench/torch, plain C++ as the vendor's samples
// write kernels: built by q7cc (named with --q7-kernel) into a q7cc.torch
// library with the customop_mlp example's relu.cpp, and included by
// native.cpp, with that file, into an op library registered natively
// with TORCH_LIBRARY, so both sides run the same code.
#include <torch/torch.h>

// The op that does nothing: returns its input.
torch::Tensor identity(const torch::Tensor& x) {
    return x;
}
