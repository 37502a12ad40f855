"""q7cc.torch.profile: an instruction profile of emulated ops.

    with q7cc.torch.profile("prof.svg"):
        y = torch.ops.my_ops.relu_forward(x)     # target="emulated" ops
        ...

writes one flame graph (or, for a name ending in .folded, folded stacks)
of every call of an emulated op inside the block, with one root per op
name ("my_ops::relu_forward;core0;...") and the calls of one op summed.
Each call runs on a QEMU of its own with its instruction trace (slower,
and exact: docs/profile.md); host ops run as they do outside. Outside the
block nothing changes. One profile at a time per process.

The profile is in the device's terms by default (view="device": each
call of a soft-float or divide helper counts as the one instruction it is
on a core with the unit, in a frame named after the operation, "f32 mul";
docs/profile.md); view="raw" writes it as the emulated core counted.

After the block, the profile's .ops holds a row per op, the most
instructions first: (op, calls, instructions, share of the profile's
instructions, raw instructions), instructions in the device view; .table
is the same as text for print(), with both totals, as in

    op                     calls   instructions   share      per call            raw
    my_ops::relu_forward       3      1,040,370   50.9%       346,790      1,132,542
    my_ops::affine             1      1,002,240   49.1%     1,002,240      2,163,035
    total                      4      2,042,610  100.0%                    3,295,577"""
import ctypes
import os

from . import _bridge


class profile:
    def __init__(self, path, view="device"):
        path = os.fspath(path)
        if view not in ("device", "raw"):
            raise ValueError("q7cc.torch.profile(view=%r): expected view=\"device\" (a float or "
                             "divide helper's call one instruction) or view=\"raw\" (as "
                             "emulated)" % (view,))
        self.view = view
        if not (path.endswith(".svg") or path.endswith(".folded")):
            raise ValueError("q7cc.torch.profile(%r): a profile is written as .svg (a flame "
                             "graph) or .folded (folded stacks)" % path)
        self.path = path
        self.ops = []
        self.table = ""

    def __enter__(self):
        lib = _bridge.bridge()
        lib.q7t_profile_start.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.q7t_profile_stop.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_void_p)]
        err = ctypes.c_void_p()
        if lib.q7t_profile_start(ctypes.byref(err)) != 0:
            raise RuntimeError(_bridge._take(lib, err))
        return self

    def __exit__(self, *exc):
        lib = _bridge.bridge()
        err, ops = ctypes.c_void_p(), ctypes.c_void_p()
        rc = lib.q7t_profile_stop(os.fsencode(self.path), int(self.view == "raw"),
                                  ctypes.byref(ops), ctypes.byref(err))
        rows = _bridge._take(lib, ops) if ops.value else ""
        if rc != 0:
            raise RuntimeError(_bridge._take(lib, err))
        self.ops, self.table = summary(rows)
        return False


def summary(rows):
    """The bridge's "op\tcalls\tdevice\traw" lines: (the rows, most
    instructions first, with each one's share; the table's text)."""
    ops = []
    for line in rows.splitlines():
        name, calls, n, raw = line.rsplit("\t", 3)
        ops.append([name, int(calls), int(n), int(raw)])
    total = sum(r[2] for r in ops)
    ops = [(name, calls, n, n / total if total else 0.0, raw) for name, calls, n, raw in
           sorted(ops, key=lambda r: (-r[2], r[0]))]
    width = max([len("op"), len("total")] + [len(r[0]) for r in ops])
    lines = ["%-*s  %6s  %13s  %6s  %12s  %13s" % (width, "op", "calls", "instructions", "share",
                                                   "per call", "raw")]
    for name, calls, n, share, raw in ops:
        lines.append("%-*s  %6d  %13s  %5.1f%%  %12s  %13s" % (
            width, name, calls, format(n, ","), 100 * share,
            format(n // calls, ",") if calls else "-", format(raw, ",")))
    lines.append("%-*s  %6d  %13s  %5.1f%%  %12s  %13s" % (
        width, "total", sum(r[1] for r in ops), format(total, ","), 100.0 if total else 0.0, "",
        format(sum(r[4] for r in ops), ",")))
    return ops, "\n".join(lines) + "\n"
