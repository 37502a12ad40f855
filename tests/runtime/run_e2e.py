"""End-to-end runtime tests on the host: the example kernels (examples/ops)
are built into host libraries with the host runtime and a wrapper from
codegen, run with q7-run --target=host, and their outputs compared with
values computed here, independently, in Python.

  run_e2e.py build WORK  --cxx C++ --gen GEN_WRAPPER --include DIR --rtlib LIB --examples DIR
  run_e2e.py build-q7cc WORK --q7cc Q7CC --examples DIR   (CXX=q7cc, host profile)
  run_e2e.py gnu-images WORK --q7cc Q7CC --examples DIR   (gnu, --q7-multicore images)
  run_e2e.py build-gnu WORK --q7cc Q7CC --examples DIR    (gnu images, checked, to run)
  run_e2e.py CASE  WORK  --run Q7RUN [--target emulated]

The first builds the libraries by hand (c++, codegen's wrapper, the host
runtime); build-q7cc builds the same CMake project the way a user would,
and the cases then run against either.
"""
import argparse
import array
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npytool  # noqa: E402

OPS_SCHEMAS = [
    "relu_forward(Tensor t_in) -> Tensor",
    "relu_tcm(Tensor t_in) -> Tensor",
    "affine(Tensor x, long long offset, double scale, float shift, Scalar floor) -> Tensor",
    "spmd_rows(Tensor x) -> Tensor",
    "scale_by_table(Tensor x) -> Tensor",
]
OPS_SOURCES = ["relu.cpp", "relu_tcm.cpp", "affine.cpp", "spmd.cpp", "table.cpp"]


