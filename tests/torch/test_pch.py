"""The shape files' precompiled header (q7cc/torch/_pch.py): a new shape
file that includes <torch/torch.h> compiles from the header e2e.torch.build
precompiled into the shared shape cache (the command names it; its
.pch or .gch is there) and its op runs; a file that defines a macro
before <torch/torch.h>, or a header other than <torch/torch.h>, compiles
without it; Q7CC_TORCH_PCH=0 turns it off."""
import os
import re
import uuid

import torch

import libs
from q7cc.torch import _build, _pch, custom_op


def test_a_new_shape_file_compiles_from_the_precompiled_header(tmp_path, capfd):
    ns = "pch_" + uuid.uuid4().hex[:8]  # nothing of it is cached
    for f in ("relu.cpp", "shape.cpp"):
        with open(os.path.join(libs.MLP_EXAMPLE, f)) as src:
            text = src.read().replace("NEURON_LIBRARY(my_ops,", "NEURON_LIBRARY(%s," % ns)
        (tmp_path / f).write_text(text)
    custom_op.load(ns, [str(tmp_path / "relu.cpp")], [str(tmp_path / "shape.cpp")],
                   build_directory=str(tmp_path / "build"), verbose=True, target="host")
    log = capfd.readouterr().err
    compile_line = [x for x in log.splitlines() if x.startswith("$ ") and " -c " in x and
                    x.rstrip().endswith(".o") and "shape.cpp" in x]
    assert compile_line, log
    m = re.search(r" -include (\S+/q7torch\.h) ", compile_line[-1])
    assert m, compile_line[-1]
    header = m.group(1)
    assert os.path.exists(header + ".pch") or os.path.exists(header + ".gch"), header
    assert "precompiling" not in log, "e2e.torch.build precompiled it already:\n" + log
    x = torch.tensor([[-1.0, 2.0], [3.0, -4.0]])
    assert getattr(torch.ops, ns).relu_forward(x).tolist() == [[0.0, 2.0], [3.0, 0.0]]


def test_which_files_use_it(tmp_path, monkeypatch):
    cxx = _pch.shape_cxx(_build.host_cxx())
    assert _pch.kind(cxx), "neither clang++ nor g++: %s" % cxx
    cases = {
        "#include <stdint.h>\n#include <torch/torch.h>\nint f();\n": True,
        "// a comment: #define X\n#pragma once\n#include <torch/torch.h>\n": True,
        "#define TORCH_ASSERT_ONLY_METHOD_OPERATORS\n#include <torch/torch.h>\n": False,
        "#ifdef X\n#endif\n#include <torch/torch.h>\n": False,
        "#include <ATen/ops/empty.h>\n#include \"torchneuron/register.h\"\n": False,
    }
    for i, (text, used) in enumerate(cases.items()):
        src = tmp_path / ("s%d.cpp" % i)
        src.write_text(text)
        assert _pch.usable(cxx, str(src)) == used, text
    src = tmp_path / "s0.cpp"
    monkeypatch.setenv("Q7CC_TORCH_PCH", "0")
    assert not _pch.usable(cxx, str(src))
