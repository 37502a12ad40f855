"""load() with shape sources and a Q7_KERNEL that no m.def names: the
kernel is an op too, with no shape function, in the blocks' namespace
(it was compiled into the library and silently left out). And CXX=q7cc,
the habit of CMake kernel projects, does not reach the shape files: they
are compiled with the host's c++ against libtorch (q7cc failed on
<ostream> inside c10). Each load in a fresh process, since a namespace is
registered once per process; the shape file is the sample's, whose
object e2e.torch.build left in the shared cache."""
import os
import shutil

import libs
from q7cc.torch import _build
from test_load import fresh_python

MIXED = """\
#include <torch/torch.h>
#include <q7/kernel.h>
torch::Tensor relu_forward(const torch::Tensor &t) { return t; }
torch::Tensor relu_backward(const torch::Tensor &g, const torch::Tensor &t) { return g; }
Q7_KERNEL torch::Tensor twice(const torch::Tensor &t_in) {
    torch::Tensor out = torch::empty(t_in.sizes(), torch::kFloat);
    auto a = t_in.accessor<float, 1>();
    auto o = out.accessor<float, 1>();
    for (int i = 0; i < t_in.size(0); i++)
        o[i] = 2 * a[i];
    return out;
}
"""


def load_mixed(tmp_path, target, **env):
    src = tmp_path / "mixed.cpp"
    src.write_text(MIXED)
    shutil.copy(os.path.join(libs.MLP_EXAMPLE, "shape.cpp"), tmp_path / "shape.cpp")
    old = dict(os.environ)
    os.environ.update(env)
    try:
        return fresh_python(
            "import torch\n"
            "from q7cc.torch import custom_op\n"
            "lib = custom_op.load(name='mixed', compute_srcs=[%r], shape_srcs=[%r],\n"
            "                     build_directory=%r, verbose=True)\n"
            "x = torch.tensor([1.0, -2.0, 3.0])\n"
            "print(sorted(op[0] for op in lib.ops))\n"
            "print(torch.ops.my_ops.twice(x).tolist())\n"
            % (str(src), str(tmp_path / "shape.cpp"), str(tmp_path)), target)
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_a_kernel_no_m_def_names_is_an_op(tmp_path, target):
    out = load_mixed(tmp_path, target).splitlines()
    assert "['my_ops::relu_backward', 'my_ops::relu_forward', 'my_ops::twice']" in out, out
    assert "[2.0, -4.0, 6.0]" in out, out


def test_cxx_naming_q7cc_builds_shape_files_with_the_host_compiler(tmp_path, target):
    q7cc = _build.q7cc_path()
    out = load_mixed(tmp_path, target, CXX=os.path.join(os.path.dirname(q7cc), "xt-clang++"))
    assert "[2.0, -4.0, 6.0]" in out, out
    os.environ["CXX"] = q7cc
    try:
        assert _build.host_cxx() == ["c++"]
    finally:
        del os.environ["CXX"]


SHRINK = """\
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor first_row(const torch::Tensor &x) {
    torch::Tensor y = torch::empty({x.size(1)}, torch::kFloat);
    auto a = x.accessor<float, 2>();
    auto o = y.accessor<float, 1>();
    for (int j = 0; j < x.size(1); j++)
        o[j] = a[0][j];
    return y;
}
"""


def test_an_output_of_another_shape_says_to_give_a_shape_function(tmp_path, target):
    """q7-run takes the returned tensor; PyTorch's destination without a
    shape function is shaped like the first tensor: the message says how
    to give it another."""
    src = tmp_path / "shrink.cpp"
    src.write_text(SHRINK)
    out = fresh_python(
        "import torch\n"
        "from q7cc.torch import custom_op\n"
        "custom_op.load(name='shrink', compute_srcs=[%r], build_directory=%r)\n"
        "try:\n"
        "    torch.ops.shrink.first_row(torch.ones(2, 3))\n"
        "except RuntimeError as e:\n"
        "    print(e)\n" % (str(src), str(tmp_path)), target)
    assert "shrink::first_row: the result (float32, 3 elements) does not fit the destination " \
           "(float32, 6 elements); without a shape function the output is shaped like the " \
           "op's first tensor argument: give the op a shape function" in out, out
