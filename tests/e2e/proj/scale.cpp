#include "e2e_ops.h"

#include <neuron/neuron-utils.hpp>

namespace e2e {
/* Writes its share of get_dst_tensor() (every count-th element from its
 * core id), so the same kernel runs on one core or eight: with several,
 * what a kernel returns is ignored, as on the device. */
torch::Tensor scale(const torch::Tensor &x, float s, int n)
{
	torch::Tensor out = get_dst_tensor();
	auto in = x.accessor<float, 1>();
	auto o = out.accessor<float, 1>();
	for (int i = (int)get_cpu_id(); i < x.numel() && i < n; i += (int)get_cpu_count())
		o[i] = in[i] * s;
	return out;
}
}
