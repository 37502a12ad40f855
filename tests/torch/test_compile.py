"""torch 2.x: the ops under torch.compile(fullgraph=True), torch.export
and torch.library.opcheck, on the target. Each op's Meta kernel (its
shape function, or for an op without one the first tensor argument's
sizes and dtype) is its fake kernel: one graph, no break, the op opaque
to Inductor (called, not traced into), the numbers bit-identical to an
eager call. The libraries: relu (the MLP sample's), params (shape
functions with int, float and Scalar arguments, and ones that return an
argument or a view of it), ints (no shape function, int32) and mc (an
8-core op)."""
import pytest
import torch

import libs

if not hasattr(torch, "compile") or not hasattr(torch.library, "opcheck"):
    pytest.fail("torch %s has no torch.compile or torch.library.opcheck: these tests are for "
                "torch 2.4 and later (tests/torch/CMakeLists.txt runs them in a venv)"
                % torch.__version__)


@pytest.fixture(scope="module")
def loaded(target):
    for name in ("relu", "params", "ints", "mc"):
        libs.load(name, target)


def several(x, xi):
    """One op of each kind, and torch's own ops between them."""
    y = torch.ops.my_ops.relu_forward(x - 0.25)
    y = torch.ops.q7_test.affine(y, 3, 0.5, -1.25) * 2
    y = y + torch.ops.q7_test.relu_same(x) + torch.ops.q7_test.relu_flat(x).view(x.shape)
    y = y + torch.ops.mc.relu_tcm(x)
    return y, torch.ops.ints.iscale(xi, 3, True) + 1


class Several(torch.nn.Module):
    def forward(self, x, xi):
        return several(x, xi)


def inputs(rows=16, cols=24):
    torch.manual_seed(3)
    return torch.randn(rows, cols), torch.randint(-50, 50, (rows, cols), dtype=torch.int32)


def same(a, b):
    return all(torch.equal(p, q) and p.dtype == q.dtype for p, q in zip(a, b))


def test_compile_fullgraph_is_eager(loaded):
    x, xi = inputs()
    eager = several(x, xi)
    torch._dynamo.reset()
    compiled = torch.compile(several, fullgraph=True)
    assert same(compiled(x, xi), eager)
    assert same(compiled(x, xi), eager)  # the compiled graph again


def test_compile_dynamic_shapes(loaded):
    # shapes marked dynamic: the shape functions (C++ reading sizes)
    # specialize on them, the ops without one stay symbolic
    torch._dynamo.reset()
    compiled = torch.compile(several, fullgraph=True, dynamic=True, backend="aot_eager")
    for rows, cols in ((4, 6), (5, 7)):
        x, xi = inputs(rows, cols)
        assert same(compiled(x, xi), several(x, xi))


def test_export_captures_the_ops(loaded):
    x, xi = inputs()
    ep = torch.export.export(Several(), (x, xi))
    called = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
    for op in ("my_ops.relu_forward.default", "q7_test.affine.default",
               "q7_test.relu_same.default", "q7_test.relu_flat.default", "mc.relu_tcm.default",
               "ints.iscale.default"):
        assert op in called, "%s not in the exported graph: %s" % (op, sorted(called))
    assert same(ep.module()(x, xi), several(x, xi))


def test_fake_tensor_shapes(loaded):
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode() as mode:
        a = mode.from_tensor(torch.zeros(3))
        b = mode.from_tensor(torch.zeros(5))
        out = torch.ops.q7_test.outer(a, b)
        assert out.shape == (3, 5) and out.dtype == torch.float32
        with pytest.raises(RuntimeError, match="two 1-D tensors"):
            torch.ops.q7_test.outer(mode.from_tensor(torch.zeros(2, 2)), b)


@pytest.mark.parametrize("op, args", [
    ("my_ops.relu_forward", lambda: (torch.randn(4, 5),)),
    ("my_ops.relu_backward", lambda: (torch.randn(4, 5), torch.randn(4, 5))),
    ("q7_test.affine", lambda: (torch.randn(4, 5) * 10, -7, 2.0, 5)),
    ("q7_test.outer", lambda: (torch.randn(3), torch.randn(6))),
    ("q7_test.relu_same", lambda: (torch.randn(4, 5),)),
    ("ints.iscale", lambda: (torch.randint(-9, 9, (4, 5), dtype=torch.int32), 3, False)),
    ("mc.relu_tcm", lambda: (torch.randn(8, 16),)),
])
def test_opcheck(loaded, op, args):
    ns, name = op.split(".")
    result = torch.library.opcheck(getattr(getattr(torch.ops, ns), name).default, args())
    assert set(result.values()) == {"SUCCESS"}, result
