"""custom_op: the vendor's torch_neuronx.xla_impl.custom_op, for a CPU.

    from q7cc.torch import custom_op

    custom_op.load(name="relu", compute_srcs=["relu.cpp"], shape_srcs=["shape.cpp"],
                   build_directory=os.getcwd())               # builds librelu.so, registers
    custom_op.load_library("librelu.so")                      # in a later process
    y = torch.ops.my_ops.relu_forward(x)
    custom_op.register_backward("my_ops::relu_forward", "my_ops::relu_backward")

Both loads take target="host" (the kernels run in this process, on the
CPU) or target="emulated" (on an emulated Xtensa core, QEMU); the numbers
are the same. The options: load()'s docstring, and docs/torch.md, "The
API" and "Running an op"."""
import os

import torch

from . import _bridge, _cache, _paths, _tools
from ._build import BuildError, build
from .autograd import register_backward

__all__ = ["load", "load_library", "register_backward", "BuildError"]


class Library:
    """A loaded library: where it is, its target and its ops, each a
    (qualified name, schema, compute function)."""

    def __init__(self, path, target, ops):
        self.path, self.target, self.ops = path, target, ops

    def __repr__(self):
        return "<q7cc.torch library %s (%s): %s>" % (
            self.path, self.target, ", ".join(op[0] for op in self.ops))


def _target(target):
    """target, or when None Q7CC_TORCH_TARGET, else the default ("host"):
    so a vendor script that names no target runs on either unchanged.
    The targets are the run engine's (_bridge.targets)."""
    names = list(_bridge.targets())
    if target is None:
        target = os.environ.get("Q7CC_TORCH_TARGET") or names[0]
    if target not in names:
        raise ValueError("q7cc.torch: target=%r: expected %s or %r" % (
            target, ", ".join(repr(n) for n in names[:-1]), names[-1]))
    return target


def _isolate(isolate):
    """isolate, or when None Q7CC_TORCH_ISOLATE (1, true, yes: isolated)."""
    if isolate is None:
        isolate = (os.environ.get("Q7CC_TORCH_ISOLATE") or "").lower() in ("1", "true", "yes")
    return bool(isolate)


def _same_torch(shape):
    """A shape library built against another torch (its version or C++
    ABI) is refused before it is loaded: it would load that torch's
    libtorch into this process beside this one's."""
    built = _tools.built_for_torch(shape)
    here = (_bridge.torch_major_minor(torch.__version__), str(_paths.cxx11_abi()))
    if built is not None and built != here:
        raise RuntimeError("q7cc.torch: %s was built against torch %s (C++ ABI %s); this process "
                           "runs torch %s (C++ ABI %s): build it again with this torch "
                           "(custom_op.load)" % (shape, built[0], built[1], torch.__version__,
                                                 here[1]))


def load_library(path, target=None, isolate=None, sanitize=False, check_uninit=False):
    """Registers the ops of lib<name>.so, built by load() (here or in
    another process), and returns the Library: the ops the shape library
    beside it (lib<name>.shape.so) defines, and every other kernel as an
    op with the schema q7cc derived, the output shaped like the first
    tensor argument. isolate, sanitize and check_uninit as load() takes
    them (a library built with sanitize=True runs so); a later load of the
    same library sets check_uninit again. docs/torch.md, "The API"."""
    target = _target(target)
    can = _bridge.targets()[target].can
    if sanitize and "sanitize" not in can:
        raise ValueError("q7cc.torch: sanitize=True runs host kernels (the emulated core has no "
                         "sanitizers)")
    isolate = _isolate(isolate)
    path = os.path.abspath(os.fspath(path))
    if not os.path.exists(path):
        raise FileNotFoundError("q7cc.torch: %s: no such file" % path)
    # its images (a multicore manifest's, read by q7cc's codec) and the
    # target each was built for, as the run engine sees them
    built_for = [i["target"] for i in _bridge.library(path) if i["target"] not in (None, target)]
    if built_for:
        raise RuntimeError("q7cc.torch: %s was built for the %s target; load it with target=%r" % (
            path, built_for[0], built_for[0]))
    base = path[:-3] if path.endswith(".so") else path
    shape = base + ".shape.so"
    name = os.path.basename(base)
    if name.startswith("lib"):
        name = name[3:]
    if os.path.exists(shape):
        _same_torch(shape)
    ops = _bridge.load(path, shape if os.path.exists(shape) else None, target, 0, name,
                       isolate and "isolate" in can, bool(sanitize), bool(check_uninit))
    return Library(path, target, ops)


