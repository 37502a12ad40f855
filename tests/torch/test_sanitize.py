"""sanitize=True (docs/runtime.md, q7-run --sanitize): a host library
built with AddressSanitizer and UndefinedBehaviorSanitizer, each call in
a q7-run --sanitize of its own, so Python needs no preload: a heap
overflow and an undefined shift print the sanitizer's report on stderr
and raise one RuntimeError naming the op; the same kernels behaving give
their results, and the next call works. The emulated target refuses it."""
import os

import pytest
import torch

import libs
from q7cc.torch import custom_op

SRC = os.path.join(libs.KERNELS, "..", "..", "runtime", "kernels", "sanitize.cpp")


@pytest.fixture(scope="module")
def ops(target):
    assert target == "host"
    custom_op.load(name="sanitized", compute_srcs=[SRC], sanitize=True, target="host",
                   build_directory=libs.build_directory("sanitized", "host"))
    return torch.ops.sanitized


def x4():
    return torch.tensor([1.0, 2.0, 3.0, 4.0])


def stopped(op):
    return r"^sanitized::%s: a sanitizer stopped the kernel \(its report is above\)$" % op


def test_the_kernels_behaving_give_their_results(ops):
    assert torch.equal(ops.heap_over(x4(), 0), torch.tensor([1.0, 0, 0, 0]))
    assert torch.equal(ops.shift(x4(), 4), torch.tensor([16.0, 0, 0, 0]))


def test_a_heap_overflow_is_asans_report_and_an_error(ops, capfd):
    with pytest.raises(RuntimeError, match=stopped("heap_over")):
        ops.heap_over(x4(), 4)
    err = capfd.readouterr().err
    # -O2 lets UBSan's object-size check see it first
    assert ("ERROR: AddressSanitizer: heap-buffer-overflow" in err or
            "sanitize.cpp:14:14: runtime error: store to address" in err), err
    assert "in heap_over(at::Tensor const&, long)" in err
    assert torch.equal(ops.heap_over(x4(), 0), torch.tensor([1.0, 0, 0, 0]))


def test_an_undefined_shift_is_ubsans_report_and_an_error(ops, capfd):
    with pytest.raises(RuntimeError, match=stopped("shift")):
        ops.shift(x4(), 40)
    assert "runtime error: shift exponent 40 is too large" in capfd.readouterr().err


def test_the_emulated_target_refuses_it():
    with pytest.raises(ValueError, match="sanitize=True runs host kernels"):
        custom_op.load_library(os.path.join(libs.build_directory("sanitized", "host"),
                                            "libsanitized.so"), target="emulated", sanitize=True)
