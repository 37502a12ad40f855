"""Shape functions against their kernels, when custom_op.load() builds
the library rather than at the first call: a shape function whose
arguments are not the kernel's, an m.def naming a compute function no
source defines, and a shape function declared but never defined are each
a BuildError at the line of the m.def, naming both declarations, with no
lib<name>.so left behind. And an op defined by a shape function takes
its kernel's parameter names, so keyword calls work; a shape function
written as a lambda names its kernel as a named one does, and an m.def
added to a shape file names its kernel at the next load of the build
directory. On the target Q7CC_TORCH_TARGET names."""
import os

import pytest
import torch

import libs
from q7cc.torch import custom_op


def build(tmp_path, target, name, shape):
    return custom_op.load(name=name, compute_srcs=[os.path.join(libs.KERNELS, "mismatch.cpp")],
                          shape_srcs=[os.path.join(libs.KERNELS, shape)],
                          build_directory=str(tmp_path / name), target=target)


def test_arguments_and_compute_functions_are_checked_at_the_build(tmp_path, target):
    with pytest.raises(custom_op.BuildError) as e:
        build(tmp_path, target, "mismatch", "mismatch_shape.cpp")
    lines = e.value.output.splitlines()
    assert lines[:3] == [
        "mismatch_shape.cpp:19: error: mismatch_ops::scale: the shape function and the kernel "
        "disagree: argument 2 is float in the shape function, int in the kernel",
        "mismatch_shape.cpp:8: note: shape function scale_shape(Tensor, float, float)",
        "mismatch.cpp:6: note: kernel scale(Tensor x, int n, float a)"], e.value.output
    assert lines[3] == (
        "mismatch_shape.cpp:20: error: mismatch_ops::twice: m.def names the compute function "
        "'twice', which no compute source defines (their kernels: scale (mismatch.cpp:6))"), lines
    assert not os.path.exists(tmp_path / "mismatch" / "libmismatch.so")
    assert not os.path.exists(tmp_path / "mismatch" / "libmismatch.shape.so")
    # nothing changed, nothing compiled again: the same error, not a library
    with pytest.raises(custom_op.BuildError) as again:
        build(tmp_path, target, "mismatch", "mismatch_shape.cpp")
    assert again.value.output == e.value.output


def test_a_library_built_otherwise_is_checked_at_load(tmp_path, target, monkeypatch):
    from q7cc.torch import _build
    # as if built without the check (another tool, an older q7cc.torch)
    monkeypatch.setattr(_build, "check_shapes", lambda *a: ([], []))
    with pytest.raises(RuntimeError) as e:
        build(tmp_path, target, "mismatch", "mismatch_shape.cpp")
    assert str(e.value) == (
        "mismatch_shape.cpp:19: mismatch_ops::scale: the shape function's arguments (Tensor, "
        "float, float) are not the kernel's: scale(Tensor x, int n, float a) -> Tensor")


def test_an_undefined_shape_function_is_a_link_error_at_its_m_def(tmp_path, target):
    with pytest.raises(custom_op.BuildError) as e:
        build(tmp_path, target, "ghost", "ghost_shape.cpp")
    assert e.value.output.splitlines()[0] == (
        'ghost_shape.cpp:8: error: m.def("scale", &ghost_shape, ...): the shape function '
        "ghost_shape(at::Tensor, long, double) is declared but not defined in any shape "
        "source"), e.value.output
    assert not os.path.exists(tmp_path / "ghost" / "libghost.shape.so")


def test_shape_function_ops_take_the_kernels_parameter_names(target):
    lib = libs.load("params", target)
    schemas = {op[0]: op[1] for op in lib.ops}
    assert schemas["q7_test::affine"] == (
        "q7_test::affine(Tensor x, int offset, float scale, Scalar floor) -> Tensor")
    x = torch.tensor([1.0, -2.0, 3.0])
    want = torch.ops.q7_test.affine(x, 1, 2.0, 0)
    assert torch.equal(torch.ops.q7_test.affine(x, 1, scale=2.0, floor=0), want)
    assert torch.equal(torch.ops.q7_test.affine(x=x, offset=1, scale=2.0, floor=0), want)


def test_a_lambda_shape_function_still_names_its_kernel(tmp_path, target):
    """The kernels a build compiles are the compute functions q7cc reads
    the NEURON_LIBRARY blocks to name (--q7-print-schema), whatever each
    m.def's shape function is: a lambda's m.def makes relu.cpp's unmarked
    relu_forward a kernel as &relu_fwd_shape's does."""
    lib = custom_op.load(name="lambdas", compute_srcs=[os.path.join(libs.MLP_EXAMPLE, "relu.cpp")],
                         shape_srcs=[os.path.join(libs.KERNELS, "lambda_shape.cpp")],
                         build_directory=str(tmp_path / "lambdas"), target=target)
    assert sorted(op[0] for op in lib.ops) == ["lambda_ops::relu_backward",
                                               "lambda_ops::relu_forward"], lib.ops
    x = torch.randn(4, 6)
    assert torch.equal(torch.ops.lambda_ops.relu_forward(x), torch.relu(x))
    assert torch.equal(torch.ops.lambda_ops.relu_backward(torch.ones(4, 6), x),
                       (x > 0).float())


def test_an_edited_shape_file_names_its_new_kernels(tmp_path, target):
    """The m.defs q7cc read are kept in the build directory for the same
    shape files only: one added to the file makes its compute function a
    kernel at the next load (a kept list would leave relu.cpp's unmarked
    relu_backward out, and the build would fail naming it)."""
    shape = tmp_path / "shape.cpp"

    def load(ns, defs):
        shape.write_text(
            '#include <torch/torch.h>\n#include "torchneuron/register.h"\n'
            "torch::Tensor relu_forward_shape(torch::Tensor t_in) { return t_in; }\n"
            "torch::Tensor relu_backward_shape(torch::Tensor t_grad, torch::Tensor t_in) "
            "{ return t_in; }\n"
            "NEURON_LIBRARY(%s, m) {\n%s}\n" % (ns, "".join(
                '    m.def("%s", &%s_shape, "%s");\n' % (d, d, d) for d in defs)))
        return custom_op.load(name=ns, compute_srcs=[os.path.join(libs.MLP_EXAMPLE, "relu.cpp")],
                              shape_srcs=[str(shape)], build_directory=str(tmp_path / "b"),
                              target=target)

    lib = load("edit_a", ["relu_forward"])
    assert [op[0] for op in lib.ops] == ["edit_a::relu_forward"], lib.ops
    lib = load("edit_b", ["relu_forward", "relu_backward"])
    assert sorted(op[0] for op in lib.ops) == ["edit_b::relu_backward",
                                               "edit_b::relu_forward"], lib.ops
