#!/usr/bin/env python3
"""q7-run --target=emulated end to end.

  run_emu.py CASE WORK --bin STAGE_BIN --fixture DIR --examples DIR --npytool DIR

Cases on the frame-ABI fixture image (tests/emulated/fixture): boot, errors,
prelink_cli, session_fixture. 'build' builds the runtime's example kernels
and kernels/session_ops.cpp with q7cc (gnu profile, single core and
--q7-multicore; host profile), and the example cases run them on the
emulated core and on the host and require the same numbers (and the
numbers this script computes itself). weak_refs builds its own kernel
(kernels/weak_refs.cpp) both ways. The session_* cases make many calls in
one emulated session (emu_calls) and compare each with q7-run on the host.
The helpers shared with the host tests come from tests/runtime/run_e2e.py."""
import argparse
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
from run_e2e import alive, check_eq, cmake_build, fail, rand_f32  # noqa: E402


def sh(argv, env=None):
    r = subprocess.run(argv, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail("command failed: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr))
    return r


class Ctx:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.work, a.case)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.run_bin = os.path.join(a.bin, "q7-run")
        self.fk = os.path.join(a.fixture, "fk.so")
        self.fk_mc = os.path.join(a.fixture, "fk_mc.so")

    def path(self, name):
        return os.path.join(self.work, name)

    def run(self, target, lib, op, args, opts=(), expect_ok=True, env=None):
        out = self.path("out.npy")
        if os.path.exists(out):
            os.unlink(out)
        argv = [self.run_bin, "-v", "--target=" + target] + list(opts) + [lib, op]
        argv += [str(x) for x in args] + ["-o", out]
        e = dict(os.environ, Q7CC_EMU_STATS="1", **(env or {}))
        r = subprocess.run(argv, capture_output=True, text=True, env=e, timeout=300)
        if r.returncode < 0:
            fail("q7-run crashed (signal %d): %s\n%s" % (-r.returncode, " ".join(argv), r.stderr))
        if expect_ok and r.returncode != 0:
            fail("q7-run failed: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr))
        if not expect_ok:
            if r.returncode == 0:
                fail("q7-run succeeded but should not have: %s" % " ".join(argv))
            if os.path.exists(out):
                fail("a failed run left %s" % out)
            return r, None
        return r, npytool.read(out)

    def expect_error(self, lib, op, args, needles, opts=(), env=None):
        r, _ = self.run("emulated", lib, op, args, opts, expect_ok=False, env=env)
        for n in needles if isinstance(needles, (list, tuple)) else [needles]:
            if n not in r.stderr:
                fail("expected %r in the error, got: %s" % (n, r.stderr))
        return r


def stat_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("q7-run: emulated core")]


# ---- the fixture image: the boot path on its own ----

def case_boot(c):
    x = [random.Random(1).randint(-1000, 1000) for _ in range(6 * 7)]
    npytool.write(c.path("x.npy"), "<i4", (6, 7), x)
    # One core, output in the heap arena (no dst).
    r, (descr, shape, got) = c.run("emulated", c.fk, "scale", [c.path("x.npy"), 3])
    check_eq("scale", (descr, shape, got), ("<i4", (6, 7), [v * 3 for v in x]))
    if len(stat_lines(r.stderr)) != 1:
        fail("expected one core's statistics: " + r.stderr)
    # An image with no .packed.so beside it (a -g build) runs as it is.
    plain = c.path("plain.so")
    shutil.copyfile(os.path.join(c.a.fixture, "fk.so"), plain)
    _, (_, _, got) = c.run("emulated", plain, "scale", [c.path("x.npy"), 4])
    check_eq("scale from an unpacked image", got, [v * 4 for v in x])
    # Three cores over one dst: each writes its share, plus its id.
    _, (_, _, got) = c.run("emulated", c.fk, "scale", [c.path("x.npy"), -2],
                           ["--cores=3", "--out-shape=6,7", "--out-dtype=int32"])
    check_eq("scale on 3 cores", got, [v * -2 + i % 3 for i, v in enumerate(x)])
    # Eight per-core images (a multicore manifest), each at its own window.
    r, (_, _, got) = c.run("emulated", c.fk_mc, "scale", [c.path("x.npy"), 5],
                           ["--cores=8", "--out-shape=6,7", "--out-dtype=int32"])
    check_eq("scale on 8 per-core images", got, [v * 5 + i % 8 for i, v in enumerate(x)])
    if len(stat_lines(r.stderr)) != 8:
        fail("expected eight cores' statistics: " + r.stderr)
    # The same eight cores run three at a time and merged.
    _, (_, _, got) = c.run("emulated", c.fk_mc, "scale", [c.path("x.npy"), 5],
                           ["--cores=8", "--out-shape=6,7", "--out-dtype=int32"],
                           env={"Q7CC_EMU_JOBS": "3"})
    check_eq("scale on 8 per-core images in parallel", got, [v * 5 + i % 8 for i, v in enumerate(x)])
    # The kernel's output reaches stdout.
    r, (_, _, got) = c.run("emulated", c.fk, "hello", [c.path("x.npy")])
    if "hello from the emulated core\nfd 3\n" not in r.stdout:
        fail("the kernel's output did not reach stdout: %r" % r.stdout)
    check_eq("hello", got, x)
    # 20 KiB of the core's own stack: the boot program measures it.
    r, (_, _, got) = c.run("emulated", c.fk, "stack", [20])
    check_eq("stack", got, [20 * 21 // 2])
    used = int(stat_lines(r.stderr)[0].split("stack ")[1].split()[0])
    if not 20 * 1024 <= used < 24 * 1024:
        fail("stack high-water mark %d for 20 KiB of frames" % used)
    # Instruction counting under -icount: a loop of 2n instructions, plus
    # the dispatch around it (under 1500 instructions); exact, so the two
    # runs differ by exactly the loop's extra instructions.
    counts = []
    for n in (1000, 100000):
        r, _ = c.run("emulated", c.fk, "count", [n], env={"Q7CC_EMU_ICOUNT": "1"})
        line = stat_lines(r.stderr)[0]
        if " instructions" not in line:
            fail("no instruction count: " + line)
        counts.append(int(line.split(" instructions")[0].split()[-1]))
    if not 2000 <= counts[0] <= 3500 or counts[1] - counts[0] != 2 * 99000:
        fail("instruction counts %r for loops of 2*1000 and 2*100000" % counts)


def case_errors(c):
    x = c.path("x.npy")
    npytool.write(x, "<i4", (4,), [1, 2, 3, 4])
    # An exception names the image, the cause in the ISA's words and what
    # it means (every cause, not only the common ones: 15 is a load from
    # an address where the core has no memory).
    packed = os.path.join(c.a.fixture, "fk.packed.so")
    c.expect_error(c.fk, "ill", [], [packed + ": the kernel crashed: illegal instruction in op_ill+0x",
                                     "(the core took an exception",
                                     "EXCCAUSE 0 (IllegalInstruction: an instruction the core does not have)",
                                     "in the linked image)"])
    c.expect_error(c.fk, "wild", [], [packed + ": the kernel crashed: invalid memory access in ",
                                      "(the core took an exception",
                                      "EXCCAUSE 15 (LoadStorePIFAddrError: a load or store at an "
                                      "address with no memory)", "address 0x20000000"])
    c.expect_error(c.fk, "fail", [], "fail: asked to fail")
    # Cores that write one element differently: chained, the last one wins
    # (as on the host); in parallel, the race is reported. Element 1, never
    # written, holds a fresh output's pattern (0xa5 bytes, docs/runtime.md).
    mc = ["--cores=8", "--out-shape=2", "--out-dtype=int32"]
    _, (_, _, got) = c.run("emulated", c.fk_mc, "race", [], mc)
    check_eq("race, chained", got, [7, -0x5a5a5a5b])
    c.expect_error(c.fk_mc, "race", [], ["cores 1 and 2 both wrote byte 0",
                                         "a race between SPMD cores"], mc, env={"Q7CC_EMU_JOBS": "4"})
    c.expect_error(c.fk, "stack", [100], "overflowed the core's 64 KiB stack")
    r = c.expect_error(c.fk, "spin", [], "timed out after 1.5 s", ["--timeout=1.5"])
    # q7-run stopped by a signal stops its QEMU too.
    tmp = c.path("tmp")
    os.makedirs(tmp)

    def qemus():
        found = []
        for pid in os.listdir("/proc"):
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if pid.isdigit() and tmp.encode() in cmd and b"qemu" in cmd:
                found.append(pid)
        return found
    p = subprocess.Popen([c.run_bin, "--target=emulated", c.fk, "spin", "-o", c.path("o.npy")],
                         env=dict(os.environ, TMPDIR=tmp), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    for _ in range(200):
        if qemus():
            break
        time.sleep(0.05)
    else:
        p.kill()
        fail("QEMU did not start")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=20)
    for _ in range(40):
        if not qemus():
            break
        time.sleep(0.05)
    else:
        fail("QEMU is still running after q7-run was stopped: %r" % qemus())
    if p.returncode != -signal.SIGTERM:
        fail("q7-run should die by SIGTERM, got %r" % p.returncode)
    # Killed outright (no handler runs) once the call is on the core (the
    # statistics say QEMU booted after the call was sent), q7-run leaves no
    # QEMU behind: its guard (support/proc.h) ends it, not the boot
    # program's own time limit (the time-out + 2 s: an hour here, so that
    # QEMU gone at all within the wait below, which only detects a hang,
    # is the guard's doing).
    p = subprocess.Popen([c.run_bin, "--target=emulated", "--timeout=3600", c.fk, "spin", "-o",
                          c.path("o.npy")], env=dict(os.environ, TMPDIR=tmp, Q7CC_EMU_STATS="1"),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    if "QEMU booted" not in line:
        p.kill()
        fail("no boot statistics from q7-run: %r" % line)
    p.kill()
    p.stderr.close()
    p.wait(timeout=20)
    t0 = time.time()
    while qemus() and time.time() - t0 < 60:
        time.sleep(0.05)
    if qemus():
        fail("an orphaned QEMU did not stop: %r" % qemus())
    c.expect_error(c.fk, "scale", [x, 2], "qemu-system-misc",
                   env={"Q7CC_QEMU": "/nonexistent/qemu-system-xtensa"})
    # Damaged images are refused by the prelinker, before QEMU starts.
    with open(os.path.join(c.a.fixture, "fk.packed.so"), "rb") as f:
        good = f.read()
    lib = c.path("bad.so")
    with open(lib, "wb") as f:
        f.write(b"not an image")
    with open(c.path("bad.packed.so"), "wb") as f:
        f.write(good[:len(good) // 3])
    c.expect_error(lib, "scale", [x, 2], "bad.packed.so")
    # An image linked for the host is not an Xtensa image.
    c.expect_error(sys.executable, "scale", [x, 2], "not")


def case_prelink_cli(c):
    pl = os.path.join(c.a.bin, "q7-prelink")
    packed = os.path.join(c.a.fixture, "fk.packed.so")
    out = c.path("fk.q7pl")
    sh([pl, "-o", out, packed])
    with open(out, "rb") as f:
        single = f.read()
    if single[:4] != b"Q7PL" or int.from_bytes(single[8:12], "little") != 0x84000000:
        fail("single-core placement: %r" % single[:16])
    sh([pl, "--core=5", "-o", out, packed])
    with open(out, "rb") as f:
        if int.from_bytes(f.read()[8:12], "little") != 0x84000000 + 5 * 0x200000:
            fail("--core=5 placement")
    sh([os.path.join(c.a.bin, "q7cc"), "--q7-prelink", "-o", out, packed])
    r = sh([pl, "-v", "--base=0x60100000", "-o", out, packed])
    if "placed at 0x60100000" not in r.stderr:
        fail("-v: " + r.stderr)
    r = sh([pl, "--check", out])
    if "base 0x60100000" not in r.stdout or "ok" not in r.stdout or "a chosen base" not in r.stdout:
        fail("--check: " + r.stdout)
    with open(out, "rb") as f:
        data = bytearray(f.read())
    data[-1] ^= 1
    with open(c.path("flipped.q7pl"), "wb") as f:
        f.write(data)
    r = subprocess.run([pl, "--check", c.path("flipped.q7pl")], capture_output=True, text=True)
    if r.returncode != 1 or "prelinked image checksum mismatch" not in r.stderr:
        fail("--check of a damaged image: %d %s" % (r.returncode, r.stderr))
    # Made-up fields under a header checksum that matches (they
    # passed before), and a window base that is not the window's.
    sh([pl, "--core=2", "-o", out, packed])
    with open(out, "rb") as f:
        good = f.read()
    for what, off, value, needle in (
            ("core 0x8000", 40, 0x8000, "core field"),
            ("flags 0xfffffff8", 24, 0xfffffff8, "flags are not one of"),
            ("reserved", 52, 7, "non-zero reserved bytes"),
            ("base", 8, 0x84000000, "not that window's")):
        data = bytearray(good)
        data[off:off + 4] = value.to_bytes(4, "little")
        if off == 8:  # base, link base and entry moved together
            for o in (32, 20):
                v = int.from_bytes(data[o:o + 4], "little") - 2 * 0x200000
                data[o:o + 4] = v.to_bytes(4, "little")
        data[44:48] = zlib.crc32(bytes(data[:44])).to_bytes(4, "little")
        bad = c.path("fields.q7pl")
        with open(bad, "wb") as f:
            f.write(data)
        r = subprocess.run([pl, "--check", bad], capture_output=True, text=True)
        if r.returncode != 1 or "q7-prelink: error: %s: " % bad not in r.stderr or needle not in r.stderr:
            fail("--check, %s: %d %s" % (what, r.returncode, r.stderr))
    for argv, code, needle in (
            ([pl, "--core=8", "-o", out, packed], 2, "cores are 0..7"),
            ([pl, "--core=1", "--base=0x60000000", "-o", out, packed], 2, "exclude each other"),
            ([pl, "-o", out], 2, "no input image"),
            ([pl, packed], 2, "no output"),
            ([pl, "--base=zz", "-o", out, packed], 2, "not an address"),
            ([pl, "-e", "nope", "-o", c.path("never"), packed], 1, "no global symbol 'nope'"),
            ([pl, "-o", c.path("never"), c.path("missing.so")], 1, "cannot read")):
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode != code or needle not in r.stderr:
            fail("%s: exit %d, %s" % (" ".join(argv), r.returncode, r.stderr))
    if os.path.exists(c.path("never")):
        fail("a failed prelink left its output")


# ---- the runtime's example kernels: emulated == host ----

def case_build(c):
    a = argparse.Namespace(examples=c.a.examples, q7cc=os.path.join(c.a.bin, "q7cc"))
    ex = os.path.join(c.a.work, "examples")
    shutil.rmtree(ex, ignore_errors=True)
    cmake_build(a, os.path.join(ex, "gnu"), "gnu")
    cmake_build(a, os.path.join(ex, "gnu-mc"), "gnu", ["-DCMAKE_SHARED_LINKER_FLAGS=--q7-multicore"],
                ["ops"])
    cmake_build(a, os.path.join(ex, "host"), "host")
    # The session kernels, the same three ways.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "session_ops.cpp")
    q7cc = os.path.join(c.a.bin, "q7cc")
    for variant, tc, extra in (("gnu", "gnu", []), ("gnu-mc", "gnu", ["--q7-multicore"]),
                               ("host", "host", [])):
        d = os.path.join(ex, "session", variant)
        os.makedirs(d)
        env = dict(os.environ, Q7_TOOLCHAIN=tc)
        sh([q7cc, "-O2", "-c", src, "-o", os.path.join(d, "s.o")], env=env)
        sh([q7cc, "-shared"] + extra + ["-o", os.path.join(d, "libsess.so"), os.path.join(d, "s.o")],
           env=env)


def lib(c, variant, name):
    return os.path.join(c.a.work, "examples", variant, name)


def both(c, variant, name, op, args, opts=()):
    """Runs op on the emulated core and on the host; the same numbers."""
    re, emu = c.run("emulated", lib(c, variant, name), op, args, opts)
    rh, host = c.run("host", lib(c, "host", name), op, args, opts)
    check_eq("%s: emulated vs host" % op, emu, host)
    return re, emu


def case_elementwise(c):
    vals = rand_f32(7 * 13, 1)
    npytool.write(c.path("x.npy"), "<f4", (7, 13), vals)
    r, (descr, shape, got) = both(c, "gnu", "libops.so", "relu_forward", [c.path("x.npy")])
    check_eq("relu", (descr, shape, got), ("<f4", (7, 13), [v if v > 0 else 0.0 for v in vals]))
    if "switched stack: no" not in r.stderr:
        fail("relu_forward should run on the core's own stack: " + r.stderr)


def case_tcm_chunks(c):
    n = 5000
    vals = rand_f32(n, 2)
    npytool.write(c.path("x.npy"), "<f4", (n,), vals)
    for cores in (1, 3):
        _, (_, _, got) = both(c, "gnu", "libops.so", "relu_tcm", [c.path("x.npy")],
                              ["--cores=%d" % cores])
        check_eq("relu_tcm on %d cores" % cores, got, [v if v > 0 else 0.0 for v in vals])
    _, (_, _, got) = both(c, "gnu-mc", "libops.so", "relu_tcm", [c.path("x.npy")], ["--cores=8"])
    check_eq("relu_tcm on 8 per-core images", got, [v if v > 0 else 0.0 for v in vals])


def case_scalar_params(c):
    vals = rand_f32(64, 3)
    npytool.write(c.path("x.npy"), "<f4", (8, 8), vals)
    f = npytool.f32
    for offset, scale, shift, floor in ((3, 0.5, -1.25, -2.0), (-7, 2, 0.75, 5)):
        _, (_, _, got) = both(c, "gnu", "libops.so", "affine",
                              [c.path("x.npy"), offset, scale, shift, floor])
        want = []
        for v in vals:
            y = f(f(f(v * scale) + shift) + offset)
            want.append(y if y >= floor else f(floor))
        check_eq("affine", got, want)


def case_spmd8(c):
    rows, cols = 21, 5
    x = [random.Random(4).randint(-100, 100) for _ in range(rows * cols)]
    npytool.write(c.path("x.npy"), "<i4", (rows, cols), x)
    r, (_, shape, got) = both(c, "gnu-mc", "libops.so", "spmd_rows", [c.path("x.npy")], ["--cores=8"])
    want = [x[i * cols + j] + i * 1000 + j * 10 + i % 8 for i in range(rows) for j in range(cols)]
    check_eq("spmd_rows on 8 cores", got, want)
    if len(stat_lines(r.stderr)) != 8:
        fail("expected 8 emulated cores: " + r.stderr)


def case_deep_stack(c):
    vals = [float(i % 7) for i in range(3000)]
    npytool.write(c.path("x.npy"), "<f4", (3000,), vals)
    r, (_, shape, got) = both(c, "gnu", "libdeep.so", "deep_sum", [c.path("x.npy"), 2000])
    check_eq("deep_sum", (shape, got), ((1,), [float(sum(vals[:2000]))]))
    if "switched stack: yes" not in r.stderr:
        fail("deep_sum should have run on a switched stack: " + r.stderr)


def case_ctor_table(c):
    """A table built by a static constructor: the runtime runs the image's
    constructors on the core. On 8 cores the kernel, which returns a tensor
    of its own instead of writing get_dst_tensor(), gets the device's rule:
    the returned tensor is ignored (the destination stays as it was: the
    fresh-output pattern, docs/runtime.md), and
    q7-run says so once."""
    vals = rand_f32(40, 5)
    npytool.write(c.path("x.npy"), "<f4", (40,), vals)
    f = npytool.f32
    want = [f(v * (i % 16 * (i % 16) + 1)) for i, v in enumerate(vals)]
    _, (_, _, got) = both(c, "gnu", "libops.so", "scale_by_table", [c.path("x.npy")])
    check_eq("scale_by_table", got, want)
    opts = ["--cores=8", "--out-shape=40", "--out-dtype=float32"]
    for target, variant in (("emulated", "gnu-mc"), ("host", "host")):
        r, (_, _, got) = c.run(target, lib(c, variant, "libops.so"), "scale_by_table",
                               [c.path("x.npy")], opts)
        # the destination as it started: a fresh output's pattern (NaN)
        if len(got) != 40 or not all(math.isnan(v) for v in got):
            fail("scale_by_table on 8 cores (%s): %s, not the fresh output's NaNs" % (target, got))
        warnings = [ln for ln in r.stderr.splitlines() if "warning:" in ln]
        if len(warnings) != 1 or "other than get_dst_tensor() on several cores" not in warnings[0]:
            fail("scale_by_table on 8 cores (%s): want one warning: %s" % (target, r.stderr))


def case_neuron_sample(c):
    """examples/neuron_sample, unmarked (its NEURON_LIBRARY block names the
    kernel), built by q7cc for the device; the numbers this test computes
    (the host build of the same project is the runtime tests' business)."""
    a = argparse.Namespace(examples=os.path.join(os.path.dirname(c.a.examples), "neuron_sample"),
                           q7cc=os.path.join(c.a.bin, "q7cc"))
    cmake_build(a, c.path("gnu"), "gnu")
    vals = rand_f32(50, 6)
    npytool.write(c.path("x.npy"), "<f4", (50,), vals)
    _, (descr, shape, got) = c.run("emulated", c.path("gnu/librelu.so"), "relu_forward",
                                   [c.path("x.npy")])
    check_eq("neuron_sample relu", (descr, shape, got),
             ("<f4", (50,), [v if v > 0 else 0.0 for v in vals]))


def dyn_relocs(path):
    """The dynamic relocation types of an image, by readelf -r."""
    readelf = shutil.which("xtensa-lx106-elf-readelf") or shutil.which("readelf")
    if not readelf:
        fail("no readelf to read the relocations of " + path)
    out = sh([readelf, "-r", "-W", path]).stdout
    return [w for line in out.splitlines() for w in line.split() if w.startswith("R_XTENSA_")]


def case_weak_refs(c):
    """A kernel with an undefined weak hook function and an undefined weak
    variable (kernels/weak_refs.cpp), built by q7cc for the device and the
    host. The image names both symbols in its relocations; q7cc packs it
    without -l (the symbol table goes), so the packer binds them to 0 and
    the emulated core skips the hook and uses the default bias, as the
    host does."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "weak_refs.cpp")
    q7cc = os.path.join(c.a.bin, "q7cc")
    for tc in ("gnu", "host"):
        env = dict(os.environ, Q7_TOOLCHAIN=tc)
        sh([q7cc, "-c", src, "-o", c.path(tc + ".o")], env=env)
        sh([q7cc, "-shared", "-o", c.path("lib%s.so" % tc), c.path(tc + ".o")], env=env)
    gnu = c.path("libgnu.so")
    # Not blind: the linked image (which the packer never changes) looks
    # the symbols up; the packed one no longer needs to.
    linked = dyn_relocs(gnu)
    for t in ("R_XTENSA_GLOB_DAT", "R_XTENSA_JMP_SLOT", "R_XTENSA_RTLD"):
        if t not in linked:
            fail("the linked image has no %s: %s" % (t, sorted(set(linked))))
    stripped = set(dyn_relocs(c.path("libgnu.stripped.so")))
    if not stripped <= {"R_XTENSA_RELATIVE", "R_XTENSA_NONE"} or "R_XTENSA_NONE" not in stripped:
        fail("the packed image still needs symbols: %s" % sorted(stripped))
    x = [random.Random(7).randint(-1000, 1000) for _ in range(5 * 6)]
    npytool.write(c.path("x.npy"), "<i4", (5, 6), x)
    want = [v * 3 + 7 for v in x]
    # q7-run takes <base>.packed.so beside the .so: q7cc's default output.
    _, (descr, shape, emu) = c.run("emulated", gnu, "scale_with_hook", [c.path("x.npy"), 3])
    _, host = c.run("host", c.path("libhost.so"), "scale_with_hook", [c.path("x.npy"), 3])
    check_eq("weak references: emulated vs host", (descr, shape, emu), host)
    check_eq("weak references", (descr, shape, emu), ("<i4", (5, 6), want))
    # The unpacked image (nothing beside it) binds the same way, from its
    # symbol table.
    plain = os.path.join(c.work, "plain")
    os.makedirs(plain)
    shutil.copyfile(gnu, os.path.join(plain, "libweak.so"))
    _, (_, _, got) = c.run("emulated", os.path.join(plain, "libweak.so"), "scale_with_hook",
                           [c.path("x.npy"), 3])
    check_eq("weak references, unpacked image", got, want)


# ---- persistent sessions: many calls in one QEMU ----

def sess_lib(c, variant):
    return os.path.join(c.a.work, "examples", "session", variant, "libsess.so")


def qemus_under(tmp):
    """QEMU processes whose command line names a file under tmp."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if tmp.encode() in cmd and b"qemu" in cmd:
            found.append(int(pid))
    return found


def running(pid):
    """Whether a thread of pid is running (state R)."""
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/stat" % (pid, task)) as f:
                if f.read().split(") ")[1][0] == "R":
                    return True
    except OSError:
        pass
    return False


class Session:
    """Runs a list of calls through emu_calls in one session, in TMPDIR=tmp.
    A call is (op, args, opts, expect): expect None for success (the output
    is compared with q7-run --target=host on host_lib), a list for success
    with these numbers (and no host comparison), or a string the error must
    contain. "reopen" is passed through."""

    count = 0

    def __init__(self, c, lib, host_lib, cores=1, timeout=None):
        self.c, self.lib, self.host_lib, self.cores, self.timeout = c, lib, host_lib, cores, timeout
        Session.count += 1
        self.tag = "s%d" % Session.count
        self.tmp = c.path(self.tag + "-tmp")
        os.makedirs(self.tmp)

    def env(self):
        # emu_calls lives in the build tree: q7cc's files are in stage/.
        return dict(os.environ, TMPDIR=self.tmp, Q7CC_PREFIX=os.path.dirname(self.c.a.bin),
                    Q7CC_EMU_STATS="1")

    def argv(self, script):
        a = [self.c.a.emu_calls, "--cores=%d" % self.cores]
        if self.timeout:
            a.append("--timeout=%g" % self.timeout)
        return a + [self.lib, script]

    def script(self, calls):
        lines, outs = [], []
        for i, call in enumerate(calls):
            if call in ("reopen",) or isinstance(call, str):
                lines.append(call)
                outs.append(None)
                continue
            op, args, opts, _ = call
            out = self.c.path("%s-out%d.npy" % (self.tag, i))
            lines.append(" ".join([op] + [str(x) for x in args] + list(opts) + ["-o", out]))
            outs.append(out)
        path = self.c.path(self.tag + "-script.txt")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path, outs

    def run(self, calls):
        script, outs = self.script(calls)
        r = subprocess.run(self.argv(script), capture_output=True, text=True, env=self.env(), timeout=600)
        self.stderr = r.stderr
        if r.returncode != 0:
            fail("emu_calls failed (%d): %s\n%s%s" % (r.returncode, script, r.stdout, r.stderr))
        results = [parse_call_line(l) for l in r.stdout.splitlines() if l.startswith("call ")]
        real = [(call, out) for call, out in zip(calls, outs) if out]
        if len(results) != len(real):
            fail("%d calls, %d results:\n%s%s" % (len(real), len(results), r.stdout, r.stderr))
        for (call, out), res in zip(real, results):
            self.check(call, out, res, r.stderr)
        leftover = qemus_under(self.tmp)
        if leftover:
            fail("QEMU left running after the session closed: %r" % leftover)
        for res in results:
            if res["pid"] and alive(res["pid"]):
                fail("QEMU %d of the session is still there" % res["pid"])
        left = [os.path.join(d, f) for d, _, fs in os.walk(self.tmp) for f in fs]
        if left or os.listdir(self.tmp):
            fail("the session left files: %r %r" % (left, os.listdir(self.tmp)))
        return results

    def check(self, call, out, res, stderr):
        op, args, opts, expect = call
        what = "%s %s" % (op, " ".join(str(a) for a in args))
        if isinstance(expect, str):
            if res["ok"] or expect not in res["message"]:
                fail("%s: expected an error with %r, got %r\n%s" % (what, expect, res, stderr))
            if os.path.exists(out):
                fail("%s: a failed call wrote %s" % (what, out))
            return
        if not res["ok"]:
            fail("%s: failed in the session: %s\n%s" % (what, res["message"], stderr))
        with open(out, "rb") as f:
            got = f.read()
        if isinstance(expect, list):
            check_eq(what, npytool.read(out)[2], expect)
            return
        host = out + ".host.npy"
        argv = [self.c.run_bin, "--target=host"]
        if self.cores > 1:
            argv.append("--cores=%d" % self.cores)
        sh(argv + list(opts) + [self.host_lib, op] + [str(a) for a in args] + ["-o", host])
        with open(host, "rb") as f:
            want = f.read()
        if got != want:
            check_eq(what + ": session vs host", npytool.read(out), npytool.read(host))
            fail("%s: the session's file differs from the host's" % what)


def parse_call_line(line):
    head, _, message = line.partition(": ")
    w = head.split()
    return {"n": int(w[1]), "ok": w[2] == "ok", "secs": float(w[3]),
            "boots": int(w[4].split("=")[1]), "pid": int(w[5].split("=")[1]),
            "message": message}


def session_inputs(c):
    """Named inputs of several shapes and dtypes."""
    names = {}

    def put(name, descr, shape, vals):
        names[name] = c.path(name + ".npy")
        npytool.write(names[name], descr, shape, vals)
    put("x64", "<f4", (64, 64), rand_f32(4096, 11))
    put("y64", "<f4", (64, 64), rand_f32(4096, 12))
    put("x1000", "<f4", (1000,), rand_f32(1000, 13))
    put("x7", "<f4", (7,), rand_f32(7, 14))
    rng = random.Random(15)
    put("xi", "<i4", (5, 6), [rng.randint(-1000, 1000) for _ in range(30)])
    put("xbig", "<i4", (20,), [rng.randint(-1000, 1000) for _ in range(20)])
    return names


def same_qemu(results, boots):
    """Every call ran in one QEMU, booted boots times."""
    pids = {r["pid"] for r in results if r["ok"]}
    if len(pids) != 1 or any(r["boots"] != boots for r in results if r["ok"]):
        fail("expected one QEMU (boot %d) for all the calls: %r" % (boots, results))


def case_session_calls(c):
    """One core: calls that alternate ops, shapes and dtypes in one session,
    each bit for bit as on the host; a TORCH_CHECK failure and an unknown op
    followed by good calls; the image's state lives on between calls."""
    x = session_inputs(c)
    s = Session(c, sess_lib(c, "gnu"), sess_lib(c, "host"))
    relu = [v if v > 0 else 0.0 for v in npytool.read(x["x64"])[2]]
    results = s.run([
        ("relu_flat", [x["x64"]], [], relu),
        ("identity", [x["xi"]], [], None),
        ("calls_seen", [x["x7"]], [], [100]),
        ("relu_flat", [x["x1000"]], [], None),
        ("scale_checked", [x["xi"], 3, 100], [], None),
        ("scale_checked", [x["xbig"], 3, 5], [], "session_ops.cpp:42: expected x.numel() <= limit"),
        ("scale_checked", [x["xi"], -2, 100], [], None),
        ("no_such_op", [x["xi"]], [], "no op 'no_such_op'"),
        ("identity", [x["x7"]], [], None),
        ("relu_flat", [x["y64"]], [], None),
        ("calls_seen", [x["x7"]], [], [101]),
        ("relu_flat", [x["x64"]], ["--out-shape=64,64", "--out-dtype=float32"], None),
        ("identity", [x["x64"]], ["--out-shape=64,64"], None),
        ("relu_flat", [x["x64"]], [], None),
    ])
    same_qemu(results, 1)


def case_session_cores8(c):
    """Eight per-core images in one session, and one image placed at three
    cores' windows: the host's numbers, call after call."""
    x = session_inputs(c)
    s = Session(c, sess_lib(c, "gnu-mc"), sess_lib(c, "host"), cores=8)
    results = s.run([
        ("relu_flat", [x["x64"]], [], None),
        ("identity", [x["xi"]], [], None),
        ("scale_checked", [x["xbig"], 3, 5], [], "core 0: scale_checked: "),
        ("scale_checked", [x["xi"], 3, 100], [], None),
        ("calls_seen", [x["x7"]], ["--out-shape=1", "--out-dtype=int32"], [100]),
        ("relu_flat", [x["x1000"]], [], None),
        ("calls_seen", [x["x7"]], ["--out-shape=1", "--out-dtype=int32"], [101]),
        ("relu_flat", [x["y64"]], [], None),
    ])
    same_qemu(results, 1)
    s = Session(c, sess_lib(c, "gnu"), sess_lib(c, "host"), cores=3)
    same_qemu(s.run([
        ("relu_flat", [x["x1000"]], [], None),
        ("identity", [x["x64"]], [], None),
        ("relu_flat", [x["x64"]], [], None),
    ]), 1)


def case_session_timeout(c):
    """A kernel that spins: the call times out naming the op and the core,
    QEMU is stopped, and the next call boots a new one (the image's state
    starts afresh); an explicit reopen too. Nothing is left behind."""
    x = session_inputs(c)
    s = Session(c, sess_lib(c, "gnu"), sess_lib(c, "host"), timeout=60)
    r = s.run([
        ("relu_flat", [x["x64"]], [], None),
        ("calls_seen", [x["x7"]], [], [100]),
        ("spin_forever", [x["x7"]], ["--timeout=1"],
         "spin_forever: timed out after 1 s on the emulated core (QEMU stopped)"),
        ("calls_seen", [x["x7"]], [], [100]),
        ("relu_flat", [x["x64"]], [], None),
        "reopen",
        ("identity", [x["xi"]], [], None),
    ])
    if [x["boots"] for x in r] != [1, 1, 1, 2, 2, 1] or r[2]["pid"] != 0:
        fail("boots and pids around the time-out: %r" % r)
    if r[0]["pid"] == r[3]["pid"] or r[3]["pid"] != r[4]["pid"] or r[5]["pid"] == r[4]["pid"]:
        fail("QEMUs around the time-out: %r" % r)
    s = Session(c, sess_lib(c, "gnu-mc"), sess_lib(c, "host"), cores=8)
    r = s.run([
        ("relu_flat", [x["x64"]], [], None),
        ("spin_forever", [x["x7"]], ["--timeout=1"],
         "spin_forever: timed out after 1 s on emulated core 0 of 8 (QEMU stopped)"),
        ("relu_flat", [x["y64"]], [], None),
    ])
    if [x["boots"] for x in r] != [1, 1, 2]:
        fail("boots around the 8-core time-out: %r" % r)


def case_session_fixture(c):
    """The frame-ABI fixture: an exception and a stack overflow end the
    session's QEMU (its memory may be damaged) and the next call boots a
    new one; a kernel error does not."""
    x = c.path("x.npy")
    vals = [random.Random(16).randint(-1000, 1000) for _ in range(12)]
    npytool.write(x, "<i4", (3, 4), vals)
    s = Session(c, c.fk, None)
    r = s.run([
        ("scale", [x, 3], [], [v * 3 for v in vals]),
        ("fail", [], [], "fail: asked to fail"),
        ("scale", [x, 4], [], [v * 4 for v in vals]),
        ("ill", [], [], "EXCCAUSE 0 (IllegalInstruction: "),
        ("scale", [x, 5], [], [v * 5 for v in vals]),
        ("stack", [100], [], "overflowed the core's 64 KiB stack"),
        ("scale", [x, 6], [], [v * 6 for v in vals]),
        ("stack", [20], [], [20 * 21 // 2]),
    ])
    if [x["boots"] for x in r] != [1, 1, 1, 1, 2, 2, 3, 3]:
        fail("boots around the exception and the overflow: %r" % r)
    # The stack's high-water mark is each call's own, not the deepest yet.
    s = Session(c, c.fk, None)
    s.run([("stack", [n], [], [n * (n + 1) // 2]) for n in (20, 5, 20)])
    used = [int(l.split("stack ")[1].split()[0]) for l in stat_lines(s.stderr.replace("emu_calls:", "q7-run:"))]
    if len(used) != 3 or not (20 * 1024 <= used[0] < 24 * 1024 and 5 * 1024 <= used[1] < 8 * 1024
                              and used[2] == used[0]):
        fail("stack high-water marks %r for 20, 5 and 20 KiB" % used)
    # Eight per-core images: each core adds its id to its share.
    s = Session(c, c.fk_mc, None, cores=8)
    s.run([("scale", [x, 2], ["--out-shape=3,4", "--out-dtype=int32"],
            [v * 2 + i % 8 for i, v in enumerate(vals)])] * 3)


def case_session_orphan(c):
    """A session's QEMU does not outlive its process: killed outright while
    the session is idle, QEMU reads end of file and exits; SIGTERM during a
    call stops QEMU, and the process dies by the signal leaving nothing."""
    x = session_inputs(c)
    s = Session(c, sess_lib(c, "gnu"), sess_lib(c, "host"), timeout=60)
    script, _ = s.script([("relu_flat", [x["x64"]], [], None), "pause 60"])
    p = subprocess.Popen(s.argv(script), stdout=subprocess.PIPE, text=True,
                         env=s.env())
    first = parse_call_line(p.stdout.readline())
    if not first["ok"] or p.stdout.readline().strip() != "pause":
        p.kill()
        fail("the session did not start: %r" % first)
    p.kill()
    p.wait()
    t0 = time.time()
    while alive(first["pid"]) and time.time() - t0 < 10:
        time.sleep(0.05)
    if alive(first["pid"]):
        fail("QEMU outlived its killed session by 10 s")
    # The session's files are its process's to remove; killed outright, it
    # could not. Then SIGTERM in the middle of a call:
    shutil.rmtree(s.tmp)
    os.makedirs(s.tmp)
    script, _ = s.script([("relu_flat", [x["x64"]], [], None), ("spin_forever", [x["x7"]], [], "")])
    p = subprocess.Popen(s.argv(script), stdout=subprocess.PIPE, text=True,
                         env=s.env())
    first = parse_call_line(p.stdout.readline())
    # Once QEMU computes for a while, the second call is on the core (an
    # idle session's QEMU sleeps in a read).
    t0, busy = time.time(), 0
    while busy < 6 and time.time() - t0 < 30:
        busy = busy + 1 if running(first["pid"]) else 0
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=30)
    if p.returncode != -signal.SIGTERM:
        fail("the session's process should die by SIGTERM, got %r" % p.returncode)
    if alive(first["pid"]) or qemus_under(s.tmp):
        fail("QEMU is still running after SIGTERM")
    if os.listdir(s.tmp):
        fail("files left after SIGTERM: %r" % os.listdir(s.tmp))


def case_damaged(c):
    """Images damaged where the prelinker cannot see it (code and data, not
    the headers it checks): each run ends within its time-out, without a
    signal, with a result or an error naming the image. Deterministic: 300
    mutants from one seed."""
    rnd = random.Random(13)
    with open(c.fk, "rb") as f:
        so = f.read()
    with open(os.path.join(c.a.fixture, "fk.packed.so"), "rb") as f:
        packed = bytearray(f.read())
    x = c.path("x.npy")
    npytool.write(x, "<i4", (3, 4), list(range(12)))
    outcomes = {"ok": 0, "refused": 0}
    for i in range(300):
        m = bytearray(packed)
        for _ in range(rnd.choice((1, 2, 4, 16))):
            k = rnd.randrange(256, len(m))  # past the ELF header and section table
            m[k] = rnd.randrange(256)
        lib = c.path("m%02d.so" % i)
        with open(lib, "wb") as f:
            f.write(so)
        with open(c.path("m%02d.packed.so" % i), "wb") as f:
            f.write(m)
        out = c.path("m.npy")
        if os.path.exists(out):
            os.unlink(out)
        r = subprocess.run([c.run_bin, "--target=emulated", "--timeout=5", lib, "scale", x, "3",
                            "-o", out], capture_output=True, text=True, timeout=60)
        if r.returncode < 0:
            fail("mutant %d: q7-run died by signal %d: %s" % (i, -r.returncode, r.stderr))
        if r.returncode == 0:
            outcomes["ok"] += 1
            continue
        if r.returncode != 1 or os.path.exists(out):
            fail("mutant %d: status %d, output left: %s" % (i, r.returncode, r.stderr))
        err = [l for l in r.stderr.splitlines() if l.startswith("q7-run: error:")]
        if not err or ("m%02d." % i) not in err[0]:
            fail("mutant %d: the error does not name the image: %s" % (i, r.stderr))
        outcomes["refused"] += 1
    print("damaged images: %(ok)d ran, %(refused)d refused naming the image" % outcomes)


def case_semihosting(c):
    """A kernel that opens host files through QEMU's semihosting
    (kernels/host_files.cpp): by default the open is refused (EACCES)
    and no file appears; --semihosting-files (or Q7CC_SEMIHOSTING_FILES=1)
    lets it write and read, so the check is not blind."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "host_files.cpp")
    q7cc = os.path.join(c.a.bin, "q7cc")
    env = dict(os.environ, Q7_TOOLCHAIN="gnu")
    boot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runtime", "boot")
    sh([q7cc, "-I", boot, "-c", src, "-o", c.path("hf.o")], env=env)
    sh([q7cc, "-shared", "-o", c.path("libhf.so"), c.path("hf.o")], env=env)
    lib = c.path("libhf.so")
    victim, there = c.path("victim"), c.path("there")
    with open(there, "w") as f:
        f.write("host file\n")
    for name, path in (("victim", victim), ("there", there)):
        p = list(path.encode()) + [0]
        npytool.write(c.path(name + ".npy"), "|u1", (len(p),), p)
    creat, rdonly = 0o1101, 0  # O_WRONLY | O_CREAT | O_TRUNC, as QEMU passes them on
    for how, opts, env in (("by default", [], None), ("Q7CC_SEMIHOSTING_FILES=0", [],
                           {"Q7CC_SEMIHOSTING_FILES": "0"})):
        _, (_, _, got) = c.run("emulated", lib, "host_open", [c.path("victim.npy"), creat], opts,
                               env=env)
        if got[0] != -1 or got[1] != 13 or os.path.exists(victim):
            fail("%s: the kernel opened a host file for writing: %s" % (how, got))
        _, (_, _, got) = c.run("emulated", lib, "host_open", [c.path("there.npy"), rdonly], opts,
                               env=env)
        if got[0] != -1 or got[1] != 13:
            fail("%s: the kernel opened a host file for reading: %s" % (how, got))
    for how, opts, env in (("--semihosting-files", ["--semihosting-files"], None),
                           ("Q7CC_SEMIHOSTING_FILES=1", [], {"Q7CC_SEMIHOSTING_FILES": "1"})):
        _, (_, _, got) = c.run("emulated", lib, "host_open", [c.path("victim.npy"), creat], opts,
                               env=env)
        with open(victim) as f:
            wrote = f.read()
        if got[0] < 0 or got[2] != 2 or wrote != "q7":
            fail("%s: the kernel could not write a host file: %s, %r" % (how, got, wrote))
        os.unlink(victim)
        _, (_, _, got) = c.run("emulated", lib, "host_open", [c.path("there.npy"), rdonly], opts,
                               env=env)
        if got[0] < 0:
            fail("%s: the kernel could not open a host file: %s" % (how, got))
    # QEMU has no descriptor of the session's but its socket (3 and 4):
    # the tensors go straight into the core's RAM (docs/emulated.md), so
    # there is no data file a kernel could close or grow. Descriptor 5,
    # where one was, is no file: the write fails, the call goes on, and
    # so does the next, under a profile too.
    npytool.write(c.path("x.npy"), "<i4", (4,), [1, 2, 3, 4])
    for fd in (99, 5):
        _, (_, _, got) = c.run("emulated", lib, "close_fd", [c.path("x.npy"), fd])
        check_eq("close_fd %d" % fd, got, [2, 3, 4, 5])
    dst = ["--out-shape=3", "--out-dtype=int32"]
    for opts in ([], dst, dst + ["--profile=" + c.path("p.folded")]):
        _, (_, _, got) = c.run("emulated", lib, "grow_data", [c.path("x.npy"), 256 << 20], opts)
        check_eq("grow_data %s" % opts, got, [-1, -1, 9])  # EBADF


def case_trap(c):
    """__builtin_trap in a kernel (kernels/trap.cpp): one line naming the
    BREAK and its pc in the linked image, which addr2line finds in the
    kernel (was: 'a level-2 interrupt ... at pc 0x00000000'); the same
    kernel not trapping runs."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "trap.cpp")
    q7cc = os.path.join(c.a.bin, "q7cc")
    env = dict(os.environ, Q7_TOOLCHAIN="gnu")
    sh([q7cc, "-c", src, "-o", c.path("trap.o")], env=env)
    sh([q7cc, "-shared", "-o", c.path("libtrap.so"), c.path("trap.o")], env=env)
    npytool.write(c.path("x.npy"), "<i4", (4,), [1, 2, 3, 4])
    _, (_, _, got) = c.run("emulated", c.path("libtrap.so"), "trap", [c.path("x.npy"), 0])
    check_eq("trap, not trapping", got, [0, 0, 0, 0])
    r = c.expect_error(c.path("libtrap.so"), "trap", [c.path("x.npy"), 1],
                       ["libtrap.packed.so: the kernel crashed: __builtin_trap or a breakpoint "
                        "in trap+0x", "(the core stopped at a BREAK instruction "
                        "(__builtin_trap, or a breakpoint) (DEBUGCAUSE 0x", " in the linked image)"])
    at = r.stderr.split(" in the linked image)")[0].rsplit("(", 1)[1]
    func = sh(["xtensa-lx106-elf-addr2line", "-f", "-C", "-e", c.path("libtrap.so"), at])
    if not func.stdout.startswith("trap("):
        fail("the BREAK's pc %s is not in trap: %s" % (at, func.stdout))


def case_memmove(c):
    """The device's memmove (runtime/src/device_memmove.c) against the
    host's, byte for byte, over overlapping and disjoint moves."""
    n = 1024
    npytool.write(c.path("m.npy"), "<i4", (n,), [(i * 2654435761) % (1 << 31) for i in range(n)])
    args = [c.path("m.npy")]
    _, emu = c.run("emulated", lib(c, "session/gnu", "libsess.so"), "moves", args)
    _, host = c.run("host", lib(c, "session/host", "libsess.so"), "moves", args)
    check_eq("moves: emulated vs host", emu, host)
    print("memmove: %d bytes the same on both targets" % (n * 4))


def case_big_moves(c):
    """memcpy, memmove and memset of 64 KiB and more go to the boot
    program's mover (the host moves in the core's RAM, QEMU fills, at the
    host's speed): the same bytes as the host's, moved overlapping in both
    directions and filled across their pieces (1 MiB each), and hardly an
    instruction of the core's for them."""
    n = 786435  # 3 MiB and 12 bytes
    npytool.write(c.path("b.npy"), "<i4", (n,), [(i * 2654435761) % (1 << 31) for i in range(n)])
    args = [c.path("b.npy")]
    r, emu = c.run("emulated", lib(c, "session/gnu", "libsess.so"), "big_moves", args,
                   env={"Q7CC_EMU_ICOUNT": "1"})
    _, host = c.run("host", lib(c, "session/host", "libsess.so"), "big_moves", args)
    check_eq("big_moves: emulated vs host", emu, host)
    line = stat_lines(r.stderr)[0]
    insns = int(line.split(" instructions")[0].split()[-1])
    # About 85,000 with the mover (the 3 MiB destination q7-run leaves to
    # the runtime, zeroed, among its fills); the core's own loops would
    # add about 10 million for these 12 MiB of moves and 5 MiB of fills.
    if insns > 1000000:
        fail("big_moves took %d instructions: the moves were not the mover's" % insns)
    print("big_moves: %d bytes the same on both targets, %d instructions" % (n * 4, insns))


CASES = {
    "boot": case_boot, "errors": case_errors, "prelink_cli": case_prelink_cli,
    "build": case_build, "elementwise": case_elementwise, "tcm_chunks": case_tcm_chunks,
    "scalar_params": case_scalar_params, "spmd8": case_spmd8, "deep_stack": case_deep_stack,
    "ctor_table": case_ctor_table, "neuron_sample": case_neuron_sample,
    "weak_refs": case_weak_refs, "session_calls": case_session_calls,
    "session_cores8": case_session_cores8, "session_timeout": case_session_timeout,
    "session_fixture": case_session_fixture, "session_orphan": case_session_orphan,
    "damaged": case_damaged, "semihosting": case_semihosting,
    "trap": case_trap, "memmove": case_memmove, "big_moves": case_big_moves,
}


def main():
    global npytool
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("work")
    p.add_argument("--bin", required=True)
    p.add_argument("--fixture", required=True)
    p.add_argument("--examples", required=True)
    p.add_argument("--npytool", required=True)
    p.add_argument("--emu-calls", required=True)
    a = p.parse_args()
    sys.path.insert(0, a.npytool)
    import npytool as m
    npytool = m
    CASES[a.case](Ctx(a))


if __name__ == "__main__":
    main()
