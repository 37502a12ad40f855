"""A host kernel that faults in the default, in-process mode still ends
the Python process, by the same signal, but first one line on stderr
names the op, the signal, the address and where in the image, as
faulthandler names Python's frames (and beside faulthandler's report,
when that is on too). In a process of its own, which the fault ends."""
import os
import re
import signal
import subprocess
import sys

import pytest

CHILD = r"""
import sys, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("hostile", "host", isolate=False)
x = torch.arange(4, dtype=torch.int32)
assert torch.ops.hostile.count(x).tolist()[0] == 1  # a call that works first
print("calling", flush=True)
torch.ops.hostile.scribble(x, 1 << 40)
print("returned", flush=True)
"""


@pytest.mark.parametrize("faulthandler", [False, True])
def test_a_fault_names_the_op_then_ends_the_process(target, faulthandler):
    assert target == "host"
    code = CHILD % {"here": os.path.dirname(os.path.abspath(__file__))}
    argv = [sys.executable] + (["-X", "faulthandler"] if faulthandler else []) + ["-c", code]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONFAULTHANDLER",
                                                            "Q7CC_TORCH_ISOLATE")}
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert r.stdout == "calling\n", r.stdout + r.stderr
    assert r.returncode == -signal.SIGSEGV, (r.returncode, r.stderr)
    lines = [l for l in r.stderr.splitlines() if l.startswith("q7cc: fatal: ")]
    assert len(lines) == 1, r.stderr
    assert re.fullmatch(r"q7cc: fatal: scribble: the kernel crashed: SIGSEGV \(invalid memory "
                        r"access\), address 0x[0-9a-f]+, at libhostile\.so\+0x[0-9a-f]+ \(in "
                        r"this process, which it ends; .*isolate=True.*\)", lines[0]), lines[0]
    if faulthandler:
        assert "Fatal Python error: Segmentation fault" in r.stderr, r.stderr
