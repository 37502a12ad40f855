"""Builds a shape library, lib<name>.shape.so, from shape sources alone:
what custom_op.load() builds beside its library, for a library that
another build made (CMake's q7_add_custom_op(... SHAPE_SOURCES ...
TORCH_SHAPE_LIBRARY), docs/torch.md), so that load_library() of it
defines its ops with their shape functions.

    python3 -m q7cc.torch.shape_library -o OUT.shape.so [-I DIR]... SRC...

The sources compile as load() compiles them (the host compiler against
the running torch, the precompiled header where it applies), each to an
object beside OUT, then link; OUT is written whole or not at all."""
import argparse
import os
import sys
import tempfile

from . import _build, _pch
from ._tools import BuildError, run_command


def build(output, sources, includes=(), verbose=False, log=print):
    """Compiles sources and links output; raises BuildError."""
    flags = ["-I" + os.path.abspath(p) for p in includes]
    cxx, sflags, _, _, pch_flags, _, pch, libdir = _build.shape_setup(flags)
    out = os.path.abspath(output)
    objs = []
    # The table of where each shape function is defined, which the
    # bridge's messages name (as load() links it): from q7cc's reading of
    # the blocks, made beside the objects (OUT.sites.cpp).
    q7cc = _build.q7cc_path()
    with tempfile.TemporaryDirectory() as state:
        defs = _build.shape_defs(q7cc, _build.q7cc_identity(q7cc, "host"), "host", sources,
                                 flags, state)
    sites = _build.shape_sites_source(defs, out + ".sites.cpp")
    for src in [os.path.abspath(s) for s in sources] + ([sites] if sites else []):
        obj = "%s.%s.o" % (out, os.path.splitext(os.path.basename(src))[0])
        cmd = _build.shape_compile(cxx, sflags, pch, src, obj)
        if pch and pch in cmd:
            _pch.build(pch, cxx, pch_flags, log)  # when missing
        try:
            run_command("compiling %s" % os.path.basename(src), cmd, {obj: obj + ".tmp"},
                        verbose, log)
        except BuildError as e:
            raise _build.with_register_h_hints(e, [src]) from None
        os.replace(obj + ".tmp", obj)
        objs.append(obj)
    link = _build.shape_link(cxx, out, objs, libdir)
    run_command("linking %s" % os.path.basename(out), link, {out: out + ".tmp"}, verbose, log)
    os.replace(out + ".tmp", out)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m q7cc.torch.shape_library",
                                description="Builds lib<name>.shape.so from shape sources.")
    p.add_argument("-o", dest="output", required=True, help="the shape library to write")
    p.add_argument("-I", dest="includes", action="append", default=[], help="an include folder")
    p.add_argument("-v", dest="verbose", action="store_true", help="show the commands")
    p.add_argument("sources", nargs="+", help="the shape sources")
    a = p.parse_args(argv)
    try:
        build(a.output, a.sources, a.includes, a.verbose,
              lambda m: print(m, file=sys.stderr))
    except BuildError as e:
        print("q7cc.torch.shape_library: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
