// A shape function declared and never defined (test_shape_check.py):
// the build's link must say so at the m.def.
#include "torchneuron/register.h"

at::Tensor ghost_shape(at::Tensor x, int64_t n, double a);

NEURON_LIBRARY(ghost_ops, m) {
    m.def("scale", &ghost_shape, "scale");
}
