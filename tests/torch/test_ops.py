"""Ops of every kind through torch.ops on the target: int64_t, double and
Scalar parameters; a shape function whose output shape is no input's; an
int32 kernel; an 8-core op; the device's destination rule; kernel errors
that the runtime detects, as RuntimeError naming the op; meta tensors
(the Meta kernel)."""
import os
import subprocess
import sys
import warnings

import pytest
import torch

import libs


def schema(qualname):
    return str(torch._C._jit_get_schemas_for_operator(qualname)[0])


@pytest.fixture(scope="module")
def params(target):
    return libs.load("params", target)


@pytest.fixture(scope="module")
def ints(target):
    return libs.load("ints", target)


@pytest.fixture(scope="module")
def mc(target):
    return libs.load("mc", target)


def test_int64_double_scalar(params):
    assert schema("q7_test::affine") == \
        "q7_test::affine(Tensor x, int offset, float scale, Scalar floor) -> Tensor"
    torch.manual_seed(1)
    x = torch.randn(5, 7) * 10
    for offset, scale, floor in ((3, 0.5, -1.25), (-7, 2.0, 5), (1 << 40, 1e-3, False),
                                 (0, -3.5, -2 ** 60)):
        got = torch.ops.q7_test.affine(x, offset, scale, floor)
        want = torch.clamp(x.double() * scale + offset, min=float(floor)).float()
        assert got.dtype == torch.float32 and got.shape == x.shape
        assert torch.equal(got, want), (offset, scale, floor)
    with pytest.raises(RuntimeError):
        torch.ops.q7_test.affine(x, 1.5, 2.0, 0)  # not an int


def test_output_shape_from_the_shape_function(params):
    assert schema("q7_test::outer") == "q7_test::outer(Tensor a, Tensor b) -> Tensor"
    a = torch.randn(5)
    b = torch.randn(7)
    got = torch.ops.q7_test.outer(a, b)
    assert got.shape == (5, 7)
    assert torch.equal(got, a[:, None] * b[None, :] + torch.arange(7, dtype=torch.float32))
    with pytest.raises(RuntimeError, match="outer: two 1-D tensors, not 2-D and 1-D"):
        torch.ops.q7_test.outer(torch.zeros(2, 2), b)


def test_an_op_never_writes_into_its_arguments(params):
    """Shape functions that return an argument (return t_in;), or a view
    of one: the op's output is a fresh tensor, the argument unchanged."""
    torch.manual_seed(5)
    x = torch.randn(4, 5)
    before, version = x.clone(), x._version
    y = torch.ops.q7_test.relu_same(x)
    assert torch.equal(y, torch.relu(before)) and torch.equal(x, before)
    assert x._version == version and y.storage().data_ptr() != x.storage().data_ptr()
    flat = torch.ops.q7_test.relu_flat(x)
    assert flat.shape == (20,) and torch.equal(flat, torch.relu(before).view(-1))
    assert torch.equal(x, before)
    g = torch.randn(4, 5)
    g0 = g.clone()
    dx = torch.ops.q7_test.relu_grad_same(g, x)
    assert torch.equal(dx, torch.where(x > 0, g0, torch.zeros_like(g0))) and torch.equal(g, g0)
    # a residual block: h + relu(h), not 2 * relu(h)
    h = torch.randn(3, 7)
    assert torch.equal(h + torch.ops.q7_test.relu_same(h), h + torch.relu(h))


def same_relu_forward(ctx, x):
    ctx.save_for_backward(x)
    return torch.ops.q7_test.relu_same(x)


def same_relu_backward(ctx, grad):
    return torch.ops.q7_test.relu_grad_same(grad.contiguous(), *ctx.saved_tensors)


# ReLU through the ops whose shape functions return an argument.
SameRelu = type("SameRelu", (torch.autograd.Function,), {
    "forward": staticmethod(same_relu_forward), "backward": staticmethod(same_relu_backward)})


def test_a_training_step_through_argument_shaped_ops(params):
    """Gradients bit for bit torch.relu's, through a residual block."""
    def step(relu):
        torch.manual_seed(11)
        lin1, lin2 = torch.nn.Linear(6, 8), torch.nn.Linear(8, 3)
        x, target = torch.randn(16, 6), torch.randint(0, 3, (16,))
        h = lin1(x)
        h = h + relu(h)
        loss = torch.nn.functional.cross_entropy(lin2(h), target)
        loss.backward()
        return [loss.detach()] + [p.grad for p in (*lin1.parameters(), *lin2.parameters())]

    mine, ref = step(SameRelu.apply), step(torch.relu)
    for a, b in zip(mine, ref):
        assert torch.equal(a.view(torch.int32), b.view(torch.int32))


