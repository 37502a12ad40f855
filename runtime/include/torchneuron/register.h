/* <torchneuron/register.h>: NEURON_LIBRARY, so that a Neuron project's
 * host-side "shape" file compiles with q7cc too (docs/runtime.md, "What
 * kernels get"): the block compiles to an unused function that does
 * nothing, and q7cc's analysis reads the compute functions' names from
 * the source. */
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
