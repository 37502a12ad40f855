"""Ctrl-C during a long emulated call, or an isolated host call
(isolate=True): KeyboardInterrupt within a second (not at the call's
time-out), the emulated core (the kernel's process) stopped, and the next
call boots a new one and works. In a process of its own, which SIGINTs
itself as a user's Ctrl-C would. The target is Q7CC_TORCH_TARGET's."""
import os
import subprocess
import sys

import libs

CHILD = r"""
import os, signal, sys, threading, time, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("ints", %(target)r, isolate=%(target)r == "host")
x = torch.ones(3, dtype=torch.int32)
torch.ops.ints.iscale(x, 2, False)  # the core is up

def children():
    # QEMU or the kernel's process, not its guard (which leads the
    # group they are in: support/proc.h)
    out = []
    for task in os.listdir("/proc/%%d/task" %% os.getpid()):
        with open("/proc/%%d/task/%%s/children" %% (os.getpid(), task)) as f:
            out += [int(p) for p in f.read().split()]
    return [p for p in out if pgid(p) != p]

def pgid(pid):
    try:
        return os.getpgid(pid)
    except OSError:
        return pid  # gone meanwhile

kids = children()
sent = []
def ctrl_c():
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer(1.0, ctrl_c).start()
try:
    torch.ops.ints.count_to(x, 1 << 40)
    print("returned")
except KeyboardInterrupt:
    print("interrupted after %%.2f s" %% (time.monotonic() - sent[0]))
print("stopped", all(p not in children() for p in kids) and len(kids) == 1)
print("next", torch.ops.ints.iscale(x, 4, False).tolist())
"""


def test_ctrl_c_stops_the_call(target):
    env = dict(os.environ, Q7CC_TORCH_TIMEOUT="60")
    code = CHILD % {"here": os.path.dirname(os.path.abspath(__file__)), "target": target}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("interrupted after "), r.stdout + r.stderr
    assert float(lines[0].split()[2]) < 1.0, lines[0]
    assert lines[1] == "stopped True", r.stdout
    assert lines[2] == "next [4, 4, 4]", r.stdout