def test_zero_size_tensors(ints, mc):
    """Empty tensors on one core and on eight."""
    empty = torch.ops.ints.iscale(torch.empty(0, dtype=torch.int32), 3, False)
    assert empty.shape == (0,) and empty.dtype == torch.int32
    for shape in ((0,), (0, 16)):
        y = torch.ops.mc.relu_tcm(torch.empty(shape))
        assert y.shape == shape and y.dtype == torch.float32


ZERO_SIZE_CHILD = """
import sys, torch
sys.path.insert(0, sys.argv[1])
import libs
libs.load("ints", sys.argv[2]); libs.load("mc", sys.argv[2])
torch.ops.ints.iscale(torch.empty(0, dtype=torch.int32), 3, False)
for shape in ((0,), (0, 16)):
    torch.ops.mc.relu_tcm(torch.empty(shape))
"""


def test_zero_size_outputs_leave_the_process_whole(target):
    """A process that made zero-size outputs exits cleanly: the runtime's
    red zone after an output of no elements once overran the bridge's
    stand-in for its data and a static beside it, and Python died with
    SIGSEGV at exit."""
    r = subprocess.run([sys.executable, "-c", ZERO_SIZE_CHILD, os.path.dirname(libs.__file__),
                        target], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]


def test_int32_kernel(ints):
    assert schema("ints::iscale") == "ints::iscale(Tensor x, int k, bool negate) -> Tensor"
    x = torch.tensor([[1, -2, 3], [2 ** 30, -(2 ** 31), 7]], dtype=torch.int32)
    got = torch.ops.ints.iscale(x, 3, False)
    assert got.dtype == torch.int32 and torch.equal(got, x * 3)
    assert torch.equal(torch.ops.ints.iscale(x, 5, True), -(x * 5))
    xt = x.t()  # not contiguous: copied
    assert torch.equal(torch.ops.ints.iscale(xt, 2, False), xt * 2)


def test_outputs_are_ordinary_tensors(ints):
    """An output without a shape function comes from the bridge's own
    allocator (malloc for small ones, c10's for big ones): aligned to 64
    bytes as c10's, resizable, and freed (no growth over many calls)."""
    for n in (1, 5, 1000, 20000, 60000):
        y = torch.ops.ints.iscale(torch.arange(n, dtype=torch.int32), 2, False)
        assert y.data_ptr() % 64 == 0, (n, y.data_ptr())
        assert torch.equal(y, torch.arange(n, dtype=torch.int32) * 2)
    y = torch.ops.ints.iscale(torch.arange(8, dtype=torch.int32), 1, False)
    y.resize_(50000)  # past the small blocks: a new block from c10's allocator
    assert torch.equal(y[:8], torch.arange(8, dtype=torch.int32))
    y.resize_(4)
    assert torch.equal(y, torch.arange(4, dtype=torch.int32))

    def rss_kib():
        with open("/proc/self/status") as f:
            return int(next(line for line in f if line.startswith("VmRSS:")).split()[1])
    x = torch.arange(4096, dtype=torch.int32)
    for _ in range(200):
        torch.ops.ints.iscale(x, 1, False)
    before = rss_kib()
    for _ in range(5000):  # 80 MB if each output stayed
        torch.ops.ints.iscale(x, 1, False)
    assert rss_kib() - before < 8 * 1024


def test_eight_cores(mc):
    torch.manual_seed(3)
    x = torch.randn(3000)
    assert torch.equal(torch.ops.mc.relu_tcm(x), torch.relu(x))
    rows = torch.arange(21 * 4, dtype=torch.int32).reshape(21, 4)
    got = torch.ops.mc.which_core(rows)
    core = torch.arange(21, dtype=torch.int32)[:, None] % 8
    assert torch.equal(got, rows + 1000 * (core + 1))


