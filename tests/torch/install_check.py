"""e2e.torch.install: cmake --install puts the package, its bridge and the
host <torchneuron/register.h> under the prefix, and an installed
q7cc.torch (PYTHONPATH=<prefix>/lib/python) registers the test libraries
on both targets in fresh processes, finding q7cc's own files (the
emulated core's boot program) under that prefix, not the build's.

usage: install_check.py BUILD_DIR PREFIX"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libs  # noqa: E402


def stale_sources(build, prefix, env):
    """An install over an older one: cmake --install leaves a source the
    new kit no longer has (kernel.cpp, since renamed boxed_kernel.cpp),
    which a build of every src/*.cpp compiled beside its successor
    (duplicate symbols). The kit's sources.txt names what to compile."""
    kits = [os.path.join(r, "src") for r, ds, _ in os.walk(prefix) if r.endswith("torch-bridge")]
    if len(kits) != 1:
        sys.exit("FAIL: no one bridge kit under %s: %s" % (prefix, kits))
    with open(os.path.join(kits[0], "kernel.cpp"), "w") as f:
        f.write("// an older install's source\nint q7_stale_source;\n")
    code = ("import os\nfrom q7cc.torch import _bridge\n"
            "print(' '.join(os.path.basename(p) for p in _bridge.kit_sources(%r)))" % kits[0])
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    staged = os.path.join(build, "stage", "lib", "q7cc", "torch-bridge", "src")
    want = sorted(f for f in os.listdir(staged) if f.endswith(".cpp"))
    if r.returncode != 0 or sorted(r.stdout.split()) != want:
        sys.exit("FAIL: the installed kit's sources are %r, not %r:\n%s" % (r.stdout, want, r.stderr))


def main():
    build, prefix = sys.argv[1], sys.argv[2]
    shutil.rmtree(prefix, ignore_errors=True)
    subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    for f in ("lib/python/q7cc/torch/custom_op.py", "lib/python/q7cc/torch/libq7torch.so",
              "include/q7cc-torch/torchneuron/register.h", "bin/q7cc",
              "lib/q7cc/xtensa/q7boot.elf"):
        if not os.path.exists(os.path.join(prefix, f)):
            sys.exit("FAIL: %s is not installed" % f)
    env = dict(os.environ, PYTHONPATH=os.path.join(prefix, "lib", "python"))
    env.pop("Q7CC_PREFIX", None)
    stale_sources(build, prefix, env)
    for target in ("host", "emulated"):
        lib = os.path.join(libs.build_directory("params", target), "libparams.so")
        code = ("import torch, q7cc.torch as q\n"
                "assert q.__file__.startswith(%r), q.__file__\n"
                "q.custom_op.load_library(%r, target=%r)\n"
                "a, b = torch.randn(3), torch.randn(4)\n"
                "assert torch.equal(torch.ops.q7_test.outer(a, b),\n"
                "                   a[:, None] * b[None, :] + torch.arange(4.0))\n"
                % (prefix, lib, target))
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           timeout=300)
        if r.returncode != 0:
            sys.exit("FAIL: the installed package on %s:\n%s%s" % (target, r.stdout, r.stderr))
    print("installed package ok on both targets")


if __name__ == "__main__":
    main()
