// Defines what golden/relu.cpp declares.
#include <torch/torch.h>

at::Tensor relu(const at::Tensor &t_in) { return t_in; }
