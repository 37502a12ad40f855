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

After the block, the profile's .ops holds a row per op, the most
instructions first: (op, calls, instructions, share of the profile's
instructions); .table is the same as text for print(), as in

    op                     calls   instructions   share      per call
    my_ops::affine             1      2,494,461   69.0%     2,494,461
    my_ops::relu_forward       3      1,121,082   31.0%       373,694
    total                      4      3,615,543  100.0%"""
import ctypes
import os

from . import _bridge


class profile:
    def __init__(self, path):
        path = os.fspath(path)
        if not (path.endswith(".svg") or path.endswith(".folded")):
            raise ValueError("q7cc.torch.profile(%r): a profile is written as .svg (a flame "
                             "graph) or .folded (folded stacks)" % path)
        self.path = path
        self.ops = []
        self.table = ""

    def __enter__(self):
        lib = _bridge.bridge()
        lib.q7t_profile_start.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.q7t_profile_stop.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_void_p)]
        err = ctypes.c_void_p()
        if lib.q7t_profile_start(ctypes.byref(err)) != 0:
            raise RuntimeError(_bridge._take(lib, err))
        return self

    def __exit__(self, *exc):
        lib = _bridge.bridge()
        err, ops = ctypes.c_void_p(), ctypes.c_void_p()
        rc = lib.q7t_profile_stop(os.fsencode(self.path), ctypes.byref(ops), ctypes.byref(err))
        rows = _bridge._take(lib, ops) if ops.value else ""
        if rc != 0:
            raise RuntimeError(_bridge._take(lib, err))
        self.ops, self.table = summary(rows)
        return False


def summary(rows):
    """The bridge's "op\tcalls\tinstructions" lines: (the rows, most
    instructions first, with each one's share; the table's text)."""
    ops = []
    for line in rows.splitlines():
        name, calls, n = line.rsplit("\t", 2)
        ops.append([name, int(calls), int(n)])
    total = sum(n for _, _, n in ops)
    ops = [(name, calls, n, n / total if total else 0.0) for name, calls, n in
           sorted(ops, key=lambda r: (-r[2], r[0]))]
    width = max([len("op"), len("total")] + [len(r[0]) for r in ops])
    lines = ["%-*s  %6s  %13s  %6s  %12s" % (width, "op", "calls", "instructions", "share",
                                             "per call")]
    for name, calls, n, share in ops:
        lines.append("%-*s  %6d  %13s  %5.1f%%  %12s" % (width, name, calls, format(n, ","),
                                                        100 * share,
                                                        format(n // calls, ",") if calls else "-"))
    lines.append("%-*s  %6d  %13s  %5.1f%%" % (width, "total", sum(r[1] for r in ops),
                                              format(total, ","), 100.0 if total else 0.0))
    return ops, "\n".join(lines) + "\n"
