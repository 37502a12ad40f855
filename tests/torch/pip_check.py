"""e2e.torch2.<version>.pip: `pip install` of q7cc itself (docs/torch.md,
"With pip"). Run by a venv's Python that has PyPI's torch and the wheel's
build backend (scripts/setup-venv): builds q7cc's wheel from the source
tree with the project's CMake (`pip wheel --no-build-isolation`), installs
it into a fresh venv that reaches this venv's torch through a .pth file
only, then, with no PYTHONPATH, Q7CC_PREFIX or build tree on any path:
q7cc and its other names are on the fresh venv's bin/, `q7cc --version`
found by name on its PATH answers, and a q7cc.torch load() of a small op
gives the right numbers on the host (the bridge built for this torch on
first use) and on the emulated core (the boot program, linker scripts and
runtime libraries found from the install). Prints the time of each step.

usage: pip_check.py SOURCE_DIR KERNELS_DIR WORK"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time

NAMES = ("q7cc", "q7cc-host", "q7cc-gnu", "xt-clang++", "q7-run", "q7-prelink",
         "q7cc-clangd", "q7cc-icecc-env")


def run(what, argv, **kw):
    """argv, timed; its output shown and the test failed when it fails."""
    t = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=1200, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s: %s exited %d:\n%s%s" % (what, argv[0], r.returncode, r.stdout,
                                                      r.stderr))
    print("%s: %.1f s" % (what, time.monotonic() - t), flush=True)
    return r.stdout


def clean_env(venv, work):
    """The environment of a user of the fresh venv: its bin/ and the
    system's on PATH, nothing of the build tree, a cache of its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "Q7CC_PREFIX", "Q7CC", "Q7CC_TORCH_CACHE",
                        "Q7CC_TORCH_BRIDGE_CACHE", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([os.path.join(venv, "bin"), "/usr/local/bin", "/usr/bin",
                                   "/bin"])
    env["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    return env


def version(source):
    with open(os.path.join(source, "CMakeLists.txt")) as f:
        return re.search(r"project\(q7cc VERSION ([0-9.]+)", f.read()).group(1)


def check_tools(venv, env, want):
    for name in NAMES:
        path = os.path.join(venv, "bin", name)
        if not os.access(path, os.X_OK):
            sys.exit("FAIL: %s is not installed (or not executable)" % path)
    found = shutil.which("q7cc", path=env["PATH"])
    if found != os.path.join(venv, "bin", "q7cc"):
        sys.exit("FAIL: q7cc on the venv's PATH is %s" % found)
    out = run("q7cc --version", ["q7cc", "--version"], env=env)
    if "q7cc %s " % want not in out:
        sys.exit("FAIL: q7cc --version says:\n%s" % out)


LOAD = """import os, sys, torch
import q7cc.torch
from q7cc.torch import custom_op, _paths
venv = os.path.realpath(sys.argv[1])
assert os.path.realpath(q7cc.torch.__file__).startswith(venv + os.sep), q7cc.torch.__file__
assert os.path.realpath(_paths.PREFIX) == venv, _paths.PREFIX
lib = custom_op.load("ints", [sys.argv[2]], build_directory=sys.argv[3], target=sys.argv[4])
i = torch.arange(-3, 9, dtype=torch.int32).reshape(3, 4)
y = torch.ops.ints.iscale(i, 7, True)
assert torch.equal(y, i * -7), y
print(torch.__version__, lib.target, y.flatten().tolist())
"""


def main():
    source, kernels, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    dist, venv = os.path.join(work, "dist"), os.path.join(work, "venv")
    run("the wheel (pip wheel --no-build-isolation)",
        [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
         "--no-build-isolation", "--no-deps", "-w", dist, source])
    wheels = [os.path.join(dist, w) for w in os.listdir(dist) if w.endswith(".whl")]
    if len(wheels) != 1:
        sys.exit("FAIL: pip wheel left %s in %s" % (wheels, dist))
    print("wheel: %s, %.1f MB" % (os.path.basename(wheels[0]),
                                   os.path.getsize(wheels[0]) / 1e6), flush=True)
    run("a fresh venv", ["/usr/bin/python3", "-m", "venv", venv])
    vpy = os.path.join(venv, "bin", "python")
    run("pip install of the wheel", [vpy, "-m", "pip", "install", "-q",
                                     "--disable-pip-version-check", "--no-index", "--no-deps",
                                     wheels[0]])
    site = subprocess.run([vpy, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site, "torch-from-the-test-venv.pth"), "w") as f:
        f.write(sysconfig.get_path("purelib") + "\n")
    env = clean_env(venv, work)
    check_tools(venv, env, version(source))
    for target, what in (("host", " (its bridge built once)"), ("emulated", "")):
        out = run("load() of a small op on the %s target%s" % (target, what),
                  [vpy, "-c", LOAD, venv, os.path.join(kernels, "ints.cpp"),
                   os.path.join(work, "ints-" + target), target], env=env)
        print(out.strip())
    print("pip install of q7cc ok: tools on the venv's PATH, q7cc.torch from the wheel")


if __name__ == "__main__":
    main()
