#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor twice(const torch::Tensor &x, int64_t k)
{
	torch::Tensor y = torch::zeros(x.sizes(), torch::kInt);
	auto a = x.accessor<int, 1>();
	auto b = y.accessor<int, 1>();
	for (int64_t i = 0; i < x.size(0); i++)
		b[i] = a[i] * (int)k;
	return y;
}
