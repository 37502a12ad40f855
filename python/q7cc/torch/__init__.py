"""q7cc.torch: custom operators for AWS Neuron's GPSIMD engine as real
PyTorch ops, on a CPU: the kernels built by q7cc run on the host or on an
emulated Xtensa core.

A model written for the vendor's flow changes one line:

    from torch_neuronx.xla_impl import custom_op   # before
    from q7cc.torch import custom_op               # after

custom_op.load(name, compute_srcs, shape_srcs, build_directory, multicore,
verbose, target="host") builds lib<name>.so and registers its ops;
custom_op.load_library(path, target="host") registers a built one in
another process. The ops are then torch.ops.<namespace>.<op>;
custom_op.register_backward(forward, backward) makes one differentiable by
its backward kernel.

with q7cc.torch.profile("prof.svg"): around calls of emulated ops writes
their instruction profile, one flame graph with a root per op name."""
from . import custom_op  # noqa: F401
from .custom_op import BuildError, load, load_library, register_backward  # noqa: F401
from .profile import profile  # noqa: F401

__all__ = ["custom_op", "load", "load_library", "register_backward", "BuildError", "profile"]