def test_returned_tensor_is_ignored_with_one_warning(mc):
    x = torch.randn(40)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = torch.ops.mc.twice_other(x)
        again = torch.ops.mc.twice_other(x)
    assert torch.equal(got, 2 * x) and torch.equal(again, 2 * x)
    said = [str(m.message) for m in w if "get_dst_tensor" in str(m.message)]
    assert len(said) == 1, said
    assert said[0].startswith("mc::twice_other: ") and "on several cores; it is ignored" in said[0]


def test_each_core_keeps_its_own_globals(mc):
    """Each core counts its calls in a global of its image: its own copy,
    kept from call to call, on every target, as on the device."""
    x = torch.zeros(8, dtype=torch.int32)
    first = torch.ops.mc.calls_per_core(x)
    second = torch.ops.mc.calls_per_core(x)
    assert torch.equal(first, torch.ones(8, dtype=torch.int32)), first
    assert torch.equal(second, torch.full((8,), 2, dtype=torch.int32)), second


def test_kernel_errors_are_runtime_errors(ints):
    with pytest.raises(RuntimeError, match=r"^ints::rows_only: .*ints\.cpp:\d+: "
                                           r"expected x\.dim\(\) == 2: rows_only wants a 2-D"):
        torch.ops.ints.rows_only(torch.zeros(3))
    with pytest.raises(RuntimeError, match=r"^ints::as_float: accessor: argument 1 \(x\): tensor is int32, not float32"):
        torch.ops.ints.as_float(torch.zeros(3, dtype=torch.int32))
    with pytest.raises(RuntimeError, match=r"^ints::as_float: accessor<1>: tensor has 2 dims"):
        torch.ops.ints.as_float(torch.zeros(3, 3))
    with pytest.raises(RuntimeError, match=r"^ints::past_end: tensor_to_tcm: elements \[6, 10\) "
                                           r"are outside the tensor's 8"):
        torch.ops.ints.past_end(torch.zeros(8))
    with pytest.raises(RuntimeError, match=r"^ints::past_row: accessor: index 3 is out of "
                                           r"bounds for dimension 0 with size 3"):
        torch.ops.ints.past_row(torch.zeros(3, 2))
    with pytest.raises(RuntimeError, match=r"^ints::iscale: argument 1 is ComplexFloat"):
        torch.ops.ints.iscale(torch.zeros(2, dtype=torch.complex64), 1, False)
    # the process and the library are fine afterwards
    assert torch.equal(torch.ops.ints.as_float(torch.ones(3)), torch.full((3,), 2.0))


def test_calls_from_several_threads(ints, target):
    """Calls take turns in the engine: each thread gets its own numbers."""
    import concurrent.futures
    n = 40 if target == "host" else 4
    xs = [torch.arange(i, i + 50, dtype=torch.int32) for i in range(8)]

    def work(i):
        return all(torch.equal(torch.ops.ints.iscale(xs[i], i + 2, False), xs[i] * (i + 2))
                   for _ in range(n))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        assert all(pool.map(work, range(8)))


def test_a_forked_child(ints, target):
    """A forked child (a DataLoader worker) runs ops itself: on the
    emulated target with a core of its own, started at its first call;
    the parent's session goes on untouched."""
    import os
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            y = torch.ops.ints.iscale(torch.ones(3, dtype=torch.int32), 2, False)
            msg = "ok %d" % int(y.sum())
        except RuntimeError as e:
            msg = "error " + str(e)
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        msg = f.read()
    os.waitpid(pid, 0)
    assert msg == "ok 6", msg
    # the parent's own calls go on
    assert torch.equal(torch.ops.ints.iscale(torch.ones(2, dtype=torch.int32), 3, False),
                       torch.full((2,), 3, dtype=torch.int32))


def test_forked_children_calling_at_once(ints, target):
    """Forked children (DataLoader workers) calling an op at the same time,
    each with its own inputs, in a tight loop: every output is the child's
    own, none its parent's or a sibling's (each child's call memory is its
    own, docs/torch.md)."""
    torch.ops.ints.iscale(torch.ones(64, dtype=torch.int32), 1, False)  # the parent's memory
    calls = 3000 if target == "host" else 20
    r, w = os.pipe()
    pids = []
    for child in range(3):
        pid = os.fork()
        if pid == 0:
            os.close(r)
            msg = "ok"
            try:
                for i in range(calls):
                    x = torch.full((64,), child * 100000 + i, dtype=torch.int32)
                    y = torch.ops.ints.iscale(x, 3, False)
                    if not torch.equal(y, x * 3):
                        msg = "child %d, call %d: %d, not %d" % (child, i, int(y[0]), int(x[0]) * 3)
                        break
            except RuntimeError as e:
                msg = "error " + str(e)
            os.write(w, (msg + "\n").encode())
            os._exit(0)
        pids.append(pid)
    os.close(w)
    with os.fdopen(r) as f:
        msgs = f.read().splitlines()
    for pid in pids:
        os.waitpid(pid, 0)
    assert msgs == ["ok"] * 3, msgs
    assert torch.equal(torch.ops.ints.iscale(torch.ones(2, dtype=torch.int32), 3, False),
                       torch.full((2,), 3, dtype=torch.int32))


