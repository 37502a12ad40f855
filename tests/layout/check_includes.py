#!/usr/bin/env python3
"""unit.layout_includes: the include direction between components is a
checked rule (README, "Layout"). Every #include "..." or <...> of the
project's C, C++ and assembler sources is resolved to the component that
owns the header, and the edge must be in ALLOWED. Headers are found first
beside the including file, then in the components' own folders (the
include paths CMake gives them); a name found nowhere is a system or
generated header and is not a project edge.

A CMakeLists.txt is an edge too: one in component A that names a file of
component B by path (../B/x.c, ${CMAKE_SOURCE_DIR}/B/x.c, a glob of B's
headers) compiles or reads B's code, and obeys the same table.

And a header's name says which it is: two headers of the components that
share a basename would be told apart only by include order (and two
include guards alike hide one), so each name is one header's, but for
TWINS, one API's builds that an include path chooses between.

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
    # packer checks a device image's segments by lsp's rule, as the
    # prelinker and the memory map do (lsp/lsp.h, q7_lsp_segment_check).
    "packer": {"model", "lsp", "runtime/include", "support"},
    "lsp": {"runtime/include", "support"},
    "prelink": {"lsp", "runtime/include", "support"},
    "runtime/include": set(),
    "runtime/src": {"runtime/include"},
    "runtime/boot": {"runtime/include"},
    # lsp owns the windows a memory map shows (by <q7/xtensa.h>'s core
    # count); memmap reads an image's sections against them.
    "memmap": {"lsp", "support"},
    # run/ is the host executor; the driver (wrapper/) does not run
    # kernels, and only the multi-call main (main/) ties both together;
    # the limits it shares (model/call_limits.h) are model's.
    # The instruction profiler (docs/profile.md): the stack tree, the
    # emulated core's trace made into one (frames named by memmap's symbol
    # reader), the device view and the flame graph; it runs nothing, and
    # the run engine and the bridge fill it.
    "profiler": {"memmap", "support"},
    "run": {"profiler", "prelink", "lsp", "memmap", "model", "runtime/include", "support"},
    "wrapper": {"analysis", "codegen", "packer", "lsp", "memmap", "model", "support"},
    # --q7-memory-map's main (main/memory_map_main.c): memmap's maps of
    # the images q7-run finds, one per core (lsp's count).
    "main": {"wrapper", "run", "prelink", "packer", "memmap", "lsp", "support"},
    # fuzz_pictures: the memory map and the profile's writers (profiler/).
    "fuzz": {"packer", "model", "memmap", "profiler", "support"},
    # the bridge links the run engine, and with it the contracts the
    # engine takes from model/ (the schema grammar, tensor byte counts).
    "python": {"run", "profiler", "model", "runtime/include", "support"},
    # q7cc-clangd runs the driver's --q7-lint as a child: no analysis code;
    # the contracts it shares with the driver (which files are C++) are model's.
    "editor": {"model", "support"},
}
SOURCES = (".c", ".h", ".cpp", ".hpp", ".S")
HEADERS = (".h", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]([^">]+)[">]', re.M)
# Headers that share a name on purpose: <torchneuron/register.h> for the
# host (python/include, shape libraries built against torch) and for the
# device (runtime/include); a build has one of the two folders on its
# include path.
TWINS = {"register.h": {"python/include/torchneuron/register.h",
                        "runtime/include/torchneuron/register.h"}}
# A path in a CMakeLists.txt: a source or header by its folder, the
# project's root spelled as CMake does, or relative ("../prelink/x.c").
CMAKE_PATH = re.compile(r'(\$\{(?:CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR|CMAKE_CURRENT_SOURCE_DIR|'
                        r'CMAKE_CURRENT_LIST_DIR)\}/[^\s()"]*|[\w.*/-]*\.\./[^\s()"]*|'
                        r'[\w.*-]+(?:/[\w.*-]+)*)')
CMAKE_COMMENT = re.compile(r"#[^\n]*")


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
    bad = same_names(root, files)
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
    cmake_bad, cmake_edges = cmake_edges_of(root)
    bad += cmake_bad
    for b in bad:
        print(b)
    print(f"{len(files)} files, {edges} cross-component includes, {cmake_edges} CMake source "
          f"edges, {len(bad)} against the rules")
    return len(bad)


def same_names(root, files):
    """Headers of the components that share a basename (but TWINS)."""
    paths = {}
    for f in files:
        if f.endswith(HEADERS):
            paths.setdefault(os.path.basename(f), []).append(os.path.relpath(f, root))
    bad = []
    for name, where in sorted(paths.items()):
        if len(where) > 1 and set(where) != TWINS.get(name):
            bad.append(f"{' and '.join(sorted(where))}: one header name, told apart only by "
                       f"include order: rename one after its concern")
    return bad


def cmake_edges_of(root):
    """The files that each component's CMakeLists.txt names in another
    component, against ALLOWED: ([finding], edges)."""
    bad = []
    edges = 0
    for comp in ALLOWED:
        top = os.path.join(root, comp)
        for dirpath, _, names in os.walk(top):
            if "CMakeLists.txt" not in names or component(root, dirpath) != comp:
                continue
            lists = os.path.join(dirpath, "CMakeLists.txt")
            with open(lists, encoding="utf-8", errors="replace") as fh:
                text = CMAKE_COMMENT.sub("", fh.read())
            for word in CMAKE_PATH.findall(text):
                path = cmake_path(root, dirpath, word)
                if path is None:
                    continue
                owner = component(root, path)
                if owner is None or owner == comp:
                    continue
                edges += 1
                if owner not in ALLOWED[comp]:
                    bad.append(f"{os.path.relpath(lists, root)}: names {word} of {owner}, "
                               f"which {comp} may not use")
    return bad, edges


def cmake_path(root, here, word):
    """word of a CMakeLists.txt in folder here as a path under root, when
    it names a source or header (a glob of them too); else None."""
    if not word.endswith(SOURCES + (".*",)) or word.startswith(("$<", "http")):
        return None
    for var in ("CMAKE_SOURCE_DIR", "PROJECT_SOURCE_DIR"):
        word = word.replace("${%s}" % var, root)
    for var in ("CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR"):
        word = word.replace("${%s}" % var, here)
    if "${" in word:
        return None
    path = os.path.normpath(os.path.join(here, word))
    return path if path.startswith(os.path.join(root, "")) else None


def self_test():
    """A packer file that includes analysis's header must be caught, and
    one that includes the model's must not; so must two headers of one
    name, but for twins; and a CMakeLists.txt that compiles another
    component's source against the table, by either spelling, but not one
    that names its own or an allowed component's."""
    import tempfile
    cases = [
        ([("analysis/analysis.h", ""), ("model/op.h", ""),
          ("packer/good.c", '#include "op.h"\n'),
          ("packer/bad.c", '#include <stdio.h>\n#include "analysis.h"\n')], 1),
        ([("packer/image.h", ""), ("run/image.h", ""), ("run/run.c", "")], 1),
        ([("python/include/torchneuron/register.h", ""),
          ("runtime/include/torchneuron/register.h", "")], 0),
        ([("prelink/format.c", ""), ("runtime/boot/boot.c", ""), ("lsp/lsp.c", ""),
          ("runtime/boot/CMakeLists.txt", "set(s ${CMAKE_SOURCE_DIR}/prelink/format.c\n"
                                          "  ${CMAKE_CURRENT_SOURCE_DIR}/boot.c)\n"),
          ("codegen/CMakeLists.txt", "add_library(c x.c ../prelink/format.c) # ../lsp/no.c\n"),
          ("prelink/CMakeLists.txt", "file(GLOB h ${PROJECT_SOURCE_DIR}/lsp/*.h)\n")], 2),
    ]
    for files, want in cases:
        with tempfile.TemporaryDirectory() as root:
            for path, text in files:
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as f:
                    f.write(text)
            got = check(root)
        if got != want:
            print(f"self-test: {[p for p, _ in files]}: expected {want} findings, got {got}")
            return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    return 1 if check(os.path.abspath(sys.argv[1])) else 0


if __name__ == "__main__":
    sys.exit(main())
