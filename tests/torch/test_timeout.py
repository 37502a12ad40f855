"""The emulated call's time limit grows with the bytes of its tensors
(Q7CC_TORCH_TIMEOUT, or 60 s, and a second per 4 MiB): a kernel that never
returns is stopped at the grown limit, not before it (a timer does not fire
early), the message giving both shares and the setting to raise; and an
integer scale over 64 MiB (a few instructions an element: a ReLU's
soft-float compare took 3.2 MiB/s at load average 10, under the 4 MiB/s
the limit grows by) under a 0.2 s base limit finishes with the right numbers
(before, such calls were stopped at the base limit, as a 768 MiB call took
84 s against the 60 s default; whether this one would have been depends on
the machine, so the stopped kernel is what shows the growth). In a process
of its own, since the limit is read at load."""
import os
import subprocess
import sys

CHILD = r"""
import sys, time, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("ints", "emulated")
x = torch.randint(-1000, 1000, (64 << 10, 256), dtype=torch.int32)  # 64 MiB
y = torch.ops.ints.iscale(x, 3, False)
print("scale", torch.equal(y, x * 3), flush=True)
t0 = time.monotonic()
x = torch.ones(2 << 20, dtype=torch.int32)  # 8 MiB, and 8 of output
try:
    torch.ops.ints.count_to(x, 1 << 40)
except RuntimeError as e:
    print("stopped %%.2f %%s" %% (time.monotonic() - t0, e), flush=True)
"""


def test_the_limit_grows_with_the_calls_bytes(target):
    assert target == "emulated"
    env = dict(os.environ, Q7CC_TORCH_TIMEOUT="0.2")
    code = CHILD % {"here": os.path.dirname(os.path.abspath(__file__))}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    scale, stopped = r.stdout.splitlines()
    assert scale == "scale True", scale
    took, message = stopped.split(" ", 2)[1:]
    # 0.2 s and 4 s for 16 MiB; the upper bound only detects a hang
    assert 4.0 < float(took) < 60, stopped
    assert message.startswith("ints::count_to: "), message
    assert "count_to: timed out after 4.2 s: 0.2 s and 4 s for its 16 MiB of tensors" \
        in message, message
    assert "Q7CC_TORCH_TIMEOUT=SECONDS (at load) sets the limit" in message, message
    # The figure that doubles the limit, its tensors' share kept: 8.4 s.
    assert "(one that needs longer: Q7CC_TORCH_TIMEOUT=4.4 gives this call twice the time)" \
        in message, message