UNCHECKED_CHILD = r"""
import os, sys, torch
sys.path.insert(0, %(here)r)
import libs
libs.load("safety", %(target)r)


def call():
    try:
        y = torch.ops.safety.write_input(torch.arange(1, 9, dtype=torch.float32), 1)
        return "ok %%d" %% int(y.sum())
    except RuntimeError as e:
        return "error " + str(e)


print("parent", call(), flush=True)
pid = os.fork()
if pid == 0:
    print("child", call(), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
"""


def test_a_forked_child_keeps_q7cc_unchecked(target):
    """A forked child's calls have the parent's settings: with
    Q7CC_UNCHECKED=inputs (docs/runtime.md) a kernel that writes into its
    input is no error in the parent nor in the child (whose emulated
    session is its own)."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = UNCHECKED_CHILD % {"here": here, "target": target}
    env = dict(os.environ, Q7CC_UNCHECKED="inputs")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.stdout == "parent ok 72\nchild ok 72\n", r.stdout + r.stderr


class Scaled(torch.utils.data.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.ops.ints.iscale(torch.full((3,), i, dtype=torch.int32), 5, False)


def test_dataloader_workers(ints):
    """DataLoader's default workers (fork on Linux) call the op."""
    torch.ops.ints.iscale(torch.ones(1, dtype=torch.int32), 1, False)  # the parent's core runs
    loader = torch.utils.data.DataLoader(Scaled(), batch_size=2, num_workers=2)
    got = torch.cat(list(loader))
    want = (torch.arange(6, dtype=torch.int32) * 5)[:, None].expand(6, 3)
    assert torch.equal(got, want)
    assert torch.equal(torch.ops.ints.iscale(torch.ones(2, dtype=torch.int32), 3, False),
                       torch.full((2,), 3, dtype=torch.int32))


def test_requires_grad_without_autograd_warns_once_per_op(params):
    x = torch.randn(4, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with torch.no_grad():  # no grad wanted: nothing to say
            torch.ops.q7_test.outer(x, x)
        y = torch.ops.q7_test.affine(x, 1, 2.0, 0)
        torch.ops.q7_test.affine(x, 1, 2.0, 0)
        torch.ops.q7_test.outer(x, x)
    said = [str(m.message) for m in w if "requires grad" in str(m.message)]
    assert len(said) == 2, said
    assert said[0].startswith("q7_test::affine: an input requires grad, but the op has no "
                              "autograd formula: backward() does not reach the inputs"), said
    assert said[1].startswith("q7_test::outer: "), said
    assert w[0].category is UserWarning
    # torch 1.x: the output does not require grad; 2.x: its fallback's
    # backward warns and gives the input no gradient
    if y.requires_grad:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            y.sum().backward()
    assert x.grad is None


def test_meta_tensors_give_the_output_without_running(params, ints):
    # the Meta kernel (torch.compile's fake kernel): the shape function's
    # sizes and dtype, or an op without one like its first tensor argument
    meta = {"device": "meta"}
    y = torch.ops.q7_test.affine(torch.empty(3, 4, **meta), 1, 2.0, 0)
    assert (y.device.type, y.shape, y.dtype) == ("meta", (3, 4), torch.float32)
    assert torch.ops.q7_test.outer(torch.empty(3, **meta), torch.empty(5, **meta)).shape == (3, 5)
    with pytest.raises(RuntimeError, match="two 1-D tensors"):
        torch.ops.q7_test.outer(torch.empty(2, 2, **meta), torch.empty(5, **meta))
    i = torch.ops.ints.iscale(torch.empty(2, 7, dtype=torch.int32, **meta), 3, False)
    assert (i.device.type, i.shape, i.dtype) == ("meta", (2, 7), torch.int32)
