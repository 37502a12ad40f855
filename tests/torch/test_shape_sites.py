"""A shape library whose table of shape functions (q7_neuron_shape_sites,
docs/torch.md) is damaged: a hand-made symbol of 10 bytes with no NUL in
them. The bridge reads no further than the symbol (the bytes after it,
which say NOT:1, were read as the table's before) and names the shape
function by its m.def's file and line; the op's error comes out and the
process goes on. The library and its shape library are built here (no
fixture: one shape file against libtorch)."""
import os
import subprocess

import pytest
import torch

from q7cc.torch import _build, custom_op, shape_library

SHAPE = """#include <torch/torch.h>
#include "torchneuron/register.h"

torch::Tensor like_x_shape(torch::Tensor x, double scale);

NEURON_LIBRARY(hostile_sites, m) {
    m.def("row_sums", &like_x_shape, "row_sums");
}
"""

# Defined apart from its m.def: q7cc.torch makes no table, this file's is
# the library's.
SHAPE_FN = r"""#include <torch/torch.h>

torch::Tensor like_x_shape(torch::Tensor x, double scale) {
    return torch::empty_like(x);
}

__asm__(".section .rodata.hostile_sites,\"a\"\n"
        ".globl q7_neuron_shape_sites\n"
        ".type q7_neuron_shape_sites, @object\n"
        ".size q7_neuron_shape_sites, 10\n"
        "q7_neuron_shape_sites:\n"
        ".ascii \"shape.cpp:7\\tNOT:1\\n\"\n"
        ".byte 0\n"
        ".previous\n");
"""


def test_a_damaged_table_is_read_within_its_symbol(tmp_path):
    kernels = os.environ["Q7_KERNELS"]
    (tmp_path / "shape.cpp").write_text(SHAPE)
    (tmp_path / "shape_fn.cpp").write_text(SHAPE_FN)
    lib = str(tmp_path / "librows.so")
    shape_library.build(str(tmp_path / "librows.shape.so"),
                        [str(tmp_path / "shape.cpp"), str(tmp_path / "shape_fn.cpp")],
                        log=lambda *a: None)
    subprocess.run([_build.q7cc_path(), "--q7-toolchain=host", "-shared", os.path.join(kernels, "rowsum.cpp"),
                    "-o", lib], check=True)
    custom_op.load_library(lib, target="host")
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    with pytest.raises(RuntimeError) as e:
        torch.ops.hostile_sites.row_sums(x, 2.0)
    assert "the shape function like_x_shape (its m.def at shape.cpp:7) returns" in str(e.value), \
        str(e.value)
    assert "NOT:1" not in str(e.value)
