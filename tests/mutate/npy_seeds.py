"""tests/mutate/npy_seeds: the .npy seeds of the mutation harness, one per
dtype, order, rank and header version the reader takes (made with
tests/runtime/npytool.py, independent of q7-run's own writer).

  npy_seeds.py OUTDIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'runtime'))
import npytool  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
seeds = [
    ('f32_2x3', '<f4', (2, 3), [0.5, -1.0, 2.0, 3.25, -0.0, 7.0], {}),
    ('i64_4', '<i8', (4,), [1, -2, 1 << 40, 0], {}),
    ('b1_5', '|b1', (5,), [True, False, True, True, False], {}),
    ('i32_0d', '<i4', (), [42], {}),
    ('u8_2x2x2', '|u1', (2, 2, 2), list(range(8)), {'version': 2}),
    ('f64_3x1', '<f8', (3, 1), [1.0, 2.0, 3.0], {'fortran': True}),
    ('i16_empty', '<i2', (0, 3), [], {}),
]
for name, descr, shape, values, kw in seeds:
    npytool.write(os.path.join(out, name + '.npy'), descr, shape, values, **kw)
