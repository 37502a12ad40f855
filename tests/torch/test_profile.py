"""q7cc.torch.profile around emulated ops (registered for the emulated
target only): one root per op name, a call's stacks exact (two equal calls
count twice one call's, stack for stack), an 8-core op's cores under its
root, the flame graph written, the op's results unchanged, and nothing
profiled outside the block."""
import pytest
import torch

import q7cc.torch
import libs


@pytest.fixture(scope="module")
def ints(target):
    assert target == "emulated", "profiles come from the emulated core"
    return libs.load("ints", target)


@pytest.fixture(scope="module")
def mc(target):
    return libs.load("mc", target)


def folded(path):
    stacks = {}
    with open(path) as f:
        for line in f:
            stack, n = line.rsplit(" ", 1)
            stacks[stack] = int(n)
    return stacks


X = torch.tensor([[1, -2, 3], [4, 5, 6]], dtype=torch.int32)


def test_one_root_per_op_exact_counts(ints, mc, tmp_path):
    want = torch.ops.ints.iscale(X, 3, False)
    one = tmp_path / "one.folded"
    with q7cc.torch.profile(one):
        got = torch.ops.ints.iscale(X, 3, False)
    assert torch.equal(got, want)
    once = folded(one)
    assert once and all(s.startswith("ints::iscale;core0;") for s in once), list(once)[:3]
    assert any(s.endswith(";iscale") or ";iscale;" in s for s in once)
    two = tmp_path / "two.folded"
    rows = torch.arange(21 * 4, dtype=torch.int32).reshape(21, 4)
    with q7cc.torch.profile(two):
        torch.ops.ints.iscale(X, 3, False)
        torch.ops.mc.which_core(rows)
        torch.ops.ints.iscale(X, 3, False)
    both = folded(two)
    assert {s.split(";")[0] for s in both} == {"ints::iscale", "mc::which_core"}
    twice = {s: n for s, n in both.items() if s.startswith("ints::iscale;")}
    assert twice == {s: 2 * n for s, n in once.items()}
    cores = {s.split(";")[1] for s in both if s.startswith("mc::which_core;")}
    assert cores == {"core%d" % i for i in range(8)}


def test_per_op_table(ints, mc, tmp_path):
    """A step of many calls summed per op: calls, instructions (the folded
    stacks' under the op's root), share, most first."""
    rows = torch.arange(21 * 4, dtype=torch.int32).reshape(21, 4)
    with q7cc.torch.profile(tmp_path / "step.folded") as p:
        for k in (2, 3, 4):
            torch.ops.ints.iscale(X, k, False)
        torch.ops.mc.which_core(rows)
    st = folded(tmp_path / "step.folded")
    n = {op: sum(c for s, c in st.items() if s.startswith(op + ";"))
         for op in ("ints::iscale", "mc::which_core")}
    total = sum(st.values())
    want = sorted([("ints::iscale", 3, n["ints::iscale"]), ("mc::which_core", 1, n["mc::which_core"])],
                  key=lambda r: -r[2])
    assert [r[:3] for r in p.ops] == want
    assert abs(sum(r[3] for r in p.ops) - 1) < 1e-9
    lines = p.table.splitlines()
    assert lines[0].split() == ["op", "calls", "instructions", "share", "per", "call", "raw"]
    for (name, calls, count), line in zip(want, lines[1:]):
        assert line.split()[:4] == [name, str(calls), format(count, ","),
                                    "%.1f%%" % (100.0 * count / total)], line
    raw = sum(r[4] for r in p.ops)
    assert lines[-1].split() == ["total", "4", format(total, ","), "100.0%", format(raw, ",")]


def test_device_and_raw_views(ints, tmp_path):
    """The file in the view asked for; the table's raw column is the raw
    view's sum, its instructions the device view's (a divide helper's call
    one instruction: iquot divides each of X's six elements)."""
    with q7cc.torch.profile(tmp_path / "raw.folded", view="raw") as r:
        got = torch.ops.ints.iquot(X, 3)
    assert torch.equal(got, torch.div(X, 3, rounding_mode="trunc"))
    with q7cc.torch.profile(tmp_path / "dev.folded") as d:
        torch.ops.ints.iquot(X, 3)
    raw, dev = folded(tmp_path / "raw.folded"), folded(tmp_path / "dev.folded")
    assert r.ops[0][4] == d.ops[0][4] == sum(raw.values())
    assert r.ops[0][2] == d.ops[0][2] == sum(dev.values())
    assert sum(dev.values()) < sum(raw.values())
    divs = {s: n for s, n in dev.items() if s.split(";")[-1] == "i32 div"}
    assert sum(divs.values()) == 6 and all(";iquot;" in s for s in divs), list(dev)
    assert any(s.endswith(";__divsi3") for s in raw) and not any("__divsi3" in s for s in dev)
    with pytest.raises(ValueError, match="device"):
        q7cc.torch.profile(tmp_path / "p.folded", view="cycles")


def test_flame_graph(ints, tmp_path):
    svg = tmp_path / "prof.svg"
    with q7cc.torch.profile(svg):
        torch.ops.ints.iscale(X, 5, True)
    text = svg.read_text()
    assert text.startswith("<?xml") and 'data-name="ints::iscale"' in text
    assert 'data-name="core0"' in text and "<script" in text


def test_nothing_profiled_outside(ints, tmp_path):
    empty = tmp_path / "empty.folded"
    with q7cc.torch.profile(empty):
        pass
    assert torch.equal(torch.ops.ints.iscale(X, 2, False), X * 2)
    assert empty.read_text() == ""


def test_one_profile_at_a_time_and_names(ints, tmp_path):
    with pytest.raises(ValueError, match=r"\.svg"):
        q7cc.torch.profile(tmp_path / "p.txt")
    with q7cc.torch.profile(tmp_path / "a.folded"):
        with pytest.raises(RuntimeError, match="already open"):
            with q7cc.torch.profile(tmp_path / "b.folded"):
                pass
        torch.ops.ints.iscale(X, 1, False)
    assert folded(tmp_path / "a.folded")
    assert not (tmp_path / "b.folded").exists()
