"""Minimal .npy reading and writing for the runtime tests, with the Python
standard library only (no NumPy on the test machine): the checker that the
tests compare q7-run's output with is independent of q7-run's own codec."""
import ast
import struct

CODES = {'<f4': 'f', '<f8': 'd', '<f2': 'e', '<i4': 'i', '<i8': 'q', '<i2': 'h', '|i1': 'b',
         '|u1': 'B', '|b1': '?'}


def write(path, descr, shape, values, version=1, fortran=False):
    n = 1
    for s in shape:
        n *= s
    assert len(values) == n
    shape_txt = '(' + ''.join('%d, ' % s for s in shape).rstrip(' ')
    if len(shape) != 1:
        shape_txt = shape_txt.rstrip(',')
    shape_txt += ')'
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, 'True' if fortran else 'False', shape_txt)
    pre = 10 if version == 1 else 12
    header += ' ' * ((64 - (pre + len(header) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY' + bytes([version, 0]))
        if version == 1:
            f.write(struct.pack('<H', len(header)))
        else:
            f.write(struct.pack('<I', len(header)))
        f.write(header.encode('latin1'))
        code = CODES[descr]
        f.write(struct.pack('<%d%s' % (n, code), *values))


def read(path):
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:6] == b'\x93NUMPY', 'bad magic'
    if data[6] == 1:
        hlen = struct.unpack('<H', data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack('<I', data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode('latin1'))
    assert not header['fortran_order']
    shape = tuple(header['shape'])
    n = 1
    for s in shape:
        n *= s
    code = CODES[header['descr']]
    body = data[start + hlen:]
    values = list(struct.unpack('<%d%s' % (n, code), body[:n * struct.calcsize(code)]))
    return header['descr'], shape, values


def f32(x):
    """Rounds a Python float to float32, as the kernels compute."""
    return struct.unpack('<f', struct.pack('<f', x))[0]
