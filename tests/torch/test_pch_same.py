"""The precompiled header only speeds the shape files up (q7cc/torch/_pch.py):
every shape file of the suite (tests/torch/kernels, examples/) and one
that uses NEURON_LIBRARY without #include "torchneuron/register.h" is
checked (-fsyntax-only) with the flags the build gives it, with the
precompiled header where the build uses it, and with Q7CC_TORCH_PCH=0's
flags: the same result each way. The file without the include fails
both ways, and the build then says which include to add."""
import glob
import os
import subprocess

import pytest

import libs
from q7cc.torch import _build, _pch, custom_op

NO_INCLUDE = """#include <torch/torch.h>

torch::Tensor twice_shape(torch::Tensor x) { return torch::empty_like(x); }

NEURON_LIBRARY(pch_same_ops, m) {
    m.def("twice", &twice_shape, "twice");
}
"""


def shape_files(tmp_path):
    files = sorted(glob.glob(os.path.join(libs.KERNELS, "*shape*.cpp")) +
                   glob.glob(os.path.join(libs.EXAMPLES, "*", "shape*.cpp")))
    assert len(files) >= 10, files
    no_include = tmp_path / "no_include_shape.cpp"
    no_include.write_text(NO_INCLUDE)
    return files + [str(no_include)]


def check(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return r.returncode == 0, r.stdout.decode("utf-8", "replace")


def test_every_shape_file_compiles_the_same_with_and_without_the_header(tmp_path):
    cxx, sflags, _, _, pch_flags, _, pch, _ = _build.shape_setup()
    assert pch, "no shape cache, so no precompiled header"
    if not any(os.path.exists(pch + ext) for ext in (".pch", ".gch")):
        _pch.build(pch, cxx, pch_flags, print)
    results = {}
    for src in shape_files(tmp_path):
        base = cxx + sflags + ["-fsyntax-only", src]
        with_pch = cxx + sflags + (_pch.flags(cxx, pch) if _pch.usable(cxx, src) else []) + \
            ["-fsyntax-only", src]
        name = os.path.join(os.path.basename(os.path.dirname(src)), os.path.basename(src))
        results[name] = (check(with_pch)[0], check(base))
    differ = {f: out for f, (a, (b, out)) in results.items() if a != b}
    assert not differ, differ
    failed = sorted(f for f, (ok, _) in results.items() if not ok)
    # the file without the include, and the guide's shape_printf.cpp
    # under clang++ (it narrows a size_t in a braced list, which GCC
    # only warns about): each both ways
    assert os.path.basename(str(tmp_path)) + "/no_include_shape.cpp" in failed, failed
    assert set(failed) <= {os.path.basename(str(tmp_path)) + "/no_include_shape.cpp",
                           "guide/shape_printf.cpp"}, \
        {f: results[f][1][1] for f in failed}


def test_the_build_says_which_include_to_add(tmp_path):
    shape = tmp_path / "no_include_shape.cpp"
    shape.write_text(NO_INCLUDE)
    kernel = tmp_path / "twice.cpp"
    kernel.write_text("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
                      "Q7_KERNEL torch::Tensor twice(const torch::Tensor &x) { return x; }\n")
    with pytest.raises(custom_op.BuildError) as e:
        custom_op.load("pch_same", [str(kernel)], [str(shape)],
                       build_directory=str(tmp_path / "build"), target="host")
    assert e.value.output.rstrip().splitlines()[-1] == (
        'no_include_shape.cpp: NEURON_LIBRARY is defined by "torchneuron/register.h": add '
        '#include "torchneuron/register.h" after #include <torch/torch.h>'), e.value.output
