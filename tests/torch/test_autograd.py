"""custom_op.register_backward: the sample's relu_forward made
differentiable by its relu_backward kernel, with no autograd.Function
(docs/torch.md, "Backward kernels"): the gradient is bit-identical to
torch.relu's, no "no autograd formula" warning, a backward of the wrong
arity is refused by name (torch 1.13 and 2.x; test_autograd_compile.py:
torch.compile and opcheck, 2.x only)."""
import warnings

import pytest
import torch

import libs
from q7cc.torch import custom_op


@pytest.fixture(scope="module")
def relu(target):
    """relu_forward, its backward registered (once per process)."""
    libs.load("relu", target)
    with pytest.raises(ValueError, match="my_ops::relu_forward takes 1 arguments; a backward of "
                                         "my_ops::relu_backward takes 3"):
        custom_op.register_backward("my_ops::relu_backward", "my_ops::relu_forward")
    custom_op.register_backward(torch.ops.my_ops.relu_forward, "my_ops::relu_backward")
    return torch.ops.my_ops.relu_forward


def bits(t):
    return t.detach().contiguous().view(torch.int32)


def grad_of(f, x, g):
    x = x.detach().clone().requires_grad_(True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = f(x)
        (y * g).sum().backward()
    said = [str(m.message) for m in w if "autograd formula" in str(m.message)]
    assert not said, said
    return y, x.grad


def test_the_backward_kernel_gives_relus_gradient(relu):
    torch.manual_seed(3)
    x, g = torch.randn(6, 9), torch.randn(6, 9)
    y, got = grad_of(relu, x, g)
    want_y, want = grad_of(torch.relu, x, g)
    assert torch.equal(bits(y), bits(want_y))
    assert torch.equal(bits(got), bits(want))
    assert relu(x.requires_grad_(True)).grad_fn is not None
    with torch.no_grad():
        assert relu(x).grad_fn is None
