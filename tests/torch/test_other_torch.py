"""A library whose shape file was built against another torch (Debian's
1.13, by e2e.torch.build, in Q7_OTHER_WORK) is refused by name before it
is loaded: loading it would bring that torch's libtorch into this
process beside this one's. load() of the same sources builds it again for
this torch."""
import os
import shutil

import pytest
import torch

import libs
from q7cc.torch import custom_op


@pytest.fixture
def debians(tmp_path, target):
    """A copy of the relu library's build directory of Debian's torch."""
    d = tmp_path / "relu"
    shutil.copytree(os.path.join(os.environ["Q7_OTHER_WORK"], target, "relu"), d)
    return d


def test_a_shape_library_of_another_torch_is_refused(debians, target):
    with pytest.raises(RuntimeError) as e:
        custom_op.load_library(debians / "librelu.so", target=target)
    said = str(e.value)
    assert "librelu.shape.so was built against torch 1.13 (C++ ABI 1)" in said, said
    assert "this process runs torch %s" % torch.__version__ in said, said
    assert not [m for m in open("/proc/self/maps") if "libtorch_cpu.so.1.13" in m]


def test_load_builds_it_again_for_this_torch(debians, target):
    compute, shape, _ = libs.LIBS["relu"]
    custom_op.load(name="relu", compute_srcs=compute, shape_srcs=shape,
                   build_directory=str(debians), target=target)
    x = torch.randn(5, 3)
    assert torch.equal(torch.ops.my_ops.relu_forward(x), torch.relu(x))
