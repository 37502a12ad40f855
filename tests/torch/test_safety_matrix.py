"""docs/runtime.md's table "What a kernel may write", as a matrix: each
mistake a kernel author makes (tests/runtime/kernels/safety.cpp), run in
one cell (Q7_SAFETY_MODE: direct, the host in this process; isolated,
isolate=True; sanitize, sanitize=True; emulated, the emulated core):
caught as one RuntimeError naming the op, the region and the byte
offset; the caller's input (a view of a larger tensor), its version
counter and an unrelated live tensor unchanged; the next call works.
tests/runtime/safety.sh runs the same kernels through q7-run."""
import os
import re
import signal
import subprocess
import sys

import pytest
import torch

import libs
from q7cc.torch import custom_op

MODE = os.environ.get("Q7_SAFETY_MODE", "direct")
RULE2 = "; a kernel writes only into its output and its own allocations"
KEPT = " (the caller's tensor is as it was)"

# op, argument, the message after "safety::<op>: the kernel ", cells that
# catch it (all when None)
CASES = [
    ("far_dst", 1100, "wrote past the end of the destination (get_dst_tensor(): 32 bytes), "
     "at byte offset 4432" + RULE2, None),
    ("far_dst", 64, "wrote past the end of the destination (get_dst_tensor(): 32 bytes), "
     "at byte offset 288" + RULE2, None),
    ("far_dst", -1, "wrote before the start of the destination (get_dst_tensor(): 32 bytes), "
     "at byte offset -4" + RULE2, None),
    ("far_dst", 100000, "wrote past the end of the destination (get_dst_tensor(): 32 bytes), "
     "at byte offset 400032" + RULE2, ("direct", "isolated", "sanitize")),
    ("far_input", 1100, "wrote past the end of its input argument 1 (x), at byte offset 4432 "
     "(it has 32 bytes)" + RULE2 + KEPT, None),
    ("far_input", 100000, "wrote past the end of its input argument 1 (x), at byte offset "
     "400032 (it has 32 bytes)" + RULE2 + KEPT, ("direct", "isolated", "sanitize")),
    ("far_zeros", 1100, "wrote past the end of a heap allocation (32 bytes), at byte offset "
     "4432" + RULE2, None),
    ("far_zeros", 64, "wrote past the end of a heap allocation (32 bytes), at byte offset "
     "288" + RULE2, None),
    ("write_input", 1, "wrote into its input argument 1 (x), at byte offset %d; a kernel never "
     "changes its inputs" % (6 if MODE == "emulated" else 4) + KEPT, None),
]


@pytest.fixture(scope="module")
def ops(target):
    assert target == ("emulated" if MODE == "emulated" else "host")
    if MODE == "sanitize":
        src = os.path.join(libs.KERNELS, "..", "..", "runtime", "kernels", "safety.cpp")
        custom_op.load(name="safety_san", compute_srcs=[src], sanitize=True, target="host",
                       build_directory=libs.build_directory("safety_san", "host"))
        return torch.ops.safety_san, "safety_san"
    libs.load("safety", target, **({"isolate": True} if MODE == "isolated" else {}))
    return torch.ops.safety, "safety"


@pytest.mark.parametrize("op,arg,says,cells", CASES,
                         ids=["%s %d" % (c[0], c[1]) for c in CASES])
def test_caught_named_and_nothing_of_the_callers_changed(ops, op, arg, says, cells):
    if cells is not None and MODE not in cells:
        return  # out of reach in this cell: docs/runtime.md's table says so
    o, ns = ops
    base = torch.arange(1, 25, dtype=torch.float32)
    x = base[:8]
    version = x._version
    bystander = torch.arange(100, 1124, dtype=torch.float32)  # live, unrelated
    want = "^" + re.escape(ns + "::" + op + ": the kernel " + says) + "$"
    with pytest.raises(RuntimeError, match=want):
        getattr(o, op)(x, arg)
    assert torch.equal(base, torch.arange(1, 25, dtype=torch.float32))
    assert x._version == version
    assert torch.equal(bystander, torch.arange(100, 1124, dtype=torch.float32))
    # the next call works
    assert torch.equal(o.write_input(x, 0), 2 * torch.arange(1, 9, dtype=torch.float32))


def test_a_fresh_output_shows_what_was_never_written(ops):
    """read_dst adds into its output before writing it: the output starts
    as 0xff bytes (a quiet NaN) on every target, so the sum is NaN."""
    o, _ = ops
    y = o.read_dst(torch.arange(1, 9, dtype=torch.float32))
    assert torch.isnan(y).all()


STACK_CHILD = r"""
import sys, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("safety", "host")
print("calling", flush=True)
torch.ops.safety.recurse(torch.ones(8), 100000)
print("returned", flush=True)
"""


def test_a_stack_overflow_is_named(ops):
    """Past the core's stack: the emulated core's 64 KiB (a 96 KiB local
    array, recursion of about 760 KB), the isolated worker's thread, and
    in this process (direct) a line naming the op before the process ends
    (the fault handler runs on an alternate stack)."""
    o, _ = ops
    x = torch.ones(8)
    if MODE == "emulated":
        for op, arg in (("big_frame", 1), ("recurse", 1400)):
            with pytest.raises(RuntimeError, match="the kernel overflowed the core's 64 KiB stack"):
                getattr(o, op)(x, arg)
        assert torch.equal(o.recurse(x, 10), x)
    elif MODE == "isolated":
        with pytest.raises(RuntimeError, match=r"^safety::recurse: the kernel crashed: SIGSEGV"):
            o.recurse(x, 100000)
    elif MODE == "direct":
        code = STACK_CHILD % {"here": os.path.dirname(os.path.abspath(__file__))}
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONFAULTHANDLER",)}
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           timeout=300)
        assert r.stdout == "calling\n", r.stdout + r.stderr
        assert r.returncode == -signal.SIGSEGV, (r.returncode, r.stderr)
        assert re.search(r"^q7cc: fatal: recurse: the kernel crashed: SIGSEGV", r.stderr, re.M), \
            r.stderr
