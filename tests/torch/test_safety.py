"""The two rules of docs/runtime.md ("What a kernel may write") through
q7cc.torch, on the host (in-process; isolate=True when Q7_SAFETY_ISOLATE
is set) and on the emulated core: a kernel that writes into its const
input, 16 floats past get_dst_tensor(), 16 floats past a torch::zeros
of its own or 16 floats past its input raises one RuntimeError naming the
op, the argument (the destination, a heap allocation, the input) and the
first byte offset; the caller's
tensor is as it was (its version counter too) and the next call works.
The same kernels keeping the rules give their results."""
import os

import pytest
import torch

import libs

RULE2 = "; a kernel writes only into its output and its own allocations$"


@pytest.fixture(scope="module")
def ops(target):
    isolate = bool(os.environ.get("Q7_SAFETY_ISOLATE"))
    kw = {"isolate": True} if isolate else {}
    libs.load("safety", target, **kw)
    return torch.ops.safety, isolate


def x8():
    return torch.arange(1, 9, dtype=torch.float32)


def test_the_kernels_keeping_the_rules_give_their_results(ops):
    o, _ = ops
    assert torch.equal(o.write_input(x8(), 0), 2 * x8())
    assert torch.equal(o.past_dst(x8(), 0), torch.ones(8))
    assert torch.equal(o.past_zeros(x8(), 0), torch.full((8,), 3.0))


def test_a_write_into_the_input_is_an_error_and_the_input_stays(ops, target):
    o, _ = ops
    x = x8()
    version = x._version
    # the host's read-only copy faults at the byte written (x[1]); the
    # emulated core's compare names the first byte that changed
    at = 4 if target == "host" else 6
    with pytest.raises(RuntimeError, match=r"^safety::write_input: the kernel wrote into its "
                                           r"input argument 1 \(x\), at byte offset %d; a kernel "
                                           r"never changes its inputs \(the caller's tensor is as "
                                           r"it was\)$" % at):
        o.write_input(x, 1)
    assert torch.equal(x, x8())
    assert x._version == version
    assert torch.equal(o.write_input(x, 0), 2 * x8())


def test_a_write_past_the_destination_is_an_error(ops):
    o, _ = ops
    want = (r"^safety::past_dst: the kernel wrote past the end of the destination "
            r"\(get_dst_tensor\(\): 32 bytes\), at byte offset 32" + RULE2)
    x = x8()
    with pytest.raises(RuntimeError, match=want):
        o.past_dst(x, 16)
    assert torch.equal(x, x8())
    assert torch.equal(o.past_dst(x, 0), torch.ones(8))


def test_a_write_past_a_kernels_own_tensor_is_an_error(ops):
    o, _ = ops
    x = x8()
    with pytest.raises(RuntimeError, match=r"^safety::past_zeros: the kernel wrote past the end "
                                           r"of a heap allocation \(32 bytes\), at byte offset 32"
                                           + RULE2):
        o.past_zeros(x, 16)
    assert torch.equal(x, x8())
    assert torch.equal(o.past_zeros(x, 0), torch.full((8,), 3.0))


def test_a_write_past_an_input_is_an_error_and_the_callers_memory_stays(ops):
    """The input a view of the first 8 of 24 floats: on the host, in the
    caller's process, the 16 floats written past it were the rest of the
    caller's tensor, changed without a word (the kernel now runs on a copy
    with a red zone after it; the emulated core puts one after each input)."""
    o, _ = ops
    base = torch.arange(1, 25, dtype=torch.float32)
    x = base[:8]
    want = (r"^safety::past_input: the kernel wrote past the end of its input argument 1 "
            r"\(x\), at byte offset 32 \(it has 32 bytes\); a kernel writes only into its "
            r"output and its own allocations \(the caller's tensor is as it was\)$")
    with pytest.raises(RuntimeError, match=want):
        o.past_input(x, 16)
    assert torch.equal(base, torch.arange(1, 25, dtype=torch.float32))
    assert torch.equal(o.past_input(x, 0), x8())
