"""Ctrl-C during a long emulated call, or an isolated host call
(isolate=True): KeyboardInterrupt (the call's time-out is an hour, so only
the interrupt can end it before the wait for the process, which only
detects a hang), the emulated core (the kernel's process) stopped, and the
next call boots a new one and works. In a process of its own, which SIGINTs
itself as a user's Ctrl-C would once the core computes (its CPU time
grows). The target is Q7CC_TORCH_TARGET's."""
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

def cpu_ticks(pid):
    with open("/proc/%%d/stat" %% pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime

kids = children()
idle = cpu_ticks(kids[0])
def ctrl_c():
    # The call is on the core once its CPU time grows by 5 ticks (an idle
    # core waits in a read).
    while cpu_ticks(kids[0]) < idle + 5:
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=ctrl_c, daemon=True).start()
try:
    torch.ops.ints.count_to(x, 1 << 40)
    print("returned")
except KeyboardInterrupt:
    print("interrupted")
print("stopped", all(p not in children() for p in kids) and len(kids) == 1)
print("next", torch.ops.ints.iscale(x, 4, False).tolist())
"""


def test_ctrl_c_stops_the_call(target):
    env = dict(os.environ, Q7CC_TORCH_TIMEOUT="3600")
    code = CHILD % {"here": os.path.dirname(os.path.abspath(__file__)), "target": target}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "interrupted", r.stdout + r.stderr
    assert lines[1] == "stopped True", r.stdout
    assert lines[2] == "next [4, 4, 4]", r.stdout
