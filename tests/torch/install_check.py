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
