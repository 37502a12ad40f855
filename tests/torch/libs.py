"""The libraries the q7cc.torch tests use, built once per target by the
e2e.torch.build fixture (build_libs.py) and loaded by the tests with the
same custom_op.load() call, which then finds them up to date.

Environment (set by CMake): Q7_TORCH_WORK (build folders), Q7_EXAMPLES,
Q7_KERNELS, Q7CC_TORCH_CACHE (the shape objects, shared by both targets)."""
import os

WORK = os.environ.get("Q7_TORCH_WORK", "")
EXAMPLES = os.environ.get("Q7_EXAMPLES", "")
MLP_EXAMPLE = os.path.join(EXAMPLES, "customop_mlp")
KERNELS = os.environ.get("Q7_KERNELS", "")


def _ex(name):
    return os.path.join(MLP_EXAMPLE, name)


def _k(name):
    return os.path.join(KERNELS, name)


def _ops(name):
    return os.path.join(EXAMPLES, "ops", name)


# name -> (compute sources, shape sources, multicore)
LIBS = {
    "relu": ([_ex("relu.cpp")], [_ex("shape.cpp")], False),
    "params": ([_k("params.cpp")], [_k("params_shape.cpp")], False),
    "ints": ([_k("ints.cpp")], [], False),
    "mc": ([_ops("relu_tcm.cpp"), _k("mc.cpp")], [], True),
    "hostile": ([_k("hostile.cpp")], [], False),
    # the kernels of the two rules, as q7-run's tests run them
    "safety": ([os.path.join(KERNELS, "..", "..", "runtime", "kernels", "safety.cpp")], [],
               False),
    # a division by zero, a wild store, new[] used and misused
    "misc": ([os.path.join(KERNELS, "..", "..", "runtime", "kernels", "divzero.cpp")], [], False),
}
# Built for the host target only (kernels that fork and exit).
HOST_ONLY = {"hostile"}
# load()'s flags of a library, the same for the build and the tests (so
# the tests find it up to date): safety's recurse overflows the core's
# stack on purpose, for the run-time checks, so the build's check
# (docs/driver.md, "The kernel's stack at the build") is lowered.
OPTIONS = {"safety": {"extra_ldflags": ["-Wno-q7-stack"]}}


def build_directory(name, target):
    return os.path.join(WORK, target, name)


def load(name, target, **kw):
    """custom_op.load() of a test library: registers its ops here."""
    from q7cc.torch import custom_op
    compute, shape, multicore = LIBS[name]
    kw = dict(OPTIONS.get(name, {}), **kw)
    return custom_op.load(name=name, compute_srcs=compute, shape_srcs=shape,
                          build_directory=build_directory(name, target), multicore=multicore,
                          target=target, **kw)
