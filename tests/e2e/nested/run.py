"""Runs twice(x, 2) of the nested project's kernel library on the host
through q7-run and checks the numbers (npytool: the tests' own .npy codec).
Usage: run.py Q7_RUN LIB NPYTOOL_DIR"""
import os
import subprocess
import sys

sys.path.insert(0, sys.argv[3])
import npytool  # noqa: E402

q7run, lib = sys.argv[1], sys.argv[2]
npytool.write('x.npy', '<i4', (4,), [1, -2, 3, 40000])
subprocess.run([q7run, '--target=host', lib, 'twice', 'x.npy', '2', '-o', 'y.npy'], check=True)
descr, shape, values = npytool.read('y.npy')[:3]
assert (descr, tuple(shape), list(values)) == ('<i4', (4,), [2, -4, 6, 80000]), (descr, shape, values)
print('nested: ok', os.getcwd())
