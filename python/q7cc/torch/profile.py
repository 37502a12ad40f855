"""q7cc.torch.profile: an instruction profile of emulated ops.

    with q7cc.torch.profile("prof.svg") as p:    # or .folded; view="raw": as emulated
        y = torch.ops.my_ops.relu_forward(x)     # target="emulated" ops
    print(p.table)

writes one flame graph of every call of an emulated op in the block, a
root per op name, and gives p.ops and p.table, a row per op, in the
device view (docs/profile.md, "From PyTorch")."""
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
