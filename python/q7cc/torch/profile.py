"""q7cc.torch.profile: an instruction profile of emulated ops.

    with q7cc.torch.profile("prof.svg"):
        y = torch.ops.my_ops.relu_forward(x)     # target="emulated" ops
        ...

writes one flame graph (or, for a name ending in .folded, folded stacks)
of every call of an emulated op inside the block, with one root per op
name ("my_ops::relu_forward;core0;...") and the calls of one op summed.
Each call runs on a QEMU of its own with its instruction trace (slower,
and exact: docs/profile.md); host ops run as they do outside. Outside the
block nothing changes. One profile at a time per process."""
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

    def __enter__(self):
        lib = _bridge.bridge()
        lib.q7t_profile_start.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        lib.q7t_profile_stop.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        err = ctypes.c_void_p()
        if lib.q7t_profile_start(ctypes.byref(err)) != 0:
            raise RuntimeError(_bridge._take(lib, err))
        return self

    def __exit__(self, *exc):
        lib = _bridge.bridge()
        err = ctypes.c_void_p()
        if lib.q7t_profile_stop(os.fsencode(self.path), ctypes.byref(err)) != 0:
            raise RuntimeError(_bridge._take(lib, err))
        return False
