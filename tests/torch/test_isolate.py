"""Host kernels in a process of their own (load(..., isolate=True)): a
kernel that writes past its input, exits or never returns raises a
RuntimeError naming the op (and, for a guard page, the tensor and the
offset) instead of ending Python; the next call starts a new kernel
process and works; a kernel that forks leaves nothing running; the
image's globals live from call to call, as in-process."""
import os
import time

import pytest
import torch

import libs


@pytest.fixture(scope="module")
def hostile(target):
    assert target == "host"
    os.environ["Q7CC_TORCH_TIMEOUT"] = "2"
    try:
        return libs.load("hostile", "host", isolate=True)
    finally:
        del os.environ["Q7CC_TORCH_TIMEOUT"]


def x4():
    return torch.arange(4, dtype=torch.int32)


def children(pid):
    """The pids of pid's children, from /proc, without the guards (each
    leads the process group of another child, which dies with pid: see
    support/proc.h)."""
    out = []
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/children" % (pid, task)) as f:
            out += [int(p) for p in f.read().split()]
    groups = {os.getpgid(p) for p in out}
    return [p for p in out if not (p in groups and os.getpgid(p) == p and
                                   any(os.getpgid(q) == p for q in out if q != p))]


def test_a_write_past_the_end_names_the_tensor_and_the_offset(hostile):
    with pytest.raises(RuntimeError, match=r"^hostile::scribble: the kernel wrote past the end "
                                           r"of its input argument 1 \(x\), at byte offset 16 "
                                           r"\(it has 16 bytes\); a kernel writes only into its "
                                           r"output and its own allocations \(the caller's "
                                           r"tensor is as it was\)$"):
        torch.ops.hostile.scribble(x4(), 4)
    # a new kernel process for the next call; the input is the caller's, untouched
    x = x4()
    assert torch.equal(torch.ops.hostile.unguard(x), torch.zeros(4, dtype=torch.int32))
    assert torch.equal(x, x4())


def test_a_guard_page_a_kernel_opened_guards_the_next_call(hostile):
    # the same layout: the kernel's process is kept, its guard pages too
    assert torch.equal(torch.ops.hostile.unguard(x4()), torch.zeros(4, dtype=torch.int32))
    with pytest.raises(RuntimeError, match=r"^hostile::scribble: the kernel wrote past the end "
                                           r"of its input argument 1 \(x\), at byte offset 16 "):
        torch.ops.hostile.scribble(x4(), 4)


@pytest.mark.parametrize("status", [0, 3])
def test_exit_fails_the_call(hostile, status):
    with pytest.raises(RuntimeError, match=r"^hostile::leave: the kernel exited with status %d "
                                           r"on core 0" % status):
        torch.ops.hostile.leave(x4(), status)
    assert torch.equal(torch.ops.hostile.unguard(x4()), torch.zeros(4, dtype=torch.int32))


def test_a_kernel_that_never_returns_is_stopped(hostile):
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"^hostile::spin: timed out after 2 s on core 0") as e:
        torch.ops.hostile.spin(x4())
    assert time.monotonic() - t0 < 10
    # the setting a PyTorch user can change, not q7-run's option
    assert "Q7CC_TORCH_TIMEOUT=SECONDS" in str(e.value) and "--timeout" not in str(e.value)


def test_a_kernel_that_forks_leaves_nothing_running(hostile):
    assert torch.equal(torch.ops.hostile.forks(x4()), torch.ones(4, dtype=torch.int32))
    workers = children(os.getpid())
    assert len(workers) == 1, workers  # the kernel's process, waiting for the next call
    assert children(workers[0]) == []  # its fork's child is gone


def test_globals_live_between_calls(hostile):
    first = int(torch.ops.hostile.count(x4())[0])
    assert [int(torch.ops.hostile.count(x4())[0]) for _ in range(3)] == \
        [first + 1, first + 2, first + 3]


def test_in_process_and_isolated_load_once(hostile):
    with pytest.raises(RuntimeError, match=r"already loaded in this process isolated"):
        libs.load("hostile", "host", isolate=False)
