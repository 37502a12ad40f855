// Two ops the build must refuse (test_shape_check.py): a shape function
// whose second argument is a float where the kernel takes an int, and an
// m.def naming a compute function no source defines. Only the headers a
// shape function needs, so that it compiles in seconds.
#include <ATen/ops/zeros.h>
#include "torchneuron/register.h"

at::Tensor scale_shape(at::Tensor x, double n, double a) {
    (void)n;
    (void)a;
    return at::zeros(x.sizes(), at::kFloat);
}

at::Tensor twice_shape(at::Tensor x) {
    return at::zeros(x.sizes(), at::kFloat);
}

NEURON_LIBRARY(mismatch_ops, m) {
    m.def("scale", &scale_shape, "scale");
    m.def("twice", &twice_shape, "twice");
}
