"""Children die with their parent, by any signal: kill -9 of a Python
process in the middle of an emulated call (QEMU) or an isolated host call
(the kernel's process), or of a q7-run doing the same, leaves nothing of
theirs running: every descendant is gone within a few seconds, none
reparented to init to spin on. The target is Q7CC_TORCH_TARGET's (the
host's calls isolated: in-process calls have no child)."""
import os
import signal
import subprocess
import sys
import time

import libs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
from run_e2e import alive, descendants  # noqa: E402

TARGET = os.environ.get("Q7CC_TORCH_TARGET", "host")
HERE = os.path.dirname(os.path.abspath(__file__))
BOUND_S = 3.0

CHILD = r"""
import sys, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("ints", %(target)r, isolate=%(isolate)r)
x = torch.ones(3, dtype=torch.int32)
torch.ops.ints.iscale(x, 2, False)  # the core or the kernel's process is up
print("calling", flush=True)
torch.ops.ints.count_to(x, 1 << 40)
print("returned", flush=True)
"""


def name(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return "?"


def kill_and_watch(proc, settle_s):
    """kill -9 of proc mid-call; the descendants it had, and those still
    running BOUND_S later."""
    time.sleep(settle_s)
    kids = descendants(proc.pid)
    names = {k: name(k) for k in kids}
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    end = time.monotonic() + BOUND_S
    left = [k for k in kids if alive(k)]
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = [k for k in left if alive(k)]
    for k in left:  # the test's own cleanup, after the verdict is taken
        try:
            os.kill(k, signal.SIGKILL)
        except OSError:
            pass
    return names, [(k, names[k]) for k in left]


def expect_child(names):
    want = "qemu-system-xte" if TARGET == "emulated" else None
    if want:
        assert want in names.values(), names
    else:
        assert names, "no kernel process under the caller"


def killed_mid_call(argv, settle_s, ready=None):
    """Starts argv, kills it with -9 settle_s after it printed ready (when
    given) and returns what kill_and_watch found."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE if ready else subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        if ready:
            line = p.stdout.readline()
            assert line == ready, line + p.stderr.read()
        return kill_and_watch(p, settle_s)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_kill_9_of_python_mid_call():
    code = CHILD % {"here": HERE, "target": TARGET, "isolate": TARGET == "host"}
    names, left = killed_mid_call([sys.executable, "-c", code], 0.5, "calling\n")
    expect_child(names)
    assert not left, "still running %.1f s after kill -9 of Python: %s" % (BOUND_S, left)


def test_kill_9_of_q7_run_mid_call(tmp_path):
    import numpy as np
    from q7cc.torch import _paths
    x = tmp_path / "x.npy"
    np.save(x, np.ones(3, dtype=np.int32))
    lib = os.path.join(libs.build_directory("ints", TARGET), "libints.so")
    libs.load("ints", TARGET)  # built (up to date after the fixture)
    run = os.path.join(_paths.PREFIX, "bin", "q7-run")
    names, left = killed_mid_call([run, "--target=" + TARGET, lib, "count_to", str(x),
                                   str(1 << 40), "-o", str(tmp_path / "out.npy")], 1.0)
    expect_child(names)
    assert not left, "still running %.1f s after kill -9 of q7-run: %s" % (BOUND_S, left)