def sh(argv, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write("command failed: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr))
        sys.exit(1)
    return r


def build_lib(a, out, sources, schemas, defines=()):
    objs = []
    flags = ["-std=c++14", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror", "-I" + a.include]
    flags += ["-D" + d for d in defines]
    for src in sources:
        obj = os.path.join(a.work, os.path.basename(out) + "." + src + ".o")
        sh([a.cxx] + flags + ["-c", os.path.join(a.examples, src), "-o", obj])
        objs.append(obj)
    wrapper = os.path.join(a.work, os.path.basename(out) + ".wrapper.cpp")
    sh([a.gen, wrapper, "--int64=long"] + schemas)
    wobj = wrapper + ".o"
    sh([a.cxx] + flags + ["-c", wrapper, "-o", wobj])
    sh([a.cxx, "-shared", "-o", out] + objs + [wobj, a.rtlib, "-lpthread"])


def do_build(a):
    os.makedirs(a.work, exist_ok=True)
    build_lib(a, os.path.join(a.work, "libops.so"), OPS_SOURCES, OPS_SCHEMAS)
    build_lib(a, os.path.join(a.work, "libdeep.so"), ["deep.cpp"],
              ["deep_sum(Tensor x, long long depth) -> Tensor"], ["STACK_SIZE=2097152"])


def cmake_build(a, build, toolchain, extra=(), targets=()):
    env = dict(os.environ, Q7_TOOLCHAIN=toolchain)
    sh(["cmake", "-S", a.examples, "-B", build, "-DCMAKE_CXX_COMPILER=" + a.q7cc,
        "-DCMAKE_BUILD_TYPE=Release"] + list(extra), env=env)
    sh(["cmake", "--build", build] + [x for t in targets for x in ("--target", t)], env=env)


def do_build_q7cc(a):
    cmake_build(a, a.work, "host")


def do_build_gnu(a):
    cmake_build(a, a.work, "gnu")
    for lib in ("libops.so", "libdeep.so"):
        entry = check_image(os.path.join(a.work, lib))
        if not 0x84000000 <= entry < 0x86000000:
            fail("%s: entry 0x%x is outside the single core's window" % (lib, entry))


def readelf(args, path):
    return subprocess.run(["xtensa-lx106-elf-readelf"] + args + [path], capture_output=True,
                          text=True, check=True).stdout


def check_image(path):
    """A device image: ELF entry is _start, which is q7_entry, and the only
    dynamic relocations are R_XTENSA_RELATIVE (the prelinker's contract)."""
    head = readelf(["-h"], path)
    entry = int(head.split("Entry point address:")[1].split()[0], 16)
    syms = {}
    for line in readelf(["-sW"], path).splitlines():
        f = line.split()
        if len(f) >= 8 and f[7] in ("_start", "q7_entry"):
            syms[f[7]] = int(f[1], 16)
    if syms.get("_start") != entry or syms.get("q7_entry") != entry:
        fail("%s: entry 0x%x, _start/q7_entry %r" % (path, entry, syms))
    for line in readelf(["-rW"], path).splitlines():
        f = line.split()
        if len(f) >= 3 and f[2].startswith("R_XTENSA") and f[2] != "R_XTENSA_RELATIVE":
            fail("%s: dynamic relocation %s" % (path, line))
    return entry


def do_gnu_images(a):
    """The multicore build (the single one is checked by build-gnu)."""
    multi = os.path.join(a.work, "multi")
    cmake_build(a, multi, "gnu", ["-DCMAKE_SHARED_LINKER_FLAGS=--q7-multicore"], ["ops"])
    with open(os.path.join(multi, "libops.so")) as f:
        lines = f.read().split()
    if lines[:2] != ["q7cc-multicore", "1"] or len(lines) != 10:
        fail("libops.so is not a manifest of 8 images: %r" % lines)
    for i, name in enumerate(lines[2:]):
        entry = check_image(os.path.join(multi, name))
        base = 0x84000000 + i * 0x200000
        if not base <= entry < base + 0x200000:
            fail("%s: entry 0x%x is outside core %d's window" % (name, entry, i))
    if a.run:  # the eight images, each on its core, on the emulated target
        a.case, a.target = "multi-run", "emulated"
        c = Case(a)
        c.ops = os.path.join(multi, "libops.so")
        rows, cols = 17, 3
        x = list(range(rows * cols))
        npytool.write(c.path("x.npy"), "<i4", (rows, cols), x)
        _, (_, _, got) = c.run(c.ops, "spmd_rows", [c.path("x.npy")], ["--cores=8"])
        check_eq("spmd_rows on 8 emulated images", got,
                 [x[r * cols + k] + r * 1000 + k * 10 + r % 8 for r in range(rows) for k in range(cols)])


class Case:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.work, a.case)
        os.makedirs(self.work, exist_ok=True)
        self.ops = os.path.join(a.work, "libops.so")
        self.deep = os.path.join(a.work, "libdeep.so")

    def path(self, name):
        return os.path.join(self.work, name)

    def run(self, lib, op, args, opts=(), expect_ok=True):
        out = self.path("out.npy")
        if os.path.exists(out):
            os.unlink(out)
        argv = [self.a.run, "-v", "--target=" + self.a.target] + list(opts) + [lib, op] + [str(x) for x in args] + ["-o", out]
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode < 0:
            fail("q7-run crashed (signal %d): %s\n%s" % (-r.returncode, " ".join(argv), r.stderr))
        if expect_ok and r.returncode != 0:
            fail("q7-run failed: %s\n%s" % (" ".join(argv), r.stderr))
        if not expect_ok and r.returncode == 0:
            fail("q7-run succeeded but should not have: %s" % " ".join(argv))
        if not expect_ok and os.path.exists(out):
            fail("a failed run left %s" % out)
        return r, (npytool.read(out) if expect_ok else None)


def fail(msg):
    sys.stderr.write("FAIL: " + msg + "\n")
    sys.exit(1)


def alive(pid):
    """Running (a zombie waiting to be reaped is not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def descendants(pid):
    """Every process under pid, from /proc (each thread's children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % p)
        except OSError:
            continue
        for t in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def check_eq(what, got, want):
    if got != want:
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                fail("%s: element %d is %r, expected %r" % (what, i, g, w))
        fail("%s: %r, expected %r" % (what, got, want))


def rand_f32(n, seed):
    rng = random.Random(seed)
    return [npytool.f32(rng.randint(-4000, 4000) / 16.0) for _ in range(n)]


def case_elementwise(c):
    vals = rand_f32(7 * 13, 1)
    npytool.write(c.path("x.npy"), "<f4", (7, 13), vals)
    r, (descr, shape, got) = c.run(c.ops, "relu_forward", [c.path("x.npy")])
    check_eq("shape", (descr, shape), ("<f4", (7, 13)))
    check_eq("relu", got, [v if v > 0 else 0.0 for v in vals])
    if "switched stack: no" not in r.stderr:
        fail("relu_forward should run on the core's own stack: " + r.stderr)
    if c.a.target != "host":
        return  # the NPY reader is host code, the same for every target
    # The same numbers from NPY v2 and v3 files, and a Fortran-ordered one.
    for version in (2, 3):
        npytool.write(c.path("x%d.npy" % version), "<f4", (7, 13), vals, version=version)
        _, (_, _, got) = c.run(c.ops, "relu_forward", [c.path("x%d.npy" % version)])
        check_eq("relu v%d" % version, got, [v if v > 0 else 0.0 for v in vals])
    fvals = [vals[i * 13 + j] for j in range(13) for i in range(7)]  # column-major
    npytool.write(c.path("xf.npy"), "<f4", (7, 13), fvals, fortran=True)
    _, (_, shape, got) = c.run(c.ops, "relu_forward", [c.path("xf.npy")])
    check_eq("relu fortran", got, [v if v > 0 else 0.0 for v in vals])


def case_tcm_chunks(c):
    n = 5000  # five chunks of up to 1024 per core at one core
    vals = rand_f32(n, 2)
    want = [v if v > 0 else 0.0 for v in vals]
    npytool.write(c.path("x.npy"), "<f4", (n,), vals)
    for cores in ((1, 3, 8) if c.a.target == "host" else (1, 8)):
        _, (descr, shape, got) = c.run(c.ops, "relu_tcm", [c.path("x.npy")],
                                       ["--cores=%d" % cores])
        check_eq("shape", (descr, shape), ("<f4", (n,)))
        check_eq("relu_tcm on %d cores" % cores, got, want)


def case_scalar_params(c):
    vals = rand_f32(64, 3)
    npytool.write(c.path("x.npy"), "<f4", (8, 8), vals)
    f = npytool.f32
    for offset, scale, shift, floor in ((3, 0.5, -1.25, -2.0), (-7, 2, 0.75, 5)):
        _, (_, shape, got) = c.run(c.ops, "affine", [c.path("x.npy"), offset, scale, shift, floor])
        want = []
        for v in vals:
            y = f(f(f(v * scale) + shift) + offset)
            want.append(y if y >= floor else f(floor))
        check_eq("affine(%s)" % ((offset, scale, shift, floor),), got, want)
        check_eq("shape", shape, (8, 8))


def case_spmd8(c):
    rows, cols = 21, 5
    x = [random.Random(4).randint(-100, 100) for _ in range(rows * cols)]
    npytool.write(c.path("x.npy"), "<i4", (rows, cols), x)
    r, (descr, shape, got) = c.run(c.ops, "spmd_rows", [c.path("x.npy")], ["--cores=8"])
    check_eq("shape", (descr, shape), ("<i4", (rows, cols)))
    want = [x[r_ * cols + c_] + r_ * 1000 + c_ * 10 + r_ % 8 for r_ in range(rows) for c_ in range(cols)]
    check_eq("spmd_rows on 8 cores", got, want)
    if c.a.target != "host":
        return
    # The same through a multicore manifest: core i runs its own image.
    import shutil
    names = []
    for i in range(8):
        names.append("ops_cpu%d.so" % i)
        shutil.copy(c.ops, c.path(names[-1]))
    with open(c.path("ops.manifest"), "w") as f:
        f.write("q7cc-multicore 1\n" + "\n".join(names) + "\n")
    _, (_, _, got) = c.run(c.path("ops.manifest"), "spmd_rows", [c.path("x.npy")], ["--cores=8"])
    check_eq("spmd_rows on 8 images", got, want)
    with open(c.path("short.manifest"), "w") as f:
        f.write("q7cc-multicore 1\n" + "\n".join(names[:2]) + "\n")
    r, _ = c.run(c.path("short.manifest"), "spmd_rows", [c.path("x.npy")], ["--cores=8"],
                 expect_ok=False)
    if "names 2 images, 8 cores asked" not in r.stderr:
        fail("short manifest: " + r.stderr)
    # Fewer cores take more rows each.
    _, (_, _, got) = c.run(c.ops, "spmd_rows", [c.path("x.npy")], ["--cores=3"])
    check_eq("spmd_rows on 3 cores", got,
             [x[r_ * cols + c_] + r_ * 1000 + c_ * 10 + r_ % 3 for r_ in range(rows) for c_ in range(cols)])


def case_deep_stack(c):
    vals = [float(i % 7) for i in range(3000)]
    npytool.write(c.path("x.npy"), "<f4", (3000,), vals)
    r, (_, shape, got) = c.run(c.deep, "deep_sum", [c.path("x.npy"), 2000])
    check_eq("deep_sum", (shape, got), ((1,), [float(sum(vals[:2000]))]))
    if "switched stack: yes" not in r.stderr:
        fail("deep_sum should have run on a switched stack: " + r.stderr)


def case_ctor_table(c):
    vals = rand_f32(40, 5)
    npytool.write(c.path("x.npy"), "<f4", (40,), vals)
    _, (_, _, got) = c.run(c.ops, "scale_by_table", [c.path("x.npy")])
    f = npytool.f32
    check_eq("scale_by_table", got, [f(v * (i % 16 * (i % 16) + 1)) for i, v in enumerate(vals)])


def expect_error(c, lib, op, args, needle, opts=()):
    r, _ = c.run(lib, op, args, opts, expect_ok=False)
    if needle not in r.stderr:
        fail("expected %r in the error, got: %s" % (needle, r.stderr))


def case_errors(c):
    x = c.path("x.npy")
    npytool.write(x, "<f4", (2, 3), [1, -2, 3, -4, 5, -6])
    # a missing op lists the ops there are
    r, _ = c.run(c.ops, "nope", [x], expect_ok=False)
    for op in ("no op 'nope'", "relu_forward(Tensor t_in)", "affine(Tensor x, int offset",
               "spmd_rows"):
        if op not in r.stderr:
            fail("the missing-op error should mention %r: %s" % (op, r.stderr))
    # ... and name the library it looked in, first
    if ("q7-run: error: %s: no op 'nope'" % c.ops) not in r.stderr:
        fail("the missing-op error should name %s first: %s" % (c.ops, r.stderr))
    expect_error(c, c.ops, "relu_forward", [], "expected 1 argument, got 0")
    # what is missing from the command line, before the usage
    for argv, needle in (([c.ops, "relu_forward", x], "no output file: add -o OUT.npy"),
                         ([c.ops], "no op: give the library and the op"),
                         ([], "no library: give the library and the op"),
                         (["--list"], "--list takes one library, not 0 arguments")):
        r = subprocess.run([c.a.run] + argv, capture_output=True, text=True)
        if r.returncode != 2 or ("q7-run: error: " + needle) not in r.stderr \
                or "usage: q7-run" not in r.stderr:
            fail("q7-run %s: expected status 2, %r and the usage: %d %s"
                 % (" ".join(argv), needle, r.returncode, r.stderr))
    expect_error(c, c.ops, "relu_forward", [x, x], "expected 1 argument, got 2")
    expect_error(c, c.ops, "relu_forward", [3], "argument 1 (t_in): expected Tensor, got int")
    expect_error(c, c.ops, "affine", [x, x, 1, 1, 1], "argument 2 (offset): expected int, got tensor")
    expect_error(c, c.ops, "affine", [x, 1, "true", 1, 1], "argument 3 (scale): expected float, got bool")
    expect_error(c, c.ops, "affine", [x, 0.5, 1, 1, 1], "expected int, got float")
    # a kernel that asks for another dtype stops with a message
    xi = c.path("xi.npy")
    npytool.write(xi, "<i4", (2, 3), [1, 2, 3, 4, 5, 6])
    expect_error(c, c.ops, "relu_forward", [xi], "accessor: argument 1 (t_in): tensor is int32, not float32")
    expect_error(c, c.ops, "affine", [xi, 1, 1, 1, 1],
                 "expected x.scalar_type() == torch::kFloat")
    # .npy files q7 cannot take
    u4 = c.path("u4.npy")
    with open(u4, "wb") as f:
        hdr = "{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }"
        hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + b"\0" * 8)
    expect_error(c, c.ops, "relu_forward", [u4], "unsupported dtype")
    with open(x, "rb") as f:
        good = f.read()
    for name, data, needle in (
            ("short.npy", good[:-5], "data is shorter"),
            ("magic.npy", b"XNUMPY" + good[6:], "bad magic"),
            ("key.npy", good.replace(b"'shape'", b"'shapx'"), "unknown key in the header"),
            ("header.npy", good.replace(b"False", b"Fals "), "fortran_order is not True or False"),
            ("cut.npy", good[:8], "not a .npy file"),
            ("version.npy", good[:6] + b"\x09" + good[7:], "unsupported .npy version")):
        with open(c.path(name), "wb") as f:
            f.write(data)
        expect_error(c, c.ops, "relu_forward", [c.path(name)], needle)
    # shapes over the limits: 9 dims, or a dim over 65535
    big = c.path("nine.npy")
    npytool.write(big, "<f4", (1,) * 9, [1.0])
    expect_error(c, c.ops, "relu_forward", [big], "more than 8 dimensions")
    huge = c.path("huge.npy")  # 65535^8 elements claimed, 4 bytes given
    with open(huge, "wb") as f:
        hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % ", ".join(["65535"] * 8)
        hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + b"\0" * 4)
    expect_error(c, c.ops, "relu_forward", [huge], "data is shorter")
    expect_error(c, c.ops, "relu_tcm", [x], "more than 2^31-1 elements",
                 ["--out-shape=65535,65535,65535"])
    # Under 2^32 but past what 32-bit strides can step over.
    expect_error(c, c.ops, "relu_tcm", [x], "more than 2^31-1 elements",
                 ["--out-shape=65535,65535"])
    expect_error(c, c.ops, "relu_tcm", [x], "is over 2147483647", ["--out-shape=2147483648"])
    # the result must fit the destination given
    expect_error(c, c.ops, "relu_forward", [x], "does not fit the destination", ["--out-shape=4,4"])
    # not a library, and a literal that is neither
    expect_error(c, x, "relu_forward", [x], "cannot load" if c.a.target == "host" else "")
    expect_error(c, c.ops, "relu_forward", ["abc"], "not a .npy file nor a literal")


def case_large(c):
    """Past the 65,535 per dimension of earlier versions: a 1-D
    tensor of 70,000 floats on every target; on the host also a 4096x4096
    float tensor in and out, its output from the kernel's own heap arena
    (64 MiB, the old arena's whole default)."""
    vals = rand_f32(70000, 3)
    npytool.write(c.path("wide.npy"), "<f4", (70000,), vals)
    _, (_, shape, got) = c.run(c.ops, "relu_tcm", [c.path("wide.npy")])
    check_eq("shape", shape, (70000,))
    check_eq("relu 70000", got, [v if v > 0 else 0.0 for v in vals])
    if c.a.target != "host":
        return  # bench/torch times the device sizes on the emulated core
    n = 4096 * 4096
    block = array.array("f", rand_f32(4096, 4))
    big = array.array("f", block * (n // 4096))
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4096, 4096), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(c.path("big.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        big.tofile(f)
    out = c.path("out.npy")  # read here: npytool would make 16M Python floats
    argv = [c.a.run, "--target=host", c.ops, "relu_forward", c.path("big.npy"), "-o", out]
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        fail("q7-run failed: %s\n%s" % (" ".join(argv), r.stderr))
    with open(out, "rb") as f:
        data = f.read()
    got = array.array("f")
    got.frombytes(data[len(data) - 4 * n:])
    want = array.array("f", (v if v > 0 else 0.0 for v in block))
    for row in (0, 1234, 4095):
        if got[row * 4096:(row + 1) * 4096] != want:
            fail("relu 4096x4096: row %d differs" % row)


def case_list(c):
    """q7-run --list: the ops in TorchScript, in the namespace of the
    library's name (libops.so: ops), listed by the library itself on the
    target; the same for a multicore manifest (core 0's image)."""
    want = sorted("ops::" + s.replace("long long", "int").replace("double", "float")
                  for s in OPS_SCHEMAS)
    for lib in (c.ops, os.path.join(c.a.work + "-mc", "libops.so")):
        if not os.path.exists(lib):
            continue
        r = subprocess.run([c.a.run, "--list", "--target=" + c.a.target, lib],
                           capture_output=True, text=True)
        if r.returncode != 0 or sorted(r.stdout.splitlines()) != want:
            fail("q7-run --list %s: status %d\n%s%s" % (lib, r.returncode, r.stdout, r.stderr))
    r = subprocess.run([c.a.run, "--list", "--target=" + c.a.target, c.path("none.so")],
                       capture_output=True, text=True)
    if r.returncode != 1 or "none.so: cannot read" not in r.stderr:
        fail("q7-run --list of a missing file: %d %s" % (r.returncode, r.stderr))


CASES = {
    "list": case_list,
    "elementwise": case_elementwise,
    "tcm_chunks": case_tcm_chunks,
    "scalar_params": case_scalar_params,
    "spmd8": case_spmd8,
    "deep_stack": case_deep_stack,
    "ctor_table": case_ctor_table,
    "errors": case_errors,
    "large": case_large,
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("work")
    for opt in ("cxx", "gen", "include", "rtlib", "examples", "run", "q7cc"):
        p.add_argument("--" + opt)
    p.add_argument("--target", default="host")
    a = p.parse_args()
    if a.case == "build":
        do_build(a)
    elif a.case == "build-q7cc":
        do_build_q7cc(a)
    elif a.case == "gnu-images":
        do_gnu_images(a)
    elif a.case == "build-gnu":
        do_build_gnu(a)
    else:
        CASES[a.case](Case(a))


if __name__ == "__main__":
    main()
