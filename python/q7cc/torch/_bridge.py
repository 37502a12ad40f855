"""The PyTorch bridge, libq7torch.so (python/bridge), through ctypes.

It is loaded privately (RTLD_LOCAL) after torch, so it shares the
process's libtorch and exports nothing to anyone else. Where q7cc's own
files live follows from where this package is (_paths.PREFIX)."""
import ctypes
import ctypes.util
import json
import os
import sys
import threading
import warnings

import torch

from .. import _layout
from . import _cache, _paths, _tools

BRIDGE = os.path.join(_paths.PACKAGE_DIR, "libq7torch.so")
API_VERSION = 7

_lock = threading.Lock()
_lib = None
_targets = None

WARN_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


@WARN_FN
def _warn(message):
    """The runtime's warnings (e.g. a returned tensor that get_dst_tensor()
    overrides), as Python warnings, on the thread of the op's call."""
    warnings.warn(message.decode("utf-8", "replace"), UserWarning, stacklevel=2)


def torch_major_minor(version):
    return ".".join(version.split("+")[0].split(".")[:2])


class _Mismatch(Exception):
    """A bridge that is not for this torch."""


def _open(path):
    """path's bridge, checked against this package and this torch;
    _Mismatch when it is for another torch (or cannot load with it)."""
    try:
        lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
    except OSError as e:
        raise _Mismatch(str(e)) from None
    lib.q7t_api_version.restype = ctypes.c_int
    lib.q7t_torch_version.restype = ctypes.c_char_p
    if lib.q7t_api_version() != API_VERSION:
        raise RuntimeError("q7cc.torch: %s speaks API %d, this package %d: a mixed "
                           "installation" % (path, lib.q7t_api_version(), API_VERSION))
    built = lib.q7t_torch_version().decode()
    abi = getattr(lib, "q7t_cxx11_abi", None)
    if built != torch_major_minor(torch.__version__) or \
            (abi is not None and abi() != _paths.cxx11_abi()):
        raise _Mismatch("%s: built against libtorch %s, this process runs torch %s" % (
            path, built, torch.__version__))
    lib.q7t_load.restype = ctypes.c_void_p
    lib.q7t_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                             ctypes.c_uint, ctypes.c_char_p, ctypes.c_int, ctypes.c_double,
                             ctypes.POINTER(ctypes.c_void_p)]
    lib.q7t_targets.restype = ctypes.c_void_p
    lib.q7t_ops.restype = ctypes.c_void_p
    lib.q7t_ops.argtypes = [ctypes.c_void_p]
    lib.q7t_check_uninit.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.q7t_free.argtypes = [ctypes.c_void_p]
    lib.q7t_set_warn.argtypes = [WARN_FN]
    lib.q7t_set_prefix.argtypes = [ctypes.c_char_p]
    lib.q7t_shape_defs.restype = ctypes.c_void_p
    lib.q7t_shape_defs.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.q7t_library.restype = ctypes.c_void_p
    lib.q7t_library.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    return lib


def kit_sources(src):
    """The kit's sources to compile: those its sources.txt names (a kit
    installed over an older one keeps files the new one dropped, which
    would be compiled too), each a plain name of a file there."""
    listed = os.path.join(src, "sources.txt")
    if not os.path.isfile(listed):
        raise RuntimeError("q7cc.torch: %s is missing: the bridge kit does not say what to "
                           "compile (a damaged install?)" % listed)
    with open(listed, encoding="utf-8") as f:
        names = [n.strip() for n in f if n.strip()]
    for n in names:
        if os.path.basename(n) != n or not n.endswith(".cpp") or \
                not os.path.isfile(os.path.join(src, n)):
            raise RuntimeError("q7cc.torch: %s: %r is not a source of the kit (a damaged install?)"
                               % (listed, n))
    return [os.path.join(src, n) for n in names]


def build_bridge():
    """The bridge compiled for this torch (its version and C++ ABI) from
    q7cc's bridge kit, against the headers and libraries this torch has
    (as torch.utils.cpp_extension finds them), cached per torch version;
    built when missing or when its record names another torch or kit."""
    abi = _paths.cxx11_abi()
    kit = os.path.join(_paths.PREFIX, _layout.LIBDIR, "q7cc", "torch-bridge")
    archive = os.path.join(kit, "libq7torchrt.a")
    if not os.path.exists(archive):
        raise RuntimeError("q7cc.torch: %s is missing: no bridge for torch %s (q7cc installed "
                           "without its bridge kit?)" % (archive, torch.__version__))
    d = _cache.private_or_temp(
        os.path.join(_paths.bridges(), "%s-abi%d" % (torch.__version__, abi)), "q7cc-bridge-")
    out = os.path.join(d, "libq7torch.so")
    src = os.path.join(kit, "src")
    incs, libdir = _tools.torch_paths()
    cxx = _tools.host_cxx()
    elf = ctypes.util.find_library("elf")
    if not elf:
        raise RuntimeError("q7cc.torch: libelf not found (apt-get install libelf1): the bridge "
                           "needs it")
    cmd = cxx + [_tools.cxx_standard(), "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
                 "-fvisibility-inlines-hidden", "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi,
                 "-I" + src, "-I" + os.path.join(kit, "include"),
                 "-I" + os.path.join(_paths.PREFIX, _layout.INCLUDEDIR, "q7cc-torch")] + \
        ["-isystem" + p for p in incs] + \
        kit_sources(src) + [archive,
         "-L" + libdir, "-Wl,-rpath," + libdir, "-ltorch_cpu", "-lc10", "-l:" + elf,
         "-lpthread", "-ldl", "-lm", "-Wl,--version-script=" + os.path.join(src, "bridge.map"),
         "-Wl,--no-undefined", "-o", out]
    kit_files = sorted(os.path.join(r, f) for r, _, fs in os.walk(kit) for f in fs)
    key = _tools.digest(cmd, _tools.tool_hash(cxx[0]),
                        [_tools.file_hash(p) for p in kit_files])
    record = out + ".json"
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    with _tools.locked(os.path.join(d, "lock"), d, log):
        if cached_bridge(out, record, key):
            return out
        log("q7cc.torch: no prebuilt bridge for torch %s (C++ ABI %d): building one in %s, "
            "once (about a minute)" % (torch.__version__, abi, d))
        tmp = "%s.%d.tmp" % (out, os.getpid())
        try:
            _tools.run_command("building the q7cc.torch bridge", cmd, {out: tmp}, False, log)
        except _tools.BuildError as e:
            raise _tools.BuildError(
                "q7cc.torch: torch %s (C++ ABI %d) is not one q7cc can serve (docs/torch.md lists "
                "the versions run): building its bridge" % (torch.__version__, abi),
                e.command, e.output) from None
        os.replace(tmp, out)
        _cache.write_entry(record, json.dumps({"torch": torch.__version__, "abi": abi,
                                               "key": key, "sha256": _cache.file_sum(out)}).encode())
    return out


