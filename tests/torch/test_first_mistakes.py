"""A newcomer's first mistakes, each with the message that says what to
do (docs/driver.md, "Shared libraries without kernels"; docs/torch.md):
a forgotten Q7_KERNEL is one error at the link naming the function that
looks like a kernel and its source; a shape function giving another shape
than the kernel's result names the shape function and where it is
defined (its file and line, not its m.def's; a shape library that
shape_library builds, as CMake's TORCH_SHAPE_LIBRARY does, too); a tensor
of the wrong dtype names the argument. On the target Q7CC_TORCH_TARGET
names."""
import os

import pytest
import torch

import libs
from q7cc.torch import custom_op


def src(name):
    return os.path.join(libs.KERNELS, name)


def test_a_forgotten_q7_kernel_is_one_error_at_the_link(tmp_path, target):
    with pytest.raises(custom_op.BuildError) as e:
        custom_op.load(name="unmarked", compute_srcs=[src("rowsum_unmarked.cpp")],
                       build_directory=str(tmp_path / "unmarked"), target=target)
    lines = [l for l in e.value.output.splitlines() if l and not l.startswith("$ ")]
    assert len(lines) == 1, e.value.output
    assert "libunmarked.so: error: no kernels in this shared-library link, yet 1 function " \
        "looks like a kernel: row_sums(const at::Tensor &, float) in rowsum_unmarked.cpp (" \
        in lines[0], lines[0]
    assert "mark each kernel with Q7_KERNEL from <q7/kernel.h>" in lines[0]
    # the page by its installed (here staged) path
    assert os.path.join("share", "doc", "q7cc", "driver.md") in lines[0]
    assert "undefined symbol" not in e.value.output
    assert "dangerous relocation" not in e.value.output


@pytest.fixture(scope="module")
def wrong_shape(tmp_path_factory, target):
    custom_op.load(name="first", compute_srcs=[src("rowsum.cpp")],
                   shape_srcs=[src("rowsum_wrong_shape.cpp")],
                   build_directory=str(tmp_path_factory.mktemp("first")), target=target)
    return torch.ops.first_ops.row_sums


def test_a_wrong_shape_names_the_shape_function_and_its_file(wrong_shape):
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    with pytest.raises(RuntimeError) as e:
        wrong_shape(x, 2.0)
    assert str(e.value) == (
        "first_ops::row_sums: the result (float32, 2 elements) does not fit the destination "
        "(float32, 6 elements); the destination is the tensor the shape function "
        "row_sums_shape (rowsum_wrong_shape.cpp:6) returns: make it return the "
        "shape and dtype of the kernel's result"), str(e.value)


def test_a_wrong_dtype_names_the_argument(wrong_shape):
    x = torch.arange(6, dtype=torch.int32).reshape(2, 3)
    with pytest.raises(RuntimeError) as e:
        wrong_shape(x, 2.0)
    assert str(e.value) == ("first_ops::row_sums: accessor: argument 1 (x): tensor is int32, "
                            "not float32"), str(e.value)
