#!/usr/bin/env bash
# A kernel using picolibc (strtof) and libgcc helpers that call the
# soft-float helpers (__powisf2, __mulsc3) links as a gnu device image and
# gives the host's numbers on the emulated core.
# usage: libc_kernel.sh Q7CC WORKDIR
set -euo pipefail
q7cc=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
bin=$(dirname "$q7cc")
rm -rf "$work" && mkdir -p "$work"
cd "$work"
src=$here/libc/libc_ops.cpp
for p in gnu host; do
  "$q7cc" --q7-toolchain=$p -c "$src" -o $p.o
  "$q7cc" --q7-toolchain=$p -shared $p.o -o lib$p.so
done
test -s libgnu.packed.so
python3 - "$here/../runtime" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import npytool as npy
npy.write("x.npy", "<f4", (2, 3), [-1.5, 0.0, 0.25, 1.0, 2.0, 3.5])
PY
"$bin/q7-run" --target=host libhost.so libc_mix x.npy 3 -o host.npy
"$bin/q7-run" --target=emulated libgnu.so libc_mix x.npy 3 -o emu.npy
python3 - "$here/../runtime" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
import npytool as npy
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
xs = [-1.5, 0.0, 0.25, 1.0, 2.0, 3.5]
want = [f32(f32(f32(f32(a * a) * a) + f32(f32(a * a) - 1.0)) + 0.5) for a in xs]
for name in ("host.npy", "emu.npy"):
    _, shape, got = npy.read(name)
    assert shape == (2, 3), (name, shape)
    for g, w in zip(got, want):
        assert abs(g - w) <= 1e-5 * max(1.0, abs(w)), (name, got, want)
_, _, h = npy.read("host.npy")
_, _, e = npy.read("emu.npy")
assert h == e, ("host and emulated differ", h, e)
print("libc kernel: host and emulated agree:", e)
PY
