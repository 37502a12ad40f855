"""The MLP of the public customop_mlp sample, as examples/customop_mlp has
it (its my_ops.py and model.py, unchanged but for the import line): its
custom ReLU, a torch.autograd.Function over my_ops::relu_forward and
my_ops::relu_backward, trained for a few steps beside the same model with
torch.relu. Every loss, gradient and weight must be bit-identical."""
import contextlib
import copy
import os
import sys
from unittest import mock

import pytest
import torch

import libs


@pytest.fixture(scope="module")
def model(target):
    """The example's model module, its my_ops.py having loaded librelu.so
    from the build directory (as the sample runs from where it built)."""
    libs.load("relu", target)
    here = os.getcwd()
    os.chdir(libs.build_directory("relu", target))
    sys.path.insert(0, libs.MLP_EXAMPLE)
    try:
        import model
    finally:
        os.chdir(here)
    return model


class TorchRelu:
    apply = staticmethod(torch.relu)


def bits(t):
    return t.detach().contiguous().view(torch.int32)


def test_training_is_bit_identical(target, model):
    torch.manual_seed(7)
    mine = model.MLP()
    ref = copy.deepcopy(mine)
    batch = 32 if target == "host" else 8
    steps = 4 if target == "host" else 3
    opts = [torch.optim.SGD(m.parameters(), lr=0.05) for m in (mine, ref)]
    loss_fn = torch.nn.NLLLoss()
    for step in range(steps):
        x = torch.randn(batch, 28 * 28)
        y = torch.randint(0, 10, (batch,))
        losses = []
        for m, opt in zip((mine, ref), opts):
            opt.zero_grad()
            with mock.patch.object(model.my_ops, "Relu", TorchRelu) if m is ref else \
                    contextlib.nullcontext():
                loss = loss_fn(m(x), y)
                loss.backward()
            losses.append(loss.detach())
        assert torch.equal(bits(losses[0]), bits(losses[1])), "step %d: loss" % step
        for (name, p), q in zip(mine.named_parameters(), ref.parameters()):
            assert p.grad is not None and torch.equal(bits(p.grad), bits(q.grad)), \
                "step %d: the gradient of %s differs" % (step, name)
        for opt in opts:
            opt.step()
    for (name, p), q in zip(mine.named_parameters(), ref.parameters()):
        assert torch.equal(bits(p), bits(q)), "after training: %s differs" % name


def test_forward_and_backward_ops(target, model):
    x = torch.randn(6, 9)
    g = torch.randn(6, 9)
    assert torch.equal(torch.ops.my_ops.relu_forward(x), torch.relu(x))
    assert torch.equal(torch.ops.my_ops.relu_backward(g, x), torch.where(x > 0, g, torch.zeros_like(g)))
    # a non-contiguous input is copied, the result is the same
    xt = torch.randn(9, 6).t()
    assert not xt.is_contiguous()
    assert torch.equal(torch.ops.my_ops.relu_forward(xt), torch.relu(xt))
    # the custom op really ran: its autograd node is the example's
    y = model.my_ops.Relu.apply(torch.randn(3, 3, requires_grad=True))
    assert type(y.grad_fn).__name__ == "ReluBackward"