def cached_bridge(out, record, key):
    """The bridge at out is the one record names, for this torch and key:
    the record whole (its checksum), the library a regular file of the
    user's whose sha256 is the record's."""
    try:
        rec = json.loads(_cache.read_entry(record, 1 << 16) or b"{}")
    except ValueError:
        return False
    return isinstance(rec, dict) and rec.get("torch") == torch.__version__ and \
        rec.get("key") == key and rec.get("sha256") is not None and \
        rec.get("sha256") == _cache.file_sum(out)


def _loaded_libtorch():
    """The real paths of the libtorch_cpu libraries this process has
    mapped (torch's own: imported before this module)."""
    found = set()
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split(None, 5)
            path = fields[5].strip() if len(fields) == 6 else ""
            if os.path.basename(path).startswith("libtorch_cpu.so"):
                found.add(os.path.realpath(path))
    return found


def _prebuilt_fits():
    """Whether the prebuilt bridge is linked to this process's libtorch
    (_layout.BRIDGE_LIBTORCH): opening it beside another torch (a venv's)
    would load a second libtorch, which ends the process."""
    return bool(_layout.BRIDGE_LIBTORCH) and _loaded_libtorch() == {_layout.BRIDGE_LIBTORCH}


def bridge():
    """The loaded bridge (once per process): the prebuilt one when it is
    linked to this process's libtorch, else one built for it (build_bridge).
    Q7CC_TORCH_BRIDGE=build skips the prebuilt one."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        lib = None
        if os.environ.get("Q7CC_TORCH_BRIDGE") != "build" and os.path.exists(BRIDGE) and \
                _prebuilt_fits():
            try:
                lib = _open(BRIDGE)
            except _Mismatch:
                lib = None
        if lib is None:
            path = build_bridge()
            try:
                lib = _open(path)
            except _Mismatch as e:
                raise RuntimeError("q7cc.torch: the bridge built for this torch does not "
                                   "load: %s" % e) from None
        lib.q7t_set_warn(_warn)
        lib.q7t_set_prefix(os.fsencode(_paths.PREFIX))
        _lib = lib
        return lib


def _take(lib, ptr):
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib.q7t_free(ptr)


class Target:
    """A run target, a line of bridge.h's q7t_targets."""

    def __init__(self, name, machine, profile, can):
        self.name, self.machine, self.profile = name, int(machine), profile
        self.can = frozenset(can.split(",")) if can else frozenset()


def targets():
    """The run targets (bridge.h, q7t_targets), the default first, by name."""
    global _targets
    if _targets is None:
        lib = bridge()
        rows = [Target(*line.split("\t")) for line in _take(lib, lib.q7t_targets()).splitlines()]
        _targets = {t.name: t for t in rows}
    return _targets


def library(path):
    """What path is, as the run engine reads it: bridge.h's q7t_library's
    "images", each a dict; its error as a RuntimeError."""
    lib = bridge()
    err = ctypes.c_void_p()
    text = lib.q7t_library(os.fsencode(path), ctypes.byref(err))
    if not text:
        raise RuntimeError(_take(lib, err) if err.value else "q7cc.torch: reading %s failed" % path)
    return json.loads(_take(lib, text))["images"]


def load(path, shape_path, target, cores, default_ns, isolate=False, sanitize=False,
         check_uninit=False):
    """Registers path's ops (bridge.h, q7t_load; q7t_check_uninit);
    Q7CC_TORCH_TIMEOUT (seconds) limits each call of an isolated or
    emulated op (default 60). Returns a list of (qualified name, schema,
    compute function), or raises RuntimeError."""
    lib = bridge()
    err = ctypes.c_void_p()
    try:
        timeout = float(os.environ.get("Q7CC_TORCH_TIMEOUT") or 0)
    except ValueError:
        raise ValueError("q7cc.torch: Q7CC_TORCH_TIMEOUT=%r: expected a number of seconds"
                         % os.environ.get("Q7CC_TORCH_TIMEOUT")) from None
    h = lib.q7t_load(os.fsencode(path), os.fsencode(shape_path) if shape_path else None,
                     target.encode(), cores, default_ns.encode(),
                     2 if sanitize else int(bool(isolate)),
                     max(timeout, 0.0), ctypes.byref(err))
    if not h:
        raise RuntimeError(_take(lib, err) if err.value else "q7cc.torch: loading %s failed" % path)
    lib.q7t_check_uninit(h, int(bool(check_uninit)))
    text = _take(lib, lib.q7t_ops(h))
    return [tuple(line.split("\t")) for line in text.splitlines() if line]
