"""custom_op.load()'s build: the compute sources with q7cc (the profile
of the target's row, run/target.h through _bridge.targets(); --q7-multicore
for a multicore library) into lib<name>.so, the shape sources with the
host's C++ compiler against the real libtorch into lib<name>.shape.so,
both in the build directory. What is built again and why, the shared
cache of shape objects and the locks between processes: docs/torch.md,
"The API". The compiler's diagnostics go into the BuildError raised on
failure."""
import concurrent.futures
import ctypes
import hashlib
import json
import os
import re
import shlex
import subprocess

import torch

from . import _bridge, _cache, _paths, _pch, _progress
from ._tools import (BuildError, cxx_standard, digest, file_hash, host_cxx, locked, run_command,
                     tool_hash, torch_paths, write_whole)
from .. import _layout

STATE_DIR = ".q7cc"
# A larger shape-object entry is a miss (one is a few MiB).
SHAPE_OBJECT_LIMIT = 256 << 20


# ---- what the tools are -------------------------------------------------

def q7cc_path():
    p = os.environ.get("Q7CC") or os.path.join(_paths.PREFIX, _layout.BINDIR, "q7cc")
    if not os.path.exists(p):
        raise RuntimeError("q7cc.torch: q7cc not found at %s (set Q7CC to its path)" % p)
    return p


def q7cc_identity(q7cc, profile):
    """q7cc itself: its executable and the runtime its links put in."""
    d = hashlib.sha256(file_hash(q7cc).encode())
    bindir = os.path.dirname(os.path.realpath(q7cc))
    prefix = os.path.normpath(os.path.join(bindir, *[".."] * len(_layout.BINDIR.split("/"))))
    libdir = os.path.join(prefix, _layout.LIBDIR, "q7cc", "host" if profile == "host" else "xtensa")
    if os.path.isdir(libdir):
        for name in sorted(os.listdir(libdir)):
            p = os.path.join(libdir, name)
            if os.path.isfile(p):
                d.update(name.encode() + b"\0" + file_hash(p).encode())
    return d.hexdigest()


# ---- what the shape files' NEURON_LIBRARY blocks say --------------------

# A step's record and neuron_library.json: far past any real one.
_RECORD_MAX = 16 << 20


def shape_defs(q7cc, q7key, profile, shape_srcs, includes, state):
    """Each m.def of the shape files' NEURON_LIBRARY blocks that names a
    compute function, in order, as q7cc reads the blocks from their tokens
    (--q7-print-schema's "neuron_library"): (file, line of the m.def, op,
    shape function or "" (a lambda), compute function, and the file and
    line of the shape function's definition, or "" and 0). A shape file q7cc
    cannot analyse (libtorch headers it has no stand-in for) still lists
    them; its errors are the host compiler's to say. Kept in state for the
    same q7cc and shape files (their libtorch headers cost q7cc a second)."""
    srcs = [os.path.abspath(s) for s in shape_srcs]
    cmd = [q7cc, "--q7-toolchain=" + profile, "--q7-print-schema", "--q7-format=json"] + \
        includes + srcs
    key = digest("neuron_library 1", q7key, cmd, [file_hash(s) for s in srcs])
    record = os.path.join(state, "neuron_library.json")
    # A cache entry (docs/robustness.md, "Caches"): a regular file of the
    # user's, not a link, bounded, with its checksum; anything else a miss.
    kept = _cache.read_entry(record, _RECORD_MAX)
    try:
        kept = json.loads(kept.decode("utf-8")) if kept is not None else None
        if kept is not None and kept["key"] == key:
            return [tuple(d) for d in kept["defs"]]
    except (ValueError, KeyError, TypeError):
        pass
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    try:
        got = json.loads(r.stdout.decode("utf-8", "replace"))["neuron_library"]
        defs = [(d["file"], d["line"], d["op"], d["shape"].split("::")[-1], d["compute"],
                 d["shape_file"], d["shape_line"]) for d in got]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BuildError("reading the shape files' NEURON_LIBRARY blocks", cmd,
                         r.stderr.decode("utf-8", "replace")) from None
    _cache.write_entry(record, json.dumps({"key": key, "defs": defs}).encode("utf-8"))
    return defs


