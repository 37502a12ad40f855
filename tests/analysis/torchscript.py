#!/usr/bin/python3
"""e2e.analysis.torchscript: every schema q7cc shows parses with PyTorch.

Gathers the schemas the suite prints, through the real tools:
  - q7cc --q7-print-schema (text and JSON) of every kernel source of the
    suite: the analysis fixtures (lint fixtures too: their good kernels),
    the codegen, e2e, runtime and emulated kernels, and the examples; and
    of the .schemas files among the fixtures (schema text);
  - the get_func_schema strings of the codegen goldens, and of the wrappers
    that real host links of the examples write (--q7-emit-wrapper), in the
    library's namespace or NEURON_LIBRARY's;
  - the -v notes of those compiles and links ("# q7cc: kernel/op SCHEMA");
  - the schemas q7-run lists when an op is not found (the runtime's own
    reading of the embedded ones);
and feeds each to torch._C.parse_schema: it must parse, with the same
name, the same number of arguments, only Tensor/Scalar/int/float/bool
types and one Tensor result. Runs with Debian's /usr/bin/python3, the
interpreter that has torch (python3-torch).

  torchscript.py ROOT BIN WORK
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
from run_e2e import fail  # noqa: E402

TYPES = {"Tensor", "Scalar", "int", "float", "bool"}
TORCH_TYPES = {"Tensor", "number", "int", "float", "bool"}  # torch calls Scalar's type "number"


def run(argv, cwd=None, ok=(0,)):
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if r.returncode not in ok:
        fail("%s: exit %d\n%s%s" % (" ".join(argv), r.returncode, r.stdout, r.stderr))
    return r


def main():
    try:
        import torch
    except ImportError as e:  # a missing tool is a failure, never a skip
        fail("%s cannot import torch (%s): install python3-torch" % (sys.executable, e))
    root, bindir, work = sys.argv[1:4]
    q7cc = os.path.join(bindir, "q7cc")
    q7run = os.path.join(bindir, "q7-run")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env_q7 = [q7cc, "--q7-toolchain=host"]
    schemas = []  # (where, text)

    # 1. --q7-print-schema of every kernel source, text and JSON alike.
    sources = sorted(
        set(glob.glob(os.path.join(root, "tests/analysis/fixtures/**/*.cpp"), recursive=True))
        | set(glob.glob(os.path.join(root, "tests/*/kernels/*.cpp")))
        | set(glob.glob(os.path.join(root, "tests/e2e/**/*.cpp"), recursive=True))
        | set(glob.glob(os.path.join(root, "examples/**/*.cpp"), recursive=True)))
    # Not kernel sources: shape files for the real libtorch that include
    # only an <ATen/ops/...> header (the torch tests compile them in seconds
    # that way: stale_shape.cpp, mismatch_shape.cpp, ...); q7cc's own torch
    # headers do not provide those.
    def real_libtorch_only(src):
        with open(src, encoding="utf-8", errors="replace") as f:
            return re.search(r"#include\s*<ATen/ops/", f.read()) is not None
    sources = [s for s in sources if not real_libtorch_only(s)]
    lint_dir = os.path.join(root, "tests/analysis/fixtures/lint")
    # Sources whose build gives them macros (tests/e2e/package/CMakeLists.txt)
    # and include folders (tests/emulated/CMakeLists.txt: the boot program's simcall.h).
    defines = {os.path.join(root, "tests/e2e/package/bias.cpp"): ["-DE2E_BIAS=0.5f"],
               os.path.join(root, "tests/emulated/kernels/host_files.cpp"):
                   ["-I" + os.path.join(root, "runtime/boot")]}
    per_source = 0
    for src in sources:
        bad = src.startswith(lint_dir) or src.endswith("syntax_error.cpp")
        inc = ["-I" + d for d in glob.glob(os.path.join(root, "tests/e2e/proj/include"))]
        inc += defines.get(src, [])
        text = run(env_q7 + ["--q7-print-schema"] + inc + [src], cwd=os.path.dirname(src),
                   ok=(0, 1) if bad else (0,)).stdout.splitlines()
        js = run(env_q7 + ["--q7-print-schema", "--q7-format=json"] + inc + [src],
                 cwd=os.path.dirname(src), ok=(0, 1) if bad else (0,)).stdout
        from_json = [op["schema"] for op in json.loads(js)["ops"] if not op["by_name_only"]]
        if text != from_json:
            fail("%s: text %r, JSON %r" % (src, text, from_json))
        for op in json.loads(js)["ops"]:
            for p in op["params"] if not op["by_name_only"] else []:
                if p["type"] not in TYPES:
                    fail("%s: JSON type %r" % (src, p["type"]))
        schemas += [(os.path.relpath(src, root), s) for s in text]
        per_source += len(text)
    if per_source < 20:
        fail("only %d schemas from %d sources: the sources were not read" % (per_source, len(sources)))

    # ... and of schema text files (the vendor's grammar, and the golden).
    for f in sorted(glob.glob(os.path.join(root, "tests/analysis/fixtures/*.schemas"))):
        text = run(env_q7 + ["--q7-print-schema", f]).stdout.splitlines()
        if not text:
            fail("%s: no schemas" % f)
        schemas += [(os.path.relpath(f, root), s) for s in text]

    # 2. The strings the wrappers embed: the goldens, and real host links.
    embedded = re.compile(r'case \d+: return "([^"]*)";')
    for g in sorted(glob.glob(os.path.join(root, "tests/codegen/golden/*.cpp"))):
        body = open(g).read().split("get_func_schema", 1)[-1]
        schemas += [(os.path.relpath(g, root), s) for s in embedded.findall(body)]
    libs = []
    note = re.compile(r"^# q7cc: (kernel|op) (.*)$", re.M)
    for name, ns, srcs in (("ops", "ops", glob.glob(os.path.join(root, "examples/ops/*.cpp"))),
                           ("relu", "my_ops",
                            glob.glob(os.path.join(root, "examples/neuron_sample/*.cpp")))):
        d = os.path.join(work, name)
        os.makedirs(d)
        objs = []
        for s in sorted(srcs):
            o = os.path.join(d, os.path.basename(s) + ".o")
            r = run(env_q7 + ["-v", "-c", "-fPIC", s, "-o", o])
            schemas += [(s + " (-v)", m[1]) for m in note.findall(r.stderr)]
            objs.append(o)
        lib = os.path.join(d, "lib%s.so" % name)
        wrapper = os.path.join(d, "wrapper.cpp")
        r = run(env_q7 + ["-v", "-shared", "--q7-emit-wrapper=" + wrapper, "-o", lib] + objs)
        found = embedded.findall(open(wrapper).read().split("get_func_schema", 1)[-1])
        if not found:
            fail("%s: no get_func_schema strings" % wrapper)
        shown = [m[1] for m in note.findall(r.stderr) if m[0] == "op"]
        if shown != found:
            fail("%s: -v shows %r, the wrapper has %r" % (lib, shown, found))
        for s in found:
            if not s.startswith(ns + "::"):
                fail("%s: %r is not in namespace %s" % (wrapper, s, ns))
        schemas += [(wrapper, s) for s in found] + [(lib + " (-v)", s) for s in shown]
        libs.append((lib, found))

    # 3. The runtime lists the schemas it read when an op is not found.
    for lib, found in libs:
        r = run([q7run, "--target=host", lib, "no_such_op", "-o", os.path.join(work, "none.npy")], ok=(1,))
        m = re.search(r"its ops: (.*)", r.stderr)
        if not m:
            fail("%s: no op list in %r" % (lib, r.stderr))
        listed = [s.strip() for s in m.group(1).split(";")]
        if listed != found:
            fail("%s: the runtime lists %r, the wrapper has %r" % (lib, listed, found))
        schemas += [(lib + " (q7-run)", s) for s in listed]

    # Every one through PyTorch's own schema parser.
    for where, s in schemas:
        try:
            fs = torch._C.parse_schema(s)
        except RuntimeError as e:
            fail("%s: %r does not parse: %s" % (where, s, str(e).splitlines()[0]))
        name = s.split("(", 1)[0]
        if fs.name != name or fs.overload_name:
            fail("%s: %r parses as op %r" % (where, s, fs.name))
        nargs = s.split("(", 1)[1].split(")", 1)[0].count(",") + (0 if "()" in s else 1)
        if len(fs.arguments) != nargs:
            fail("%s: %r has %d arguments for torch" % (where, s, len(fs.arguments)))
        for a in fs.arguments:
            if str(a.type) not in TORCH_TYPES:
                fail("%s: %r: argument %s is %s" % (where, s, a.name, a.type))
        if [str(r.type) for r in fs.returns] != ["Tensor"]:
            fail("%s: %r returns %s" % (where, s, [str(r.type) for r in fs.returns]))
    print("torchscript: %d schemas parse (%d from sources)" % (len(schemas), per_source))


if __name__ == "__main__":
    main()
