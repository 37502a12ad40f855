#!/usr/bin/env python3
"""The demo's runs: makes inputs, runs each example op with q7-run on the
host library and on the emulated core (gnu images), and compares every
output with values computed here, independently of q7cc and its runtime.
Uses the standard library only (no NumPy)."""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "runtime"))
import npytool  # noqa: E402


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def q7run(args):
    print("$ q7-run " + " ".join(args))
    p = subprocess.run(["q7-run"] + args, capture_output=True, text=True)
    if p.stdout:
        print("  " + p.stdout.strip().replace("\n", "\n  "))
    if p.returncode != 0:
        print(p.stderr, file=sys.stderr)
        raise SystemExit("demo: q7-run failed")


def main():
    demo = sys.argv[1]
    data = os.path.join(demo, "data")
    rows = []

    x = [f32((i % 13) - 6.25) for i in range(4 * 8)]
    xpath = os.path.join(data, "x.npy")
    npytool.write(xpath, "<f4", (4, 8), x)
    xi = [i * 3 - 40 for i in range(16 * 4)]
    xipath = os.path.join(data, "xi.npy")
    npytool.write(xipath, "<i4", (16, 4), xi)

    cases = [
        ("relu_forward", "libops.so", [xpath], {}, [max(v, 0.0) for v in x]),
        ("affine", "libops.so", [xpath, "3", "0.5", "0.25", "-1"], {},
         [max(f32(f32(v * 0.5) + f32(0.25) + 3.0), -1.0) for v in x]),
        ("relu_tcm", "libops.so", [xpath], {}, [max(v, 0.0) for v in x]),
        ("scale_by_table", "libops.so", [xpath], {},
         [f32(v * float((i % 16) ** 2 + 1)) for i, v in enumerate(x)]),
        ("deep_sum", "libdeep.so", [xpath, "32"], {}, None),
        ("spmd_rows", "libops.so", [xipath], {"cores": 8},
         [xi[r * 4 + c] + r * 1000 + c * 10 + (r % 8) for r in range(16) for c in range(4)]),
    ]
    # deep_sum adds from the last element down: x[n-1] + (x[n-2] + ...)
    s = 0.0
    for v in x[:32]:
        s = f32(v + s)
    cases[4] = cases[4][:4] + ([s],)

    for op, lib, args, opts, expect in cases:
        for target, build in (("host", "host"), ("emulated", "gnu")):
            cores = opts.get("cores", 1)
            if target == "emulated" and cores > 1:
                build = "gnu-mc"  # the eight per-core images
            out = os.path.join(data, f"{op}.{target}.npy")
            libpath = os.path.join(demo, build, lib)
            q7run([f"--target={target}", f"--cores={cores}", libpath, op] + args + ["-o", out])
            _, shape, got = npytool.read(out)
            ok = len(got) == len(expect) and all(
                (a == b) if isinstance(b, int) else abs(a - b) <= 1e-6 * max(1.0, abs(b))
                for a, b in zip(got, expect))
            rows.append((op, target + (f" x{cores}" if cores > 1 else ""),
                         "x".join(map(str, shape)), "ok" if ok else "WRONG"))
    print()
    print(f"{'op':<16} {'target':<12} {'shape':<8} result")
    for r in rows:
        print(f"{r[0]:<16} {r[1]:<12} {r[2]:<8} {r[3]}")
    bad = [r for r in rows if r[3] != "ok"]
    if bad:
        raise SystemExit(f"demo: {len(bad)} run(s) gave wrong numbers")
    print(f"\nall {len(rows)} runs gave the expected numbers")


if __name__ == "__main__":
    main()
