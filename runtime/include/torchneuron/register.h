/* <torchneuron/register.h>: NEURON_LIBRARY, so that a Neuron project's
 * host-side "shape" file compiles with q7cc too. On the host it registers
 * the ops with PyTorch; here the block only names the device compute
 * functions, which q7cc's analysis reads from the source:
 *
 *   NEURON_LIBRARY(my_ops, m) {
 *       m.def("relu_forward", &relu_fwd_shape, "relu_forward");
 *   }
 *
 * The block compiles to an unused function that does nothing. */
#ifndef Q7_TORCHNEURON_REGISTER_H
#define Q7_TORCHNEURON_REGISTER_H

#include <torch/torch.h>

namespace torch {
namespace neuron {
class Library {
public:
	template <class Fn>
	Library &def(const char *op, Fn shape, const char *compute_fn)
	{
		(void)op;
		(void)shape;
		(void)compute_fn;
		return *this;
	}
};
} // namespace neuron
} // namespace torch

#define NEURON_LIBRARY(ns, m)                                                               \
	__attribute__((unused)) static void q7_neuron_library_##ns(torch::neuron::Library &m)

#endif
