"""A CMake build's library with a shape library (docs/torch.md, "From
CMake"): q7_add_custom_op(... SHAPE_SOURCES ... TORCH_SHAPE_LIBRARY)
builds lib<name>.shape.so beside lib<name>.so, and load_library() of it
defines the op with its shape function (an output shaped otherwise than
its first argument), in the NEURON_LIBRARY block's namespace; a shape
function giving the wrong shape is named with the file and line of its
definition, not of its m.def. On the
target Q7CC_TORCH_TARGET names."""
import os
import subprocess

import pytest
import torch

import libs
from q7cc import _layout
from q7cc.torch import _paths, custom_op

SHAPE = """#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor row_sums_shape(torch::Tensor x, double scale) {
    return torch::empty({x.size(0)}, torch::kFloat);
}

torch::Tensor like_x_shape(torch::Tensor x, double scale) {
    return torch::empty_like(x);
}

NEURON_LIBRARY(cmake_shape_ops, m) {
    m.def("row_sums", &row_sums_shape, "row_sums");
    m.def("row_sums_like_x", &like_x_shape, "row_sums");
}
"""


def test_a_cmake_build_gets_its_shape_library(tmp_path, target):
    proj = tmp_path / "proj"
    proj.mkdir()
    with open(os.path.join(libs.KERNELS, "rowsum.cpp")) as f:
        (proj / "rowsum.cpp").write_text(f.read())
    (proj / "shape.cpp").write_text(SHAPE)
    (proj / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(rows NONE)\n"
        "find_package(q7cc CONFIG REQUIRED)\n"
        "q7_add_custom_op(rows SOURCES rowsum.cpp SHAPE_SOURCES shape.cpp TOOLCHAIN %s "
        "TORCH_SHAPE_LIBRARY)\n" % ("host" if target == "host" else "gnu"))
    q7cc_dir = os.path.join(_paths.PREFIX, _layout.LIBDIR, "cmake", "q7cc")
    build = tmp_path / "build"
    for cmd in (["cmake", "-S", str(proj), "-B", str(build), "-Dq7cc_DIR=" + q7cc_dir],
                ["cmake", "--build", str(build)]):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert r.returncode == 0, r.stdout.decode()
    assert os.path.exists(build / "librows.shape.so")
    custom_op.load_library(str(build / "librows.so"), target=target)
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    assert torch.ops.cmake_shape_ops.row_sums(x, 2.0).tolist() == [6.0, 24.0]
    assert str(torch.ops.cmake_shape_ops.row_sums.default._schema) == \
        "cmake_shape_ops::row_sums(Tensor x, float scale) -> Tensor"
    with pytest.raises(RuntimeError) as e:
        torch.ops.cmake_shape_ops.row_sums_like_x(x, 2.0)
    assert "does not fit the destination (float32, 6 elements); the destination is the " \
        "tensor the shape function like_x_shape (shape.cpp:8) returns" in str(e.value), \
        str(e.value)
