"""load() and load_library(): a library built earlier registers in a
fresh process; load() rebuilds only what changed (by the sources' text,
the flags and q7cc) and shows its commands with verbose=True; a failed
build raises BuildError with the compiler's diagnostics; a library
meant for the other target, or a namespace loaded twice, is refused; the
targets are the run engine's rows (_bridge.targets)."""
import os
import shutil
import subprocess
import sys

import pytest
import torch

import libs
from q7cc.torch import custom_op, _bridge, _build


def fresh_python(code, target):
    """code in a new interpreter, which has only load_library."""
    env = dict(os.environ, Q7CC_TORCH_TARGET=target)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_load_library_in_a_fresh_process(target):
    relu = os.path.join(libs.build_directory("relu", target), "librelu.so")
    ints = os.path.join(libs.build_directory("ints", target), "libints.so")
    out = fresh_python(
        "import torch\n"
        "from q7cc.torch import custom_op\n"
        "custom_op.load_library(%r)\n"
        "lib = custom_op.load_library(%r)\n"
        "x = torch.randn(4, 6)\n"
        "assert torch.equal(torch.ops.my_ops.relu_forward(x), torch.relu(x))\n"
        "i = torch.arange(6, dtype=torch.int32)\n"
        "assert torch.equal(torch.ops.ints.iscale(i, 4, False), i * 4)\n"
        "print(lib.target, sorted(op[0] for op in lib.ops))\n" % (relu, ints), target)
    assert out.split()[0] == target
    assert "'ints::iscale'" in out and "'ints::rows_only'" in out


