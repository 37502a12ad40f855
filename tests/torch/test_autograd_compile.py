"""custom_op.register_backward under torch 2.x (test_autograd.py has the
rest): torch.compile(fullgraph=True) of relu_forward made differentiable
by relu_backward gives eager's gradient bit for bit, and
torch.library.opcheck passes, its autograd registration test included."""
import torch

from test_autograd import bits, grad_of, relu  # noqa: F401 (the fixture)


def test_compiled_and_opcheck(relu):  # noqa: F811
    torch.manual_seed(4)
    x, g = torch.randn(5, 8), torch.randn(5, 8)
    f = torch.compile(lambda t: relu(t) * 2, fullgraph=True)
    _, got = grad_of(f, x, g)
    _, want = grad_of(lambda t: relu(t) * 2, x, g)
    assert torch.equal(bits(got), bits(want))
    torch.library.opcheck(relu.default, (torch.randn(4, 3, requires_grad=True),))
