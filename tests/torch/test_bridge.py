"""The bridge built for the torch that imports it: with no prebuilt bridge
for this torch (Q7CC_TORCH_BRIDGE=build stands for one built against
another version), q7cc.torch compiles one from its bridge kit against this
torch's headers and libraries on first use, says so once, and caches it
by torch version. A cache whose record claims another torch version is
built again, and the ops work after it; the next process takes the cache."""
import json
import os
import subprocess
import sys

import torch

import libs

USE = """
import torch
from q7cc.torch import custom_op
custom_op.load_library(%r, target="host")
print(torch.ops.ints.iscale(torch.arange(4, dtype=torch.int32), 3, False).tolist())
"""


def run(cache):
    env = dict(os.environ, Q7CC_TORCH_BRIDGE="build", Q7CC_TORCH_BRIDGE_CACHE=str(cache))
    lib = os.path.join(libs.build_directory("ints", "host"), "libints.so")
    r = subprocess.run([sys.executable, "-c", USE % lib], capture_output=True, text=True, env=env,
                       timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "[0, 3, 6, 9]", r.stdout
    return r.stderr


def test_a_cache_for_another_torch_is_rebuilt(tmp_path):
    d = tmp_path / ("%s-abi%d" % (torch.__version__, int(torch._C._GLIBCXX_USE_CXX11_ABI)))
    d.mkdir()
    (d / "libq7torch.so").write_bytes(b"a bridge for another torch")
    (d / "libq7torch.so.json").write_text(json.dumps({"torch": "0.0", "abi": 1, "key": "old"}))
    said = run(tmp_path)
    assert said.count("no prebuilt bridge for torch %s" % torch.__version__) == 1, said
    record = (d / "libq7torch.so.json").read_text().split("\n#sha256 ")[0]  # its checksum
    assert json.loads(record)["torch"] == torch.__version__
    # the next process finds it built
    assert "no prebuilt bridge" not in run(tmp_path)
