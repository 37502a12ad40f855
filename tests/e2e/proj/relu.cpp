#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor relu(const torch::Tensor &x)
{
	torch::Tensor out = torch::zeros(x.sizes(), torch::kFloat);
	auto in = x.accessor<float, 1>();
	auto o = out.accessor<float, 1>();
	for (int i = 0; i < x.numel(); i++)
		o[i] = in[i] > 0 ? in[i] : 0;
	return out;
}
