#!/usr/bin/env python3
"""The e2e tests' one tensor: float32 [-1, 2, -3, 4.5] as a .npy file.

  npy.py write FILE   writes it
  npy.py read FILE    prints a 4-float .npy as "%g %g %g %g"
"""
import struct
import sys


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "write":
        h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
        h += " " * (63 - (10 + len(h)) % 64) + "\n"
        with open(path, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() +
                    struct.pack("<4f", -1, 2, -3, 4.5))
    else:
        d = open(path, "rb").read()
        n = struct.unpack("<H", d[8:10])[0]
        print(" ".join("%g" % v for v in struct.unpack("<4f", d[10 + n:26 + n])))


main()
