"""A precompiled header of libtorch's headers for the shape files, given
as `-include q7torch.h` (docs/torch.md, "The API"). A file uses it only
when nothing but includes comes before its <torch/torch.h>, and, using
NEURON_LIBRARY, it includes "torchneuron/register.h" itself: the header
must not make a file compile that does not compile without it."""
import os
import re
import shlex
import shutil

import torch

from . import _tools

# What the precompiled header reads: what a shape file includes.
TEXT = ("#include <stdint.h>\n#include <stdlib.h>\n#include <torch/torch.h>\n"
        "#include \"torchneuron/register.h\"\n")

_TORCH = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<torch/torch\.h>", re.M)
_REGISTER = re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]torchneuron/register\.h[>\"]", re.M)
_OTHER = re.compile(r"^[ \t]*#[ \t]*(?!include\b|pragma[ \t]+once\b)\w", re.M)


def kind(cxx):
    """"clang", "gcc" or None: which precompiled header cxx makes."""
    p = shutil.which(cxx[0])
    name = os.path.basename(os.path.realpath(p)) if p else ""
    if re.fullmatch(r"clang(?:\+\+)?(?:-[0-9.]+)?", name):
        return "clang"
    return "gcc" if re.fullmatch(r"(?:.*-)?g\+\+(?:-[0-9.]+)?", name) else None


def shape_cxx(cxx):
    """The compiler for the shape files: cxx (host_cxx()), or clang++ in
    place of c++ when it is installed, unless $CXX asks for c++."""
    if cxx == ["c++"] and shlex.split(os.environ.get("CXX") or "") != cxx and \
            os.environ.get("Q7CC_TORCH_PCH") != "0" and shutil.which("clang++"):
        return ["clang++"]
    return cxx


def _text(src):
    with _tools.open_regular(src) as f:
        return _tools.COMMENTS.sub(" ", f.read(_tools.SOURCE_MAX).decode("utf-8", "replace"))


def lacks_register_h(src):
    """Whether src uses NEURON_LIBRARY without including what defines it."""
    text = _text(src)
    return "NEURON_LIBRARY" in text and not _REGISTER.search(text)


def usable(cxx, src):
    """Whether src may be compiled with the precompiled header."""
    if os.environ.get("Q7CC_TORCH_PCH") == "0" or not kind(cxx):
        return False
    text = _text(src)
    m = _TORCH.search(text)
    return bool(m) and not _OTHER.search(text, 0, m.start()) and not lacks_register_h(src)


def path(cache, key, incs):
    """The header for key, a digest of what makes the precompiled one
    another (the compiler, its flags, register.h, TEXT), with torch's
    version and the date of the torch.h in incs (libtorch's include
    folders): Clang refuses a .pch whose headers changed."""
    mtime = max([os.stat(p).st_mtime_ns for p in (os.path.join(i, "torch", "torch.h")
                                                  for i in incs) if os.path.exists(p)] + [0])
    return os.path.join(cache, "pch-%s-%s-%d" % (torch.__version__, key[:16], mtime), "q7torch.h")


def flags(cxx, header):
    """What a compile adds to use header. GCC's -fpch-preprocess: the
    preprocessing (the shape cache's key) names the .gch instead of
    writing out libtorch's text (whose version its path names)."""
    return (["-fpch-preprocess"] if kind(cxx) == "gcc" else []) + ["-include", header]


def build(header, cxx, cflags, log):
    """Builds header's precompiled form with cxx and cflags (the shape
    files' code flags and libtorch's include folders) when missing, once
    among processes."""
    out = header + (".pch" if kind(cxx) == "clang" else ".gch")
    if os.path.exists(out):
        return
    os.makedirs(os.path.dirname(header), exist_ok=True)
    with _tools.locked(header + ".lock", os.path.dirname(header), log):
        if os.path.exists(out):
            return
        log("q7cc.torch: precompiling libtorch's headers for the shape files in %s, once per "
            "torch and compiler (%s)" % (os.path.dirname(header),
                                        "about 20 s" if out.endswith(".pch") else "about a minute"))
        _tools.write_whole(header, TEXT)
        extra = ["-fpch-instantiate-templates"] if out.endswith(".pch") else []
        tmp = "%s.%d.tmp" % (out, os.getpid())
        _tools.run_command("precompiling libtorch's headers", cxx + cflags + extra + [
            "-x", "c++-header", header, "-o", out], {out: tmp}, False, log)
        os.replace(tmp, out)
