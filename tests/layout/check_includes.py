#!/usr/bin/env python3
"""unit.layout_includes: the include direction between components is a
checked rule (README, "Layout"). Every #include "..." or <...> of the
project's C, C++ and assembler sources is resolved to the component that
owns the header, and the edge must be in ALLOWED. Headers are found first
beside the including file, then in the components' own folders (the
include paths CMake gives them); a name found nowhere is a system or
generated header and is not a project edge.

Usage: check_includes.py ROOT      check the tree
       check_includes.py --self-test   check that a wrong edge is caught"""
import os
import re
import sys

# component -> the components whose headers it may include (itself always).
# support is the OS layer everyone shares; the op model (model/) is what
# analysis, codegen and packer agree on; runtime/include holds the plain C
# contracts that tools and runtime share (<q7/frame.h>, <q7/kinds.h>, and
# <q7/xtensa.h>: the Xtensa ABI, relocations and the core count, that the
# packer, the prelinker, lsp and the boot program read alike; the boot
# firmware's <q7/boot.h> and <q7/prelinked.h>);
# runtime/src stands alone with it; main ties the tools together.
ALLOWED = {
    "support": set(),
    "model": {"runtime/include", "support"},
    "analysis": {"model", "support"},
    "codegen": {"model", "support"},
    "packer": {"model", "runtime/include", "support"},
    "lsp": {"runtime/include", "support"},
    "prelink": {"lsp", "runtime/include", "support"},
    "runtime/include": set(),
    "runtime/src": {"runtime/include"},
    "runtime/boot": {"runtime/include"},
    # lsp owns the windows a memory map shows (by <q7/xtensa.h>'s core
    # count); memmap reads an image's sections against them.
    "memmap": {"lsp", "support"},
    # run/ is the host executor; the driver (wrapper/) does not run
    # kernels, and only the multi-call main (main/) ties both together.
    "run": {"prelink", "lsp", "memmap", "runtime/include", "support"},
    "wrapper": {"analysis", "codegen", "packer", "lsp", "memmap", "model", "support"},
    # --q7-memory-map's main (main/memory_map_main.c): memmap's maps of
    # the images q7-run finds, one per core (lsp's count).
    "main": {"wrapper", "run", "prelink", "packer", "memmap", "lsp", "support"},
    # fuzz_pictures: the memory map and the profile's writers (run/).
    "fuzz": {"packer", "model", "memmap", "run", "support"},
    "python": {"run", "runtime/include", "support"},
    # q7cc-clangd runs the driver's --q7-lint as a child: no analysis code.
    "editor": {"support"},
}
SOURCES = (".c", ".h", ".cpp", ".hpp", ".S")
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]([^">]+)[">]', re.M)


def component(root, path):
    rel = os.path.relpath(path, root)
    best = None
    for comp in ALLOWED:
        if rel == comp or rel.startswith(comp + "/"):
            if best is None or len(comp) > len(best):
                best = comp
    return best


def check(root):
    # Where each header name lives, per component (the include paths).
    homes = {}
    files = []
    for comp in ALLOWED:
        top = os.path.join(root, comp)
        for dirpath, _, names in os.walk(top):
            for n in names:
                p = os.path.join(dirpath, n)
                if n.endswith(SOURCES) and component(root, p) == comp:
                    files.append(p)
                    rel = os.path.relpath(p, top)
                    homes.setdefault(rel, set()).add(comp)
                    homes.setdefault(n, set()).add(comp)
    bad = []
    edges = 0
    for f in sorted(files):
        me = component(root, f)
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            if os.path.exists(os.path.join(os.path.dirname(f), name)):
                continue  # beside the includer: its own component
            owners = homes.get(name, set())
            if not owners or me in owners:
                continue
            edges += 1
            if not owners & (ALLOWED[me] | {me}):
                bad.append(f"{os.path.relpath(f, root)}: includes \"{name}\" of "
                           f"{' or '.join(sorted(owners))}, which {me} may not use")
    for b in bad:
        print(b)
    print(f"{len(files)} files, {edges} cross-component includes, {len(bad)} against the rule")
    return len(bad)


def self_test():
    """A packer file that includes analysis's header must be caught, and
    one that includes the model's must not."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for path, text in [("analysis/analysis.h", ""), ("model/op.h", ""),
                           ("packer/good.c", '#include "op.h"\n'),
                           ("packer/bad.c", '#include <stdio.h>\n#include "analysis.h"\n')]:
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        return 0 if check(root) == 1 else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    return 1 if check(os.path.abspath(sys.argv[1])) else 0


if __name__ == "__main__":
    sys.exit(main())
