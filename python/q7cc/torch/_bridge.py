"""The PyTorch bridge, libq7torch.so (python/bridge), through ctypes.

It is loaded privately (RTLD_LOCAL) after torch, so it shares the
process's libtorch and exports nothing to anyone else. Where q7cc's own
files live follows from where this package is: <prefix>/lib/python/q7cc/
torch, both staged in a build (build/stage) and installed."""
import ctypes
import os
import threading
import warnings

import torch

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
PREFIX = os.path.normpath(os.path.join(PACKAGE_DIR, "..", "..", "..", ".."))
BRIDGE = os.path.join(PACKAGE_DIR, "libq7torch.so")
API_VERSION = 2

_lock = threading.Lock()
_lib = None

WARN_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


@WARN_FN
def _warn(message):
    """The runtime's warnings (e.g. a returned tensor that get_dst_tensor()
    overrides), as Python warnings, on the thread of the op's call."""
    warnings.warn(message.decode("utf-8", "replace"), UserWarning, stacklevel=2)


def _torch_major_minor(version):
    return ".".join(version.split("+")[0].split(".")[:2])


def bridge():
    """The loaded bridge (once per process)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        if not os.path.exists(BRIDGE):
            raise RuntimeError(
                "q7cc.torch: %s is missing: q7cc was built without libtorch-dev "
                "(apt-get install libtorch-dev, then build q7cc again)" % BRIDGE)
        lib = ctypes.CDLL(BRIDGE, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        lib.q7t_api_version.restype = ctypes.c_int
        lib.q7t_torch_version.restype = ctypes.c_char_p
        lib.q7t_load.restype = ctypes.c_void_p
        lib.q7t_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                 ctypes.c_uint, ctypes.c_char_p, ctypes.c_int, ctypes.c_double,
                                 ctypes.POINTER(ctypes.c_void_p)]
        lib.q7t_ops.restype = ctypes.c_void_p
        lib.q7t_ops.argtypes = [ctypes.c_void_p]
        lib.q7t_free.argtypes = [ctypes.c_void_p]
        lib.q7t_set_warn.argtypes = [WARN_FN]
        if lib.q7t_api_version() != API_VERSION:
            raise RuntimeError("q7cc.torch: %s speaks API %d, this package %d: a mixed "
                               "installation" % (BRIDGE, lib.q7t_api_version(), API_VERSION))
        built = lib.q7t_torch_version().decode()
        if built != _torch_major_minor(torch.__version__):
            raise RuntimeError(
                "q7cc.torch: the bridge was built against libtorch %s, this process runs torch "
                "%s; build q7cc against this torch's headers" % (built, torch.__version__))
        lib.q7t_set_warn(_warn)
        _lib = lib
        return lib


def _take(lib, ptr):
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib.q7t_free(ptr)


def load(path, shape_path, target, cores, default_ns, isolate=False):
    """Registers path's ops (bridge.h, q7t_load), on the host in this
    process or, with isolate, in a process of its own; Q7CC_TORCH_TIMEOUT
    (seconds) limits each call of an isolated or emulated op (default 60).
    Returns a list of (qualified name, schema, compute function), or
    raises RuntimeError."""
    lib = bridge()
    err = ctypes.c_void_p()
    try:
        timeout = float(os.environ.get("Q7CC_TORCH_TIMEOUT") or 0)
    except ValueError:
        raise ValueError("q7cc.torch: Q7CC_TORCH_TIMEOUT=%r: expected a number of seconds"
                         % os.environ.get("Q7CC_TORCH_TIMEOUT")) from None
    h = lib.q7t_load(os.fsencode(path), os.fsencode(shape_path) if shape_path else None,
                     target.encode(), cores, default_ns.encode(), int(bool(isolate)),
                     max(timeout, 0.0), ctypes.byref(err))
    if not h:
        raise RuntimeError(_take(lib, err) if err.value else "q7cc.torch: loading %s failed" % path)
    text = _take(lib, lib.q7t_ops(h))
    return [tuple(line.split("\t")) for line in text.splitlines() if line]