def test_a_damaged_shape_library_is_refused(target, tmp_path):
    """Checked before dlopen, as the compute library is: cut short, its
    segments past the file's end would fault in the loader (SIGBUS)."""
    built = libs.build_directory("relu", target)
    for name in ("librelu.so", "librelu.shape.so"):
        shutil.copy(os.path.join(built, name), tmp_path / name)
    shape = tmp_path / "librelu.shape.so"
    with open(shape, "r+b") as f:
        f.truncate(os.path.getsize(shape) // 2)
    out = fresh_python(
        "from q7cc.torch import custom_op\n"
        "try:\n"
        "    custom_op.load_library(%r)\n"
        "except RuntimeError as e:\n"
        "    print('refused', e)\n" % str(tmp_path / "librelu.so"), target)
    assert out.startswith("refused %s: damaged host library: " % shape), out


def build(tmp, srcs, shape=(), name="again", verbose=True, capfd=None):
    _build.build(name, srcs, shape, str(tmp), False, verbose, "host")
    return capfd.readouterr().err if capfd else ""


def test_rebuilds_only_what_changed(tmp_path, capfd):
    src = tmp_path / "k.cpp"
    shutil.copy(libs.LIBS["params"][0][0], src)
    shape = libs.LIBS["params"][1]  # its object is in the shared cache already
    capfd.readouterr()
    first = build(tmp_path, [str(src)], shape, capfd=capfd)
    assert "-c %s" % src in first and "libagain.so" in first
    # the shape object is the shared cache's: linked, not compiled
    assert "-c %s" % shape[0] not in first and "libagain.shape.so" in first
    # nothing changed: nothing runs
    again = build(tmp_path, [str(src)], shape, capfd=capfd)
    assert "$ " not in again, again
    # a new mtime, the same text: nothing runs
    os.utime(src, None)
    assert "$ " not in build(tmp_path, [str(src)], shape, capfd=capfd)
    # a new comment: that source is compiled, to the same object, which
    # the library has already
    src.write_text(src.read_text() + "\n// changed\n")
    changed = build(tmp_path, [str(src)], shape, capfd=capfd)
    assert "-c %s" % src in changed and "libagain.so: up to date" in changed
    # new code: compiled and the library linked; the shape library is up
    # to date
    src.write_text(src.read_text() + "\nextern const int q7_changed = 1;\n")
    changed = build(tmp_path, [str(src)], shape, capfd=capfd)
    assert "-c %s" % src in changed and "-o %s" % (tmp_path / "libagain.so") in changed
    assert "libagain.shape.so: up to date" in changed and "-c %s" % shape[0] not in changed
    # other flags: compiled again
    _build.build("again", [str(src)], shape, str(tmp_path), False, True, "host",
                 extra_cflags=["-DQ7_TEST_FLAG=1"])
    assert "-DQ7_TEST_FLAG=1" in capfd.readouterr().err


def test_build_error_has_the_diagnostics(tmp_path):
    bad = tmp_path / "bad.cpp"
    bad.write_text("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
                   "Q7_KERNEL torch::Tensor broken(const torch::Tensor& x) {\n"
                   "    return x.no_such_method();\n}\n")
    with pytest.raises(custom_op.BuildError) as e:
        custom_op.load(name="bad", compute_srcs=[str(bad)], build_directory=str(tmp_path),
                       target="host")
    assert "bad.cpp:4:" in str(e.value) and "no_such_method" in e.value.output
    assert e.value.command[0].endswith("q7cc") and isinstance(e.value, RuntimeError)
    assert not (tmp_path / "libbad.so").exists()
    # a lint error of q7cc's own is a build error too
    bad.write_text("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
                   "Q7_KERNEL void nothing(const torch::Tensor& x) { (void)x; }\n")
    with pytest.raises(custom_op.BuildError, match=r"q7-return"):
        custom_op.load(name="bad", compute_srcs=[str(bad)], build_directory=str(tmp_path),
                       target="host")
    # a shape file that does not compile: its diagnostics, and no
    # temporary left behind
    shape = tmp_path / "bad_shape.cpp"
    shape.write_text("#include <ATen/ops/empty.h>\n#include \"torchneuron/register.h\"\n"
                     "at::Tensor s(const at::Tensor& x) { return x.no_such_method(); }\n"
                     "NEURON_LIBRARY(bad, m) { m.def(\"nothing\", &s, \"nothing\"); }\n")
    with pytest.raises(custom_op.BuildError, match=r"bad_shape.cpp:3:"):
        custom_op.load(name="bad", compute_srcs=[libs.LIBS["ints"][0][0]],
                       shape_srcs=[str(shape)], build_directory=str(tmp_path), target="host")
    assert not [f for f in os.listdir(tmp_path / ".q7cc") if ".tmp" in f]


def test_the_other_targets_library_is_refused(target):
    other = "emulated" if target == "host" else "host"
    path = os.path.join(libs.build_directory("ints", other), "libints.so")
    with pytest.raises(RuntimeError, match="built for the %s target; load it with target='%s'"
                       % (other, other)):
        custom_op.load_library(path, target=target)


def test_a_damaged_manifest_is_refused_with_why(target, tmp_path):
    """A multicore manifest is read by q7cc's own codec (model/manifest.c,
    through the bridge's q7t_library), before anything is loaded: a
    damaged one is refused naming the file and why, even when its first
    image is one of the other target's."""
    other = "emulated" if target == "host" else "host"
    shutil.copy(os.path.join(libs.build_directory("ints", other), "libints.so"),
                tmp_path / "core0.so")
    manifest = tmp_path / "libdamaged.so"
    manifest.write_bytes(b"q7cc-multicore 1\ncore0.so\n\0\n")
    with pytest.raises(RuntimeError) as e:
        custom_op.load_library(str(manifest), target=target)
    assert str(e.value) == "%s: damaged multicore manifest (a NUL byte)" % manifest
    manifest.write_bytes(b"q7cc-multicore 1\n")
    with pytest.raises(RuntimeError) as e:
        custom_op.load_library(str(manifest), target=target)
    assert str(e.value) == "%s: the multicore manifest names no image" % manifest
    # whole, it names its images in core order and each one's target
    manifest.write_bytes(b"q7cc-multicore 1\r\n\ncore0.so\r\n")
    assert [(os.path.basename(i["path"]), i["target"]) for i in _bridge.library(manifest)] == [
        ("core0.so", other)]
    with pytest.raises(RuntimeError, match="built for the %s target; load it with target='%s'"
                       % (other, other)):
        custom_op.load_library(str(manifest), target=target)


def test_a_namespace_is_loaded_once(target, tmp_path):
    lib = libs.load("ints", target)
    # the same files again: the same ops, no error
    again = custom_op.load_library(lib.path, target=target)
    assert again.ops == lib.ops
    # another library in the same namespace: refused, with why
    for name in os.listdir(os.path.dirname(lib.path)):
        if name.startswith("libints"):
            shutil.copy(os.path.join(os.path.dirname(lib.path), name), tmp_path / name)
    with pytest.raises(RuntimeError, match="namespace 'ints' is already registered by"):
        custom_op.load_library(str(tmp_path / "libints.so"), target=target)
    assert torch.equal(torch.ops.ints.iscale(torch.ones(2, dtype=torch.int32), 2, False),
                       torch.full((2,), 2, dtype=torch.int32))


def test_the_targets_come_from_the_engine():
    """The targets' names, ELF machines and profiles are run/target.h's
    rows, through the bridge (q7t_targets), not a copy of Python's."""
    t = _bridge.targets()
    assert list(t) == ["host", "emulated"]
    assert (t["host"].machine, t["host"].profile, t["host"].can) == (
        62, "host", {"isolate", "sanitize"})
    assert (t["emulated"].machine, t["emulated"].profile, t["emulated"].can) == (
        94, "gnu", {"profile"})


def test_bad_arguments():
    with pytest.raises(ValueError, match="expected 'host' or 'emulated'"):
        custom_op.load_library("x.so", target="device")
    with pytest.raises(FileNotFoundError):
        custom_op.load_library("/nonexistent/libx.so", target="host")
    with pytest.raises(FileNotFoundError, match="no such source file"):
        custom_op.load(name="x", compute_srcs=["/nonexistent/x.cpp"], build_directory="/tmp")
    with pytest.raises(ValueError, match="a library name"):
        custom_op.load(name="a b", compute_srcs=["x.cpp"])


def many_kernels(path, n):
    path.write_text("#include <torch/torch.h>\n#include <q7/kernel.h>\n" + "".join(
        "Q7_KERNEL torch::Tensor many%02d(const torch::Tensor& x) {\n"
        "    return torch::empty_like(x);\n}\n" % i for i in range(n)))


BIG_STACK = ("#include <torch/torch.h>\n#include <q7/kernel.h>\n"
             "Q7_KERNEL torch::Tensor big_stack(const torch::Tensor& x) {\n"
             "    torch::Tensor out = torch::empty_like(x);\n"
             "    float scratch[24576];\n"
             "    int64_t n = x.numel() < 16 ? x.numel() : 16;\n"
             "    for (int64_t i = 0; i < n; i++)\n"
             "        scratch[(i * 1531) % 24576] = x.data_ptr<float>()[i] * 2.0f;\n"
             "    for (int64_t i = 0; i < n; i++)\n"
             "        out.data_ptr<float>()[i] = scratch[(i * 1531) % 24576];\n"
             "    return out;\n}\n")


def test_device_limits_at_the_host_build(target, tmp_path, capfd):
    """The device link's limits (11 kernels, a 96 KiB stack) fail the
    emulated build; the host build loads with q7cc's warnings shown,
    verbose or not; extra_ldflags lower them on the emulated target."""
    many = tmp_path / "many.cpp"
    many_kernels(many, 11)
    big = tmp_path / "big.cpp"
    big.write_text(BIG_STACK)
    for src, name, rule, said in (
            (many, "many", "q7-too-many-kernels",
             "the library has 11 kernels; the device runtime registers at most 10"),
            (big, "bigstack", "q7-stack",
             "kernel 'big_stack' needs at least")):
        capfd.readouterr()
        if target == "emulated":
            with pytest.raises(custom_op.BuildError, match=said):
                custom_op.load(name=name, compute_srcs=[str(src)], target=target,
                               build_directory=str(tmp_path / name))
            lib = custom_op.load(name=name, compute_srcs=[str(src)], target=target,
                                 build_directory=str(tmp_path / name),
                                 extra_ldflags=["-Wno-error=" + rule])
        else:
            lib = custom_op.load(name=name, compute_srcs=[str(src)], target=target,
                                 build_directory=str(tmp_path / name))
        err = capfd.readouterr().err
        assert said in err and "[-W%s]" % rule in err, err
        assert lib.ops


def test_extra_ldflags_reach_the_link_and_its_key(target, tmp_path, capfd):
    """As cpp_extension.load()'s: the compute library's link takes them
    (a map file the linker writes), a change links again, a str is one
    flag, and what is not strings is refused."""
    src = tmp_path / "k.cpp"
    shutil.copy(libs.LIBS["ints"][0][0], src)
    d = str(tmp_path / "b")
    mapfile = tmp_path / "k.map"
    custom_op.load(name="ldflags", compute_srcs=[str(src)], target=target, build_directory=d,
                   extra_ldflags="-Wl,-Map=%s" % mapfile, extra_include_paths=[str(tmp_path)])
    assert "iscale" in mapfile.read_text()
    capfd.readouterr()
    _build.build("ldflags", [str(src)], (), d, False, True, target,
                 extra_include_paths=[str(tmp_path)], extra_ldflags=["-Wl,-Map=%s" % mapfile])
    assert "libldflags.so: up to date" in capfd.readouterr().err
    mapfile.unlink()
    _build.build("ldflags", [str(src)], (), d, False, True, target,
                 extra_include_paths=[str(tmp_path)])
    out = capfd.readouterr().err
    assert "-o %s" % os.path.join(d, "libldflags.so") in out and not mapfile.exists(), out
    with pytest.raises(TypeError, match="extra_ldflags=.*a list of strings"):
        custom_op.load(name="ldflags", compute_srcs=[str(src)], target=target,
                       build_directory=d, extra_ldflags=[1])