def _flags(what, flags):
    """A list of flags as cpp_extension.load() takes them: None is none, a
    str one flag (not its characters); anything but strings is refused."""
    if flags is None:
        return []
    if isinstance(flags, (str, os.PathLike)):
        flags = [flags]
    flags = [os.fspath(f) if isinstance(f, os.PathLike) else f for f in flags]
    if not all(isinstance(f, str) for f in flags):
        raise TypeError("q7cc.torch: %s=%r: a list of strings" % (what, flags))
    return flags


def load(name, compute_srcs, shape_srcs=(), build_directory=None, multicore=False,
         verbose=False, target=None, extra_cflags=None, extra_include_paths=None, isolate=None,
         sanitize=False, extra_ldflags=None, check_uninit=False):
    """Builds lib<name>.so in build_directory (by default
    ~/.cache/q7cc/torch/<name>) from the compute sources with q7cc and the
    shape sources against libtorch, only what changed since the last
    build, then registers its ops (load_library). multicore builds eight
    per-core images, each run with its get_cpu_id(). verbose=True shows
    the commands. extra_cflags go to the compute sources' compiles (e.g.
    -DSTACK_SIZE=20000), extra_ldflags to the compute library's link,
    extra_include_paths to every compile, as torch.utils.cpp_extension.load()
    takes them (lists of strings; a change builds again). A failed compile
    or link raises BuildError, with the compiler's diagnostics; q7cc's
    warnings of a build that succeeds are shown.
    target is "host" or "emulated" (None: Q7CC_TORCH_TARGET, else host).
    isolate=True runs host kernels in a process of their own (None:
    Q7CC_TORCH_ISOLATE, else in this process). sanitize=True (host, one
    core) builds with -fsanitize=address,undefined and runs each call in a
    q7-run --sanitize of its own; build it in a build_directory of its own.
    check_uninit=True raises a RuntimeError naming an output element the
    kernel reads before writing it (each call runs twice;
    Q7CC_CHECK_UNINIT=1: every library). docs/torch.md, "Running an op"."""
    target = _target(target)
    if not name or not all(c.isalnum() or c == "_" for c in name):
        raise ValueError("q7cc.torch: name=%r: a library name is letters, digits and _" % (name,))
    if isinstance(compute_srcs, (str, bytes, os.PathLike)):
        compute_srcs = [compute_srcs]
    if isinstance(shape_srcs, (str, bytes, os.PathLike)):
        shape_srcs = [shape_srcs]
    compute_srcs = [os.fspath(s) for s in compute_srcs]
    shape_srcs = [os.fspath(s) for s in (shape_srcs or ())]
    if not compute_srcs:
        raise ValueError("q7cc.torch: no compute sources")
    if build_directory is None:  # checked as q7cc's cache (_cache.private_dir)
        build_directory = _cache.private_or_temp(_paths.user_cache(name),
                                                 "q7cc-torch-%s-" % name)
    os.makedirs(build_directory, exist_ok=True)
    lib, _ = build(name, compute_srcs, shape_srcs, build_directory, bool(multicore),
                   bool(verbose), target, _flags("extra_cflags", extra_cflags),
                   _flags("extra_include_paths", extra_include_paths),
                   sanitize=bool(sanitize), extra_ldflags=_flags("extra_ldflags", extra_ldflags))
    library = load_library(lib, target, isolate, sanitize, check_uninit)
    if verbose:
        for op in library.ops:
            print("q7cc.torch: %s: %s (%s on the %s target)" % (
                os.path.basename(lib), op[1], op[2], target), flush=True)
    return library