def _c_string(text):
    """text as a C string literal: printable ASCII as is (but \\ and "),
    every other byte in octal."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        out.append(c if 32 <= b < 127 and c not in '\\"?' else "\\%03o" % b)
    return '"' + "".join(out) + '"'


def shape_sites_source(defs, path):
    """Writes path (a .cpp), which defines the shape library's
    q7_neuron_shape_sites (bridge.cpp's shape_site reads it): one "m.def's
    file:line<TAB>the shape function's file:line" line per m.def whose
    block's file defines its shape function, file names without their
    folder (as the shape objects' __FILE__). Rewritten only when its text
    changes (its object is then up to date). Returns its path, or None
    when no m.def has one."""
    lines = ["%s:%d\t%s:%d\n" % (os.path.basename(f), line, os.path.basename(sf), sl)
             for f, line, _, _, _, sf, sl in defs if sf and sl]
    if not lines:
        return None
    text = ("// Made by q7cc.torch: where each m.def's shape function is defined.\n"
            'extern "C" __attribute__((visibility("default"), used)) const char '
            "q7_neuron_shape_sites[] =\n    %s;\n" % _c_string("".join(lines)))
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    write_whole(path, text.encode("utf-8"))
    return path


def check_shapes(q7cc, objs, shape_lib, defs):
    """Each op of shape_lib against the kernel it names, as the compute
    objects record it (q7cc --q7-print-schema): the kernel is defined, and
    its parameters are the shape function's, in number and in type. A
    list of messages, each at the m.def and naming both declarations."""
    cmd = [q7cc, "--q7-print-schema", "--q7-format=json"] + objs
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        raise BuildError("reading the kernels' schemas", cmd, r.stderr.decode("utf-8", "replace"))
    kernels = {op["name"]: op for op in json.loads(r.stdout.decode())["ops"] if op.get("defined")}
    lib = _bridge.bridge()
    err = ctypes.c_void_p()
    text = lib.q7t_shape_defs(os.fsencode(shape_lib), ctypes.byref(err))
    if not text:
        raise BuildError("reading %s" % os.path.basename(shape_lib), cmd,
                         _bridge._take(lib, err.value) if err.value else "unknown error")
    by_line = {(os.path.basename(f), l): (shape, sf, sl) for f, l, _, shape, _, sf, sl in defs}
    problems = []
    for line in _bridge._take(lib, text).splitlines():
        qual, compute, at, *mine = line.split("\t")
        k = kernels.get(compute)
        if k is None:
            have = ", ".join("%s (%s:%d)" % (n, os.path.basename(o["file"]), o["line"])
                             for n, o in sorted(kernels.items())) or "none"
            problems.append("%s: error: %s: m.def names the compute function '%s', which no "
                            "compute source defines (their kernels: %s)" % (at, qual, compute, have))
            continue
        theirs = [p["type"] for p in k["params"]]  # TorchScript's, as torch names them
        if mine == theirs:
            continue
        f, l = at.rsplit(":", 1)
        shape, sf, sl = by_line.get((os.path.basename(f), int(l)), ("", "", 0))
        shape = shape or "the shape function"
        sf, sl = (sf, sl) if sl else (f, int(l))
        kdecl = "%s(%s)" % (compute, ", ".join("%s %s" % (p["type"], p["name"])
                                               for p in k["params"]))
        if len(mine) != len(theirs):
            why = "%d arguments in the shape function, %d in the kernel" % (len(mine),
                                                                             len(theirs))
        else:
            i = next(i for i in range(len(mine)) if mine[i] != theirs[i])
            why = "argument %d is %s in the shape function, %s in the kernel" % (
                i + 1, mine[i], theirs[i])
        problems.append("%s: error: %s: the shape function and the kernel disagree: %s\n"
                        "%s:%d: note: shape function %s(%s)\n%s:%d: note: kernel %s" % (
                            at, qual, why, os.path.basename(sf), sl, shape, ", ".join(mine),
                            os.path.basename(k["file"]), k["line"], kdecl))
    return cmd, problems


def undefined_shape_functions(output, defs):
    """The linker's undefined references to shape functions, each said at
    its m.def: "shape.cpp:12: error: my_ops::op: the shape function
    f(at::Tensor) is declared but not defined"."""
    lines = []
    for sym in sorted(set(re.findall(r"undefined reference to [`'](.+?)'", output))):
        name = sym.split("(")[0].split("::")[-1]
        for f, l, op, shape, _, _, _ in defs:
            if shape == name:
                lines.append("%s:%d: error: m.def(\"%s\", &%s, ...): the shape function %s is "
                             "declared but not defined in any shape source" % (
                                 os.path.basename(f), l, op, shape, sym))
    return lines


# ---- one step ------------------------------------------------------------

class Step:
    """One command that makes output from inputs, up to date when its
    record says the same key and unchanged dependencies."""

    def __init__(self, what, command, output, key, record, depfile=None):
        self.what, self.command, self.output = what, command, output
        self.key, self.record, self.depfile = key, record, depfile
        # q7cc's steps show their warnings (the device's limits a host
        # library passes: docs/torch.md, "The API"); libtorch's are not
        # the user's to act on
        self.show = False

    def up_to_date(self):
        if not os.path.exists(self.output):
            return False
        data = _cache.read_entry(self.record, _RECORD_MAX)
        try:
            rec = json.loads(data.decode("utf-8")) if data is not None else None
        except ValueError:
            return False
        if not isinstance(rec, dict) or rec.get("key") != self.key:
            return False
        for dep in rec.get("deps", []):
            if len(dep) != 6:
                return False  # a record of an older q7cc
            path, size, mtime, ctime, ino, sha = dep
            try:
                st = os.stat(path)
            except OSError:
                return False
            # another size: another text; the same stat: the same text. Else
            # (a file copied again unchanged, or an old text put back under
            # its old mtime, whose ctime is new) the text decides.
            if st.st_size != size or ((st.st_mtime_ns, st.st_ctime_ns, st.st_ino) !=
                                      (mtime, ctime, ino) and file_hash(path) != sha):
                return False
        return True

    def run(self, verbose, log):
        # A compile writes beside its object and renames it into place, so
        # that an interrupted build never leaves half an object.
        # (A link's outputs are q7cc's or the linker's, whole-or-nothing.)
        if self.depfile:
            tmp = "%s.%d.tmp" % (self.output, os.getpid())
            run_command(self.what, self.command, {self.output: tmp, self.depfile: tmp + ".d"},
                        verbose, log, self.show)
            os.replace(tmp + ".d", self.depfile)
            os.replace(tmp, self.output)
        else:
            run_command(self.what, self.command, {}, verbose, log, self.show)
        self.write_record()

    def write_record(self):
        deps = []
        for path in read_depfile(self.depfile) if self.depfile else []:
            try:
                st = os.stat(path)
                deps.append([os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns,
                             st.st_ino, file_hash(path)])
            except OSError:
                pass
        _cache.write_entry(self.record, json.dumps({"key": self.key, "deps": deps}).encode("utf-8"))


class ShapeStep(Step):
    """A shape object: up to date by its record in the build directory
    (as any step); else its preprocessed text names it in the shared
    cache, which compiles it only when no process did before."""

    def __init__(self, what, command, output, key, record, depfile, src, code_flags, cache):
        super().__init__(what, command, output, key, record, depfile)
        self.src, self.code_flags, self.cache = src, code_flags, cache

    def run(self, verbose, log):
        i = self.command.index("-c")
        tmp = "%s.%d.tmp" % (self.output, os.getpid())
        pre = self.command[:i] + ["-E", "-P", self.src, "-o", tmp + ".i"]
        run_command("preprocessing %s" % os.path.basename(self.src), pre,
                    {self.depfile: tmp + ".d", tmp + ".i": tmp + ".i"}, verbose, log)
        try:
            self.fill(tmp, verbose, log)
        except BaseException:
            for p in (tmp, tmp + ".d"):
                if os.path.exists(p):
                    os.unlink(p)
            raise
        self.write_record()

    def fill(self, tmp, verbose, log):
        """The object from the cache (compiled into it first when no
        process did, or its entry is damaged), and its dependencies, from
        tmp's preprocessing. Without a cache (its folder not safe), the
        compile alone."""
        try:
            with open(tmp + ".i", "rb") as f:
                text = hashlib.sha256(f.read()).hexdigest()
        finally:
            os.unlink(tmp + ".i")
        if self.cache is None:
            self.compile(tmp, verbose, log)
        else:
            cached = os.path.join(self.cache, digest(self.code_flags, text) + ".o")
            with locked(cached + ".lock", os.path.basename(self.src), log):
                obj = _cache.read_entry(cached, SHAPE_OBJECT_LIMIT)
                if obj is None:
                    self.compile(tmp, verbose, log)
                    with open(tmp, "rb") as f:
                        _cache.write_entry(cached, f.read())
                else:
                    if verbose:
                        log("q7cc.torch: %s: compiled before (%s)" % (
                            os.path.basename(self.src), cached))
                    with open(tmp, "wb") as f:
                        f.write(obj)
        os.replace(tmp, self.output)
        os.replace(tmp + ".d", self.depfile)

    def compile(self, tmp, verbose, log):
        """The object into tmp (its dependencies are the preprocessing's)."""
        try:
            run_command(self.what, self.command, {self.output: tmp, self.depfile: tmp + ".cd"},
                        verbose, log)
        finally:
            if os.path.exists(tmp + ".cd"):
                os.unlink(tmp + ".cd")


def read_depfile(path):
    """The prerequisites of a make rule written by -MD."""
    try:
        with open(path) as f:
            text = f.read().replace("\\\n", " ")
    except OSError:
        return []
    _, _, rest = text.partition(": ")
    return [p.replace("\\ ", " ") for p in re.findall(r"(?:\\ |[^ \n])+", rest)]


# ---- the build -----------------------------------------------------------

def shape_cache():
    """Where shape objects are kept, for every build directory: a shape
    file takes most of a minute to compile against libtorch, and the same
    one serves both targets. None when that folder is not safe (_cache)."""
    return _cache.private_dir(_paths.shape_objects())


def compile_steps(kind, sources, make_cmd, tool_key, state, flags, shape=None):
    """One compile step per source: (steps, objects). shape: (the flags
    that change code, the shared cache) for shape objects."""
    steps, objs = [], []
    for src in sources:
        src = os.path.abspath(src)
        stem = os.path.splitext(os.path.basename(src))[0]
        tag = digest(kind, src, flags)[:16]
        obj = os.path.join(state, "%s.%s.%s.o" % (stem, kind, tag))
        dep = obj[:-2] + ".d"
        cmd = make_cmd(src, obj, dep)
        key = digest(cmd, tool_key, file_hash(src))
        what = "compiling %s" % os.path.basename(src)
        steps.append(ShapeStep(what, cmd, obj, key, obj + ".json", dep, src, *shape) if shape
                     else Step(what, cmd, obj, key, obj + ".json", dep))
        objs.append(obj)
    return steps, objs


def link_step(lib, command, tool_key, objs, record):
    """Links lib from objs (compiled): again when any object's contents
    changed, whatever made them change."""
    return Step("linking %s" % os.path.basename(lib), command, lib,
                digest(command, tool_key, [file_hash(o) for o in objs]), record)


# sanitize=True: the host kernels under AddressSanitizer and
# UndefinedBehaviorSanitizer (q7-run --sanitize runs them, docs/runtime.md).
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]


def build(name, compute_srcs, shape_srcs, build_directory, multicore, verbose, target,
          extra_cflags=(), extra_include_paths=(), log=None, sanitize=False, extra_ldflags=()):
    """Builds lib<name>.so (and lib<name>.shape.so) in build_directory,
    holding its lock; returns their paths (the shape library's None
    without shape sources). sanitize: the compute sources compiled and
    linked with SANITIZE. extra_ldflags go to lib<name>.so's link."""
    log = log or _progress.write_line
    for src in list(compute_srcs) + list(shape_srcs):
        if not os.path.isfile(src):
            raise FileNotFoundError("q7cc.torch: %s: no such source file" % src)
    state = os.path.join(build_directory, STATE_DIR)
    os.makedirs(state, exist_ok=True)
    # verbose: each command on its own line instead of the progress line
    progress = _progress.Progress("lib%s.so" % name, not verbose, log)
    ok = False
    try:
        with locked(os.path.join(state, "lock"), os.path.abspath(build_directory), progress.log):
            r = build_locked(name, compute_srcs, shape_srcs, build_directory, multicore, verbose,
                             target, extra_cflags, extra_include_paths, progress, sanitize,
                             extra_ldflags)
        ok = True
        return r
    finally:
        progress.close(ok)


def shape_setup(includes=()):
    """How the shape files compile against libtorch: the compiler, its
    flags, the keys of their objects, the precompiled header's flags,
    the shape cache and the header (None without a cache), libtorch's
    library folder."""
    incs, libdir = torch_paths()
    abi = _paths.cxx11_abi()
    host_inc = os.path.join(_paths.PREFIX, _layout.INCLUDEDIR, "q7cc-torch")
    code = [cxx_standard(), "-fPIC", "-O2", "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi]
    sflags = code + ["-I" + host_inc] + ["-isystem" + p for p in incs] + list(includes)
    skey = digest(torch.__version__, file_hash(os.path.join(host_inc, "torchneuron",
                                                            "register.h")))
    cxx = _pch.shape_cxx(host_cxx())
    # what makes the same preprocessed text another object
    code_key = digest("shape", cxx, tool_hash(cxx[0]), code, torch.__version__)
    pch_flags = code + ["-I" + host_inc] + ["-isystem" + p for p in incs]
    cache = shape_cache()  # None: not a folder of the user's own; then no header either
    pch = _pch.path(cache, digest(code_key, skey, pch_flags, _pch.TEXT), incs) if cache else None
    return cxx, sflags, skey, code_key, pch_flags, cache, pch, libdir


def with_register_h_hints(e, shape_srcs):
    """e, a failed compile of shape_srcs, with what to add to each that uses
    NEURON_LIBRARY without "torchneuron/register.h" (_pch.usable)."""
    hints = ["%s: NEURON_LIBRARY is defined by \"torchneuron/register.h\": add #include "
             "\"torchneuron/register.h\" after #include <torch/torch.h>" % os.path.basename(src)
             for src in shape_srcs if "NEURON_LIBRARY" in e.output and _pch.lacks_register_h(src)]
    if not hints:
        return e
    return BuildError(str(e).split(" failed:\n", 1)[0], e.command,
                      e.output.rstrip("\n") + "\n" + "\n".join(hints))


def shape_compile(cxx, sflags, pch, src, obj, extra=()):
    """A shape source's compile (extra before -c); its __FILE__ without the
    folder, so that the object does not depend on where the source is."""
    return cxx + sflags + (_pch.flags(cxx, pch) if pch and _pch.usable(cxx, src) else []) + [
        "-fmacro-prefix-map=%s/=" % os.path.dirname(src)] + list(extra) + ["-c", src, "-o", obj]


def shape_link(cxx, out, objs, libdir):
    """--no-undefined: a shape function never defined fails here, not at load."""
    return cxx + ["-shared", "-Wl,-Bsymbolic", "-Wl,--no-undefined", "-o", out] + objs + [
        "-L" + libdir, "-Wl,-rpath," + libdir, "-ltorch", "-ltorch_cpu", "-lc10"]


def _shape_part(shape_srcs, defs, includes, state, lib, verbose, log):
    """The shape library's compile steps (the host's compiler against
    libtorch, the precompiled header built first when a step will use it),
    its path beside lib, and its link as build_locked lists links."""
    cxx, sflags, skey, code_key, pch_flags, cache, pch, libdir = shape_setup(includes)
    if verbose and os.environ.get("CXX") and cxx != shlex.split(os.environ["CXX"]):
        log("q7cc.torch: CXX=%s names q7cc; the shape files are built with %s, a host "
            "compiler, against libtorch" % (os.environ["CXX"], cxx[0]))
    sites = shape_sites_source(defs, os.path.join(state, "q7cc-shape-sites.cpp"))
    s_steps, s_objs = compile_steps(
        "shape", list(shape_srcs) + ([sites] if sites else []),
        lambda src, obj, dep: shape_compile(cxx, sflags, pch, src, obj, ["-MD", "-MF", dep]),
        skey, state, cxx + sflags, shape=(code_key, cache))
    shape_lib = lib[:-3] + ".shape.so"
    slink = shape_link(cxx, shape_lib, s_objs, libdir)
    if pch and any(pch in st.command and not st.up_to_date() for st in s_steps):
        _pch.build(pch, cxx, pch_flags, log)
    return s_steps, shape_lib, (shape_lib, slink, skey, s_objs, os.path.join(state, "shape.json"))


def build_locked(name, compute_srcs, shape_srcs, build_directory, multicore, verbose, target,
                 extra_cflags, extra_include_paths, progress, sanitize, extra_ldflags):
    state = os.path.join(build_directory, STATE_DIR)
    q7cc = q7cc_path()
    profile = _bridge.targets()[target].profile
    includes = ["-I" + os.path.abspath(p) for p in extra_include_paths]

    # compute: q7cc, the kernels named by the shape files' blocks
    q7key = q7cc_identity(q7cc, profile)
    defs = shape_defs(q7cc, q7key, profile, shape_srcs, includes, state) if shape_srcs else []
    kernels = list(dict.fromkeys(d[4] for d in defs))  # the m.defs' compute functions, once
    cflags = ["--q7-toolchain=" + profile] + (["-O2"] if profile == "host" else [])
    cflags += includes + list(extra_cflags) + (SANITIZE if sanitize else [])
    if kernels:
        # each file defines some of them: a name it lacks is no error
        cflags += ["--q7-kernel=" + ",".join(kernels), "-Wno-error=q7-unknown-kernel",
                   "-Wno-q7-unknown-kernel"]
    steps, objs = compile_steps(
        "compute-" + profile, compute_srcs,
        lambda src, obj, dep: [q7cc] + cflags + ["-MD", "-MF", dep, "-c", src, "-o", obj],
        q7key, state, cflags)
    for s in steps:
        s.show = True
    lib = os.path.join(os.path.abspath(build_directory), "lib%s.so" % name)
    link = [q7cc, "--q7-toolchain=" + profile, "-shared"] + (["--q7-multicore"] if multicore else [])
    # host: the library binds its own symbols (its at::Tensor methods
    # mangle like libtorch's)
    link += (["-Wl,-Bsymbolic"] if profile == "host" else []) + (SANITIZE if sanitize else [])
    link += list(extra_ldflags) + ["-o", lib] + objs
    links = [(lib, link, q7key, objs, os.path.join(state, "lib.json"))]

    shape_lib = None
    if shape_srcs:
        s_steps, shape_lib, slink = _shape_part(shape_srcs, defs, includes, state, lib, verbose,
                                                progress.log)
        steps += s_steps
        links.append(slink)
    else:
        stale = lib[:-3] + ".shape.so"
        if os.path.exists(stale):
            os.unlink(stale)  # a library without shape sources has none
    try:
        run_steps(steps, verbose, progress)
    except BuildError as e:
        raise with_register_h_hints(e, shape_srcs) from None
    try:
        lsteps = [link_step(*args) for args in links]
        lsteps[0].show = True  # q7cc's
        linked = run_steps(lsteps, verbose, progress)
    except BuildError as e:
        said = undefined_shape_functions(e.output, defs)
        if said:
            raise BuildError("linking %s" % os.path.basename(shape_lib), e.command,
                             "\n".join(said) + "\n" + e.output) from None
        raise
    if shape_lib and linked:
        # The shape functions against the kernels, now, not at the first
        # call (a library that failed it was removed: linked again).
        cmd, problems = check_shapes(q7cc, objs, shape_lib, defs)
        if problems:
            for p in (lib, shape_lib):
                if os.path.exists(p):
                    os.unlink(p)  # nothing half-built: the next build links again
            raise BuildError("checking the shape functions against the kernels", cmd,
                             "\n".join(problems))
    return lib, shape_lib


def run_steps(steps, verbose, progress):
    """Runs the steps not up to date, saying so through progress; returns
    how many."""
    todo = [s for s in steps if not s.up_to_date()]
    if verbose:
        for s in steps:
            if s not in todo:
                progress.log("q7cc.torch: %s: up to date" % os.path.basename(s.output))
    if not todo:
        return 0
    progress.expect(len(todo))
    workers = min(len(todo), os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(progress.run, s, verbose, progress.log) for s in todo]
        errors = []
        for f in futures:
            try:
                f.result()
            except BuildError as e:
                errors.append(e)
    if errors:
        raise errors[0]
    return len(todo)
