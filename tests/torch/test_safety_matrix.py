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
import select
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


def load_cell(target, **kw):
    """The safety kernels in this cell (kw: load()'s check_uninit); its
    ops and their namespace."""
    if MODE == "sanitize":
        src = os.path.join(libs.KERNELS, "..", "..", "runtime", "kernels", "safety.cpp")
        custom_op.load(name="safety_san", compute_srcs=[src], sanitize=True, target="host",
                       build_directory=libs.build_directory("safety_san", "host"), **kw)
        return torch.ops.safety_san, "safety_san"
    libs.load("safety", target, **dict(kw, **({"isolate": True} if MODE == "isolated" else {})))
    return torch.ops.safety, "safety"


@pytest.fixture(scope="module")
def ops(target):
    assert target == ("emulated" if MODE == "emulated" else "host")
    return load_cell(target)


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
    y = o.read_dst(torch.arange(1, 9, dtype=torch.float32), -1)
    assert torch.isnan(y).all()


def test_check_uninit_names_the_element_read_before_written(ops, target):
    """load(check_uninit=True): each call twice, the fresh output filled
    with 0xff then 0x00 bytes; read_dst reading element 5 of a 2x4 output
    before writing it is named, flat and by index; the caller's tensors
    are as they were; a kernel that writes first (k = 8: no element read)
    passes; load() again without it turns it off."""
    _, ns = ops
    o, _ = load_cell(target, check_uninit=True)
    try:
        base = torch.arange(1, 25, dtype=torch.float32)
        x = base[:8].view(2, 4)
        bystander = torch.arange(100, 1124, dtype=torch.float32)
        want = ("^" + re.escape(ns + "::read_dst: the kernel read its output before writing it: "
                                "element 5 [1, 1] of the destination (byte offset 20) came out "
                                "different when the fresh output started as 0xff bytes and as "
                                "0x00 bytes; a kernel writes each element of its output before "
                                "reading it") + "$")
        with pytest.raises(RuntimeError, match=want):
            o.read_dst(x, 5)
        assert torch.equal(base, torch.arange(1, 25, dtype=torch.float32))
        assert torch.equal(bystander, torch.arange(100, 1124, dtype=torch.float32))
        assert torch.equal(o.read_dst(x, 8), x)
    finally:
        load_cell(target)
    y = o.read_dst(x, 5)  # unchecked again: element 5 is NaN, the rest x
    assert torch.isnan(y[1, 1]) and torch.equal(y.flatten()[:5], x.flatten()[:5])


def test_new_and_delete_are_the_heap_arena_s(target):
    """One element past a new[] block and a second delete[] of it, named
    on every target (the host's new and delete are the runtime's, on the
    heap arena, as the device's); under sanitize=True the sanitizer's own
    new catches both. The next call works."""
    if MODE == "sanitize":
        src = os.path.join(libs.KERNELS, "..", "..", "runtime", "kernels", "divzero.cpp")
        custom_op.load(name="misc_san", compute_srcs=[src], sanitize=True, target="host",
                       build_directory=libs.build_directory("misc_san", "host"))
        o, ns = torch.ops.misc_san, "misc_san"
    else:
        libs.load("misc", target, **({"isolate": True} if MODE == "isolated" else {}))
        o, ns = torch.ops.misc, "misc"
    x = torch.tensor([8, 4, 2, 1], dtype=torch.int32)
    for how, says in ((1, "the kernel wrote past the end of a heap allocation (16 bytes), at "
                          "byte offset 16" + RULE2),
                      (2, "operator delete[]: the pointer is not a block of the heap arena in "
                          "use (deleted twice, or not from new[])")):
        if MODE == "sanitize":
            says = "a sanitizer stopped the kernel (its report is above)"
        with pytest.raises(RuntimeError, match="^" + re.escape(ns + "::new_misuse: " + says) + "$"):
            o.new_misuse(x, how)
        assert torch.equal(o.new_misuse(x, 0), x + 1)


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
        for op, arg in (("recurse", -1), ("recurse", 1400)):
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


SPIN_CHILD = r"""
import os, signal, sys, threading, torch
sys.path.insert(0, %(here)r)
import libs
from q7cc.torch import custom_op
src = os.path.join(libs.KERNELS, "..", "..", "runtime", "kernels", "safety.cpp")
custom_op.load(name="safety_san", compute_srcs=[src], sanitize=True, target="host",
               build_directory=libs.build_directory("safety_san", "host"))
x = torch.ones(8)
assert torch.equal(torch.ops.safety_san.spin(x, 10), x)
if %(ctrl_c)r:
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
print("calling", flush=True)
try:
    torch.ops.safety_san.spin(x, 1 << 60)
    print("returned")
except KeyboardInterrupt:
    print("interrupted")
print("next", torch.equal(torch.ops.safety_san.spin(x, 10), x), flush=True)
"""


def q7_runs_under(pid):
    """The q7-run processes among pid's descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, task)) as f:
                    todo += [int(c) for c in f.read().split()]
            with open("/proc/%d/cmdline" % p, "rb") as f:
                argv = f.read().split(b"\0")
            if p != pid and argv[0].endswith(b"/q7-run") and b"--sanitize" in argv:
                found.append(p)
        except OSError:
            pass
    return found


def tree(pid):
    """pid and its children, with their command lines: for a message."""
    out = []
    for d in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read().split()
            with open("/proc/%s/cmdline" % d, "rb") as f:
                out.append((d, st[3], f.read()[:80]))
        except OSError:
            pass
    return [o for o in out if o[1] == str(pid) or o[0] == str(pid)]


def test_sanitize_keeps_the_ctrl_c_and_orphan_promises(ops):
    """sanitize=True (item: docs/runtime.md): a kernel that never returns
    stops at Ctrl-C (KeyboardInterrupt, and the next call works), and
    q7-run --sanitize dies with its caller killed by SIGKILL."""
    if MODE != "sanitize":
        return
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run([sys.executable, "-c", SPIN_CHILD % {"here": here, "ctrl_c": True}],
                       capture_output=True, text=True, timeout=300)
    assert r.stdout.splitlines() == ["calling", "interrupted", "next True"], r.stdout + r.stderr
    child = subprocess.Popen([sys.executable, "-c", SPIN_CHILD % {"here": here, "ctrl_c": False}],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "calling\n"
        runs = []
        for _ in range(3000):  # bounded: until q7-run --sanitize has started
            runs = q7_runs_under(child.pid)
            if runs:
                break
            select.select([], [], [], 0.01)
        assert runs, "no q7-run --sanitize under the caller: %s" % tree(child.pid)
        child.kill()
        child.wait()
        for _ in range(3000):  # bounded: until it is gone
            if not any(os.path.exists("/proc/%d" % p) and open("/proc/%d/stat" % p).read().split()[2] != "Z"
                       for p in runs):
                break
            select.select([], [], [], 0.01)
        else:
            raise AssertionError("q7-run --sanitize outlived its caller: %s" % runs)
    finally:
        if child.poll() is None:
            child.kill()
