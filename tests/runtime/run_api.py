"""The reference guide's kernel API, end to end (docs/runtime.md, "The
API"): kernels that call every documented entry point (tests/runtime/api)
and the guide's own example kernels (examples/guide), built by q7cc for the
device (gnu profile) and for the host, run by q7-run on the emulated core
and on the host. Every case requires the two targets to give the same bytes,
and checks the numbers against its own computation here, in Python: exact,
or within the stated ulp bound (1 ulp) for the transcendental functions.

  run_api.py build WORK --bin STAGE_BIN --api DIR --guide DIR
  run_api.py CASE WORK --bin STAGE_BIN --api DIR --guide DIR

Results come back packed as rows of an int64 tensor (api/rows.h): the
dtype, the shape, and each element's raw bits."""
import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npytool  # noqa: E402
from run_e2e import cmake_build, fail, sh  # noqa: E402

# torch ScalarType codes
U8, I8, I16, I32, I64, F16, F32, F64, BOOL, BF16 = 0, 1, 2, 3, 4, 5, 6, 7, 11, 15
FLOATS = (F16, F32, F64, BF16)
INTS = (U8, I8, I16, I32, I64)
NAMES = {U8: "uint8", I8: "int8", I16: "int16", I32: "int32", I64: "int64", F16: "float16",
         F32: "float32", F64: "float64", BOOL: "bool", BF16: "bfloat16"}
WIDTH = {U8: 8, I8: 8, I16: 16, I32: 32, I64: 64, BOOL: 8, F16: 16, BF16: 16, F32: 32, F64: 64}
NAN_BITS = {F32: 0x7fc00000, F16: 0x7e00, BF16: 0x7fc0, F64: 0x7ff8000000000000}


# ---- number formats ----

def f32(x):
    """x rounded to binary32 (overflow to infinity)."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f16(x):
    try:
        return struct.unpack('<e', struct.pack('<e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16(x):
    """binary32 x rounded to bfloat16, to nearest even."""
    u = struct.unpack('<I', struct.pack('<f', f32(x)))[0]
    if (u & 0x7fffffff) > 0x7f800000:
        return math.nan
    u = ((u + 0x7fff + ((u >> 16) & 1)) >> 16) << 16
    return struct.unpack('<f', struct.pack('<I', u & 0xffffffff))[0]


def int_to_f32(v):
    """An integer rounded to binary32 at once (as C++'s (float)int64_t),
    not through binary64."""
    m = abs(v)
    if m < 1 << 24:
        return float(v)
    shift = m.bit_length() - 24
    q, r = divmod(m, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return math.copysign(f32(float(q << shift)), v)


def round_to(dt, x):
    """A number as dtype dt holds it (floats round, integers wrap)."""
    if dt in (F32, F16, BF16) and not isinstance(x, float):
        x = int_to_f32(int(x))  # C++'s (float) of an integer: one rounding
    if dt == F32:
        return f32(x)
    if dt == F16:
        return f16(f32(x))
    if dt == BF16:
        return bf16(x)
    if dt == F64:
        return float(x)
    if dt == BOOL:
        return 1 if x != 0 else 0
    return wrap(int(x), dt)


def wrap(v, dt):
    if dt == BOOL:
        return 1 if v else 0
    bits = WIDTH[dt]
    v &= (1 << bits) - 1
    if dt != U8 and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def bits_of(dt, v):
    """The raw bits of v in dtype dt."""
    if dt == F32:
        return struct.unpack('<I', struct.pack('<f', v))[0]
    if dt == F16:
        return struct.unpack('<H', struct.pack('<e', v))[0]
    if dt == BF16:
        return struct.unpack('<I', struct.pack('<f', v))[0] >> 16
    if dt == F64:
        return struct.unpack('<Q', struct.pack('<d', v))[0]
    return v & ((1 << WIDTH[dt]) - 1)


def from_bits(dt, b):
    b &= (1 << 64) - 1
    if dt == F32:
        return struct.unpack('<f', struct.pack('<I', b & 0xffffffff))[0]
    if dt == F16:
        return struct.unpack('<e', struct.pack('<H', b & 0xffff))[0]
    if dt == BF16:
        return struct.unpack('<f', struct.pack('<I', (b & 0xffff) << 16))[0]
    if dt == F64:
        return struct.unpack('<d', struct.pack('<Q', b))[0]
    return wrap(b, dt)


def ulps(dt, a, b):
    """Distance in ulps of dtype dt (0 for two NaNs)."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 60

    def order(v):
        u = bits_of(dt, v)
        sign = 1 << (WIDTH[dt] - 1)
        return -(u & (sign - 1)) if u & sign else u
    return abs(order(a) - order(b))


def decode(values, shape):
    """Rows of a packed result: (dtype, shape, [element values])."""
    rows = []
    w = shape[1]
    for r in range(shape[0]):
        row = values[r * w:(r + 1) * w]
        if row[0] < 0:
            rows.append(None)
            continue
        dt, nd = row[0], row[1]
        sizes = tuple(row[2:2 + nd])
        n = 1
        for s in sizes:
            n *= s
        rows.append((dt, sizes, [from_bits(dt, b) for b in row[10:10 + n]], row[10:10 + n]))
    return rows


# ---- the reference: torch's rules, computed here ----

def category(dt):
    return 0 if dt == BOOL else 2 if dt in FLOATS else 1


def promote(a, b):
    if a == b:
        return a
    if BOOL in (a, b):
        return b if a == BOOL else a
    fa, fb = a in FLOATS, b in FLOATS
    if fa != fb:
        return a if fa else b
    if fa:
        return F64 if F64 in (a, b) else F32
    if U8 in (a, b):
        other = b if a == U8 else a
        return I16 if other == I8 else other
    return a if WIDTH[a] > WIDTH[b] else b


def scalar_cat(s):
    return 0 if isinstance(s, bool) else 2 if isinstance(s, float) else 1


def with_scalar(dt, s):
    c = scalar_cat(s)
    if c <= category(dt):
        return dt
    return F32 if c == 2 else I64


def in_calc(dt, v, common):
    """An operand (element of dtype dt, or a Python number) as the op
    computes with it in dtype common: binary32 for the 16- and 32-bit
    floats, binary64 for float64, Python ints (bools as 0/1) otherwise."""
    if common in (F32, F16, BF16):
        return int_to_f32(int(v)) if not isinstance(v, float) else f32(v)
    if common == F64:
        return float(v)
    if isinstance(v, float):
        return int(v) if math.isfinite(v) else 0
    return int(v)


def ieee_div(a, b):
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def libm(fn, *x):
    """A math function in binary64 with C99's answers where Python raises."""
    try:
        return fn(*x)
    except (ValueError, ZeroDivisionError):
        if fn in (math.log, math.log2, math.log10) and x[0] == 0:
            return -math.inf
        if fn is math.pow:
            a, b = x
            if a == 0 and b < 0:
                odd = b == int(b) and int(b) % 2 == 1
                return math.copysign(math.inf, a) if odd else math.inf
        return math.nan
    except OverflowError:
        if fn is math.pow:
            a, b = x
            neg = a < 0 and b == int(b) and int(b) % 2 == 1
            return -math.inf if neg else math.inf
        return math.inf


def ceil_ref(x):
    if not math.isfinite(x) or x == int(x):
        return x
    r = float(math.ceil(x))
    return -0.0 if r == 0 and x < 0 else r


def floor_ref(x):
    if not math.isfinite(x) or x == int(x):
        return x
    return float(math.floor(x))


def fmul(a, b, calc):
    """a * b rounded as the op computes (binary32 or binary64)."""
    r = a * b
    return f32(r) if calc == F32 else r


def int_pow(x, y):
    if y < 0:
        return 1 if x == 1 else (-1 if y % 2 else 1) if x == -1 else 0
    return pow(x, y, 1 << 64)


UNARY = ["abs", "ceil", "floor", "sin", "cos", "tan", "log", "log2", "log10", "exp"]
TRANSCENDENTAL = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "log": math.log,
                  "log2": math.log2, "log10": math.log10, "exp": math.exp}


def unary_ref(op, dt, x):
    """(result dtype, value, ulps allowed) of op on x, an element of dt."""
    if op in TRANSCENDENTAL:
        out = dt if dt in (F32, F16, BF16) else F32
        v = f32(libm(TRANSCENDENTAL[op], in_calc(dt, x, F32)))
        return out, round_to(out, v), 1
    if dt in FLOATS:
        fn = {"abs": abs, "ceil": ceil_ref, "floor": floor_ref}[op]
        return dt, fn(x), 0
    return dt, wrap(abs(x), dt) if op == "abs" else x, 0


def binary_ref(op, a, b, da, db, alpha=1):
    """(common dtype, value, ulps) of op on a (of da) and b (of db; db None:
    b is a Python number), as torch computes it."""
    if db is None:
        common = da if op in ("and", "or") else with_scalar(da, b)
    elif da is None:
        common = db if op in ("and", "or") else with_scalar(db, a)
    else:
        common = promote(da, db)
    if op == "div" and common not in FLOATS:
        common = F32
    calc = F64 if common == F64 else F32 if common in FLOATS else None
    x, y = in_calc(da, a, common), in_calc(db, b, common)
    if op == "pow" and calc:
        return common, round_to(common, f32(libm(math.pow, x, y))), 1
    if calc:
        al = in_calc(None, alpha, common)
        v = {"add": lambda: x + fmul(al, y, calc), "sub": lambda: x - fmul(al, y, calc),
             "mul": lambda: x * y, "div": lambda: ieee_div(x, y)}[op]()
        return common, round_to(common, f32(v) if calc == F32 else v), 0
    al = int(alpha)
    v = {"add": lambda: x + al * y, "sub": lambda: x - al * y, "mul": lambda: x * y,
         "pow": lambda: int_pow(x, y), "and": lambda: x & y, "or": lambda: x | y}[op]()
    return common, wrap(v, common), 0


def check_value(what, dt, got, got_bits, want, tol):
    if dt in FLOATS:
        if math.isnan(want):
            if got_bits != NAN_BITS[dt]:
                fail("%s: got bits 0x%x, want the canonical NaN" % (what, got_bits))
            return
        d = ulps(dt, got, want)
        if d > tol:
            fail("%s: got %r, want %r (%d ulps, %d allowed)" % (what, got, want, d, tol))
        if tol == 0 and want == 0 and math.copysign(1, got) != math.copysign(1, want):
            fail("%s: got %r, want %r (the sign of zero)" % (what, got, want))
    elif got != want:
        fail("%s: got %r, want %r" % (what, got, want))


def check_row(what, row, want_dt, want_shape, wants):
    """wants: [(value, ulps)] for each element."""
    if row is None:
        fail("%s: the row was not run" % what)
    dt, shape, vals, raw = row
    if dt != want_dt:
        fail("%s: dtype %s, want %s" % (what, NAMES.get(dt, dt), NAMES[want_dt]))
    if want_shape is not None and tuple(shape) != tuple(want_shape):
        fail("%s: shape %r, want %r" % (what, shape, want_shape))
    for i, ((w, tol), g, b) in enumerate(zip(wants, vals, raw)):
        check_value("%s, element %d" % (what, i), dt, g, b & ((1 << WIDTH[dt]) - 1), w, tol)


# ---- running ----

class Ctx:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.work, a.case)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.run_bin = os.path.join(a.bin, "q7-run")
        self.counter = 0

    def path(self, name):
        return os.path.join(self.work, name)

    def lib(self, target, project, name):
        return os.path.join(self.a.work, "%s-%s" % (project, "host" if target == "host" else "gnu"),
                            "lib%s.so" % name)

    def run(self, target, project, name, op, args, opts=(), expect_ok=True):
        self.counter += 1
        out = self.path("out%d-%s.npy" % (self.counter, target))
        argv = [self.run_bin, "-v", "--target=" + target] + list(opts)
        argv += [self.lib(target, project, name), op] + [str(x) for x in args] + ["-o", out]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if r.returncode < 0:
            fail("q7-run crashed (signal %d): %s\n%s" % (-r.returncode, " ".join(argv), r.stderr))
        if expect_ok and r.returncode != 0:
            fail("q7-run failed: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr))
        if not expect_ok:
            if r.returncode == 0:
                fail("q7-run succeeded but should not have: %s" % " ".join(argv))
            return r, None
        with open(out, "rb") as f:
            return r, f.read()

    def both(self, project, name, op, args, opts=()):
        """Runs on both targets; the same bytes. Returns the host's
        (stderr, stdout, (descr, shape, values)) and the emulated run."""
        re_, emu = self.run("emulated", project, name, op, args, opts)
        rh, host = self.run("host", project, name, op, args, opts)
        if emu != host:
            fail("%s: the emulated core and the host differ (%s)" % (op, " ".join(map(str, args))))
        out = self.path("last.npy")
        with open(out, "wb") as f:
            f.write(host)
        return rh, re_, npytool.read(out)

    def rows(self, project, name, op, args, opts=()):
        _, _, (descr, shape, vals) = self.both(project, name, op, args, opts)
        if descr != "<i8" or len(shape) != 2:
            fail("%s: not a packed result: %s %r" % (op, descr, shape))
        return decode(vals, shape)

    def expect_error(self, project, name, op, args, needles, opts=()):
        """The op fails on both targets with the same message."""
        msgs = []
        for target in ("emulated", "host"):
            r, _ = self.run(target, project, name, op, args, opts, expect_ok=False)
            for n in needles if isinstance(needles, (list, tuple)) else [needles]:
                if n not in r.stderr:
                    fail("%s on %s: expected %r in the error, got: %s" % (op, target, n, r.stderr))
            msgs.append([re.sub(r"0x[0-9a-f]+", "0x...", l) for l in r.stderr.splitlines()
                         if l.startswith("q7-run: error")])
        if msgs[0] != msgs[1]:
            fail("%s: the targets report differently: %r and %r" % (op, msgs[0], msgs[1]))
        return msgs[1]

    def npy(self, name, descr, shape, values, **kw):
        p = self.path(name)
        npytool.write(p, descr, shape, values, **kw)
        return p


def case_build(c):
    q7cc = os.path.join(c.a.bin, "q7cc")
    for project, src in (("api", c.a.api), ("guide", c.a.guide)):
        for tc in ("gnu", "host"):
            build = os.path.join(c.a.work, "%s-%s" % (project, tc))
            shutil.rmtree(build, ignore_errors=True)
            # No build type: no -DNDEBUG, so assert() is compiled in.
            # Accessor index checks on the device too (its default is
            # off), so that both targets report an index the same way.
            cmake_build(argparse.Namespace(examples=src, q7cc=q7cc), build, tc,
                        ["-DCMAKE_BUILD_TYPE=", "-DCMAKE_CXX_FLAGS=-O1 -DQ7_ACCESSOR_CHECKS=1"])


# ---- test values ----

def float_values(dt, n, seed):
    """Values of dtype dt (exactly representable): the special ones, then
    random ones over many magnitudes."""
    rng = random.Random(seed)
    special = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, 100.0, 1e-3, -7.25, 0.1,
               math.inf, -math.inf, math.nan, 1e30, -1e30, 88.5, -103.0, 1e-40, 3.14159265,
               1.5707963, 4.7123890, 1e5, 123456.78, 1e7, 1e10, 1e20, 1e35]
    vals = []
    while len(vals) < n:
        if len(vals) < len(special):
            v = special[len(vals)]
        elif len(vals) % 3 == 0:
            v = rng.uniform(-10, 10)
        elif len(vals) % 3 == 1:
            v = math.copysign(10 ** rng.uniform(-30, 30), rng.random() - 0.5)
        else:
            v = rng.uniform(-200, 200)
        vals.append(round_to(dt, v))
    return vals


def int_values(dt, n, seed):
    rng = random.Random(seed)
    if dt == BOOL:
        return [rng.randint(0, 1) for _ in range(n)]
    bits = WIDTH[dt]
    lo, hi = (0, (1 << bits) - 1) if dt == U8 else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    vals = [0, 1, -1 if lo < 0 else 2, lo, hi, 7, 100 if hi >= 100 else 3]
    while len(vals) < n:
        vals.append(rng.randint(lo, hi) if len(vals) % 2 else rng.randint(max(lo, -50), min(hi, 50)))
    return [max(lo, min(hi, v)) for v in vals]


def values(dt, n, seed):
    return float_values(dt, n, seed) if dt in FLOATS else int_values(dt, n, seed)


def write_values(c, name, dt, vals):
    """As the kernels take them: float64 for floating dtypes, else int64."""
    if dt in FLOATS:
        return c.npy(name, "<f8", (len(vals),), vals)
    return c.npy(name, "<i8", (len(vals),), vals)


# ---- the cases ----

def case_unary(c):
    """abs ceil floor sin cos tan log log2 log10 exp, each functional and
    _out, and bitwise_not (functional, _out and (result, self)), for every
    dtype they take."""
    for dt in (F32, F16, BF16, F64, U8, I8, I16, I32, I64, BOOL):
        n = 400 if dt == F32 else 96
        vals = values(dt, n, 10 + dt)
        ops = UNARY if dt not in (F64, BOOL) else UNARY[:3] if dt == F64 else UNARY[3:]
        mask = 0
        for k, op in enumerate(UNARY):
            if op in ops:
                mask |= 1 << (2 * k)
        if dt not in FLOATS:
            mask |= 1 << 20
        rows = c.rows("api", "apiops", "api_unary", [write_values(c, "x.npy", dt, vals), dt, mask])
        for k, op in enumerate(UNARY):
            if op not in ops:
                continue
            refs = [unary_ref(op, dt, v) for v in vals]
            for form, row in (("%s", rows[2 * k]), ("%s_out", rows[2 * k + 1])):
                check_row("%s on %s" % (form % op, NAMES[dt]), row, refs[0][0], (n,),
                          [(v, tol) for _, v, tol in refs])
        if dt not in FLOATS:
            want = [(wrap(~v, dt) if dt != BOOL else 1 - v, 0) for v in vals]
            for i, form in enumerate(("bitwise_not", "bitwise_not_out", "bitwise_not(result, self)")):
                check_row("%s on %s" % (form, NAMES[dt]), rows[20 + i], dt, (n,), want)
        print("ok: unary ops on %s (%d values)" % (NAMES[dt], n))


BINARY_ROWS = [("add", "tt", 0), ("add", "ts", 2), ("sub", "tt", 4), ("sub", "ts", 6),
               ("mul", "tt", 8), ("mul", "ts", 10), ("div", "tt", 12), ("div", "ts", 14),
               ("pow", "ts", 16), ("pow", "st", 18), ("pow", "tt", 20),
               ("and", "tt", 22), ("and", "ts", 24), ("and", "st", 26),
               ("or", "tt", 28), ("or", "ts", 30), ("or", "st", 32)]


def operands(form, a, b, s, da, db):
    if form == "tt":
        return a, b, da, db
    if form == "ts":
        return a, s, da, None
    return s, a, None, da


def runs_ok(op, form, da, db, s, alpha):
    """Whether torch's rules let this row run (else it is an error)."""
    if form == "tt":
        common = promote(da, db)
    elif op in ("and", "or"):
        common = da
    else:
        common = with_scalar(da, s)
    if op in ("and", "or"):
        return common not in FLOATS
    if op == "sub" and common == BOOL:
        return False
    if op in ("add", "sub"):
        if isinstance(alpha, float) and common not in FLOATS:
            return False
        if isinstance(alpha, bool) and common != BOOL:
            return False
    if op == "pow":
        if common == F64:
            return False
        if form == "ts" and common not in FLOATS and not isinstance(s, float) and s < 0:
            return False
    return True


def literal(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def binary_run(c, da, db, s, alpha, outdt=-1, n=64):
    a_vals = values(da, n, 100 + da)
    b_vals = values(db, n, 200 + db)
    mask = 0
    for op, form, row in BINARY_ROWS:
        if runs_ok(op, form, da, db, s, alpha):
            mask |= 1 << row
    default_rows = []
    if runs_ok("add", "tt", da, db, s, 1):
        mask |= 1 << 34
        default_rows.append(("add", "tt", 34))
    if runs_ok("sub", "ts", da, db, s, 1):
        mask |= 1 << 35
        default_rows.append(("sub", "ts", 35))
    # integer pow: exponents from b kept small so that the check is readable
    if db in INTS or db == BOOL:
        b_vals = [v % 9 - 2 if db in (I8, I16, I32, I64) else v % 9 for v in b_vals]
    rows = c.rows("api", "apiops", "api_binary",
                  [write_values(c, "a.npy", da, a_vals), write_values(c, "b.npy", db, b_vals),
                   literal(s), literal(alpha), da, db, mask, outdt])
    what = "%s, %s, %s, alpha %s" % (NAMES[da], NAMES[db], literal(s), literal(alpha))
    for op, form, row in BINARY_ROWS + default_rows:
        if not (mask >> row) & 1:
            if rows[row] is not None:
                fail("row %d ran though it should not" % row)
            continue
        al = alpha if row < 34 else 1
        refs = []
        for x, y in zip(a_vals, b_vals):
            l, r, dl, dr = operands(form, x, y, s, da, db)
            refs.append(binary_ref(op, l, r, dl, dr, al))
        common = refs[0][0]
        forms = [("%s(%s)" % (op, form), row, common)]
        if row < 34:
            forms.append(("%s_out(%s)" % (op, form), row + 1, outdt if outdt >= 0 else common))
        for label, rr, out_dt in forms:
            check_row("%s on %s" % (label, what), rows[rr], out_dt, (n,),
                      [(round_to(out_dt, v), tol) for _, v, tol in refs])
    print("ok: binary ops on %s%s" % (what, ", out %s" % NAMES[outdt] if outdt >= 0 else ""))


def case_binary(c):
    """add/sub (tensor or scalar, alpha), mul, div, pow (three forms) and
    bitwise_and/or (three forms), functional and _out, on every dtype and
    mixed ones (promotion), scalars int, float and bool."""
    for da, db, s, alpha in (
            (F32, F32, 2.5, 2.0), (F16, F16, 1.5, 0.5), (BF16, BF16, -3.0, 1.5), (F64, F64, 0.1, 3.0),
            (F32, F32, 3, 1), (U8, U8, 3, 2), (I8, I8, -3, 2), (I16, I16, 7, -1), (I32, I32, 5, 3),
            (I64, I64, 11, 2), (BOOL, BOOL, True, True), (BOOL, BOOL, 2, 1), (I32, F32, 2, 1),
            (U8, I8, 3, 1), (F16, BF16, 0.5, 1.0), (I32, I64, -2, 1), (BOOL, I32, 1, 1),
            (F32, F64, 0.25, 2.0), (I8, F32, 2.5, 1), (I16, U8, 1.5, 1)):
        binary_run(c, da, db, s, alpha)
    # _out into another dtype, which torch casts to
    binary_run(c, F32, F32, 2.0, 1.0, outdt=F64)
    binary_run(c, I32, I32, 3, 1, outdt=F32)
    binary_run(c, F32, F16, 0.5, 1.0, outdt=BF16)


def case_clamp(c):
    """clamp and clamp_out: the bounds converted to the tensor's dtype
    (truncated for integers); a NaN stays; min > max gives max."""
    for dt, lo, hi in ((F32, -1.5, 2.25), (F16, -0.5, 100.0), (BF16, 0, 3), (F64, -1e300, 0.1),
                       (I32, -3, 5), (U8, 2, 200), (I8, -2.7, 3.9), (I64, 5, 1), (F32, 7, -7)):
        n = 64
        vals = values(dt, n, 300 + dt)
        rows = c.rows("api", "apiops", "api_clamp",
                      [write_values(c, "x.npy", dt, vals), literal(lo), literal(hi), dt])
        want = []
        for v in vals:
            if dt in FLOATS:
                l, h = round_to(dt, in_calc(None, lo, F32 if dt != F64 else F64)), \
                    round_to(dt, in_calc(None, hi, F32 if dt != F64 else F64))
                r = v if math.isnan(v) else min(max(v, l), h)
            else:
                l, h = int(lo), int(hi)
                r = min(max(v, l), h)
            want.append((r, 0))
        for form, row in (("clamp", rows[0]), ("clamp_out", rows[1])):
            check_row("%s on %s [%s, %s]" % (form, NAMES[dt], lo, hi), row, dt, (n,), want)
        print("ok: clamp on %s [%s, %s]" % (NAMES[dt], lo, hi))


def case_factories(c):
    """zeros, ones, full, eye, empty (then fill_), fill_ on a const tensor,
    full with a braced list of size_t and with IntArrayRef sizes; every
    dtype, each factory spelling its options differently."""
    for dt in (F32, F16, BF16, F64, U8, I8, I16, I32, I64, BOOL):
        for value in ((2.5, -3) if dt in FLOATS else (7, -3, 2.7) if dt != BOOL else (True, 0)):
            n, m = 3, 4
            rows = c.rows("api", "apiops", "api_factories", [dt, literal(value), n, m])
            v = round_to(dt, float(value) if dt in FLOATS else int(value))
            checks = [("zeros", [0] * 12), ("ones", [1] * 12), ("full", [v] * 12),
                      ("eye", [1 if i // m == i % m else 0 for i in range(12)]),
                      ("empty, fill_", [v] * 12), ("fill_ of a const tensor", [v] * 12)]
            for i, (what, want) in enumerate(checks):
                check_row("%s of %s (%s)" % (what, NAMES[dt], value), rows[i], dt, (n, m),
                          [(round_to(dt, x), 0) for x in want])
            check_row("full({size_t}) of %s" % NAMES[dt], rows[6], dt, (n * m,), [(v, 0)] * 12)
            check_row("full(sizes()) of %s" % NAMES[dt], rows[7], dt, (n, m), [(v, 0)] * 12)
            check_row("ones(sizes(), options()) of %s" % NAMES[dt], rows[8], dt, (n, m),
                      [(round_to(dt, 1), 0)] * 12)
        print("ok: factories of %s" % NAMES[dt])
    rows = c.rows("api", "apiops", "api_factories", [F32, 1, 2, 5])
    check_row("eye(2, 5)", rows[3], F32, (2, 5), [(1.0 if i in (0, 6) else 0.0, 0) for i in range(10)])


def case_errors(c):
    """Misuse ends the op with a message naming the operation, the same on
    both targets."""
    a = c.npy("a.npy", "<f8", (2, 3), [1, 2, 3, 4, 5, 6])
    b = c.npy("b.npy", "<f8", (3, 2), [1, 2, 3, 4, 5, 6])
    expected = [
        "add: the operands' shapes differ: [2, 3] and [3, 2] (no broadcasting)",
        "mul_out: the result has shape [1], the operands [2, 3]",
        "bitwise_and: the operands must be integers or bool, not float32",
        "add_out: cannot write a float32 result into a int32 tensor",
        "pow: integers to negative integer powers are not allowed",
        "add: alpha must not be a floating-point number for int32 operands",
        "sub: bool tensors cannot be subtracted",
        "zeros: the options give no dtype",
        "sin: float64 tensors are not supported",
        "abs: bool tensors are not supported",
        "eye: n and m must not be negative, got -1 and 2",
        "bitwise_not: the operands must be integers or bool, not float32",
        "use of an undefined tensor",
        "div_out: the operands' shapes differ: [2, 3] and [3, 2] (no broadcasting)",
        "clamp: bool tensors are not supported",
        "bitwise_or_out: cannot write a int32 result into a bool tensor",
    ]
    for which, needle in enumerate(expected):
        c.expect_error("api", "apiops", "api_errors", [a, b, which], "api_errors: " + needle)
    print("ok: %d misuses reported" % len(expected))


def case_accessors(c):
    """Standard accessors (read-only from a const tensor, 2-D and 3-D), TCM
    accessors (TensorTcmAccessor<true> and <false>), and operator=."""
    r_, c_ = 5, 7
    vals = float_values(F32, r_ * c_, 7)[15:15 + r_ * c_]
    vals = [v if math.isfinite(v) and abs(v) < 1e30 else 1.0 for v in vals]
    vals += [0.5] * (r_ * c_ - len(vals))
    x = c.npy("x.npy", "<f4", (r_, c_), vals)
    y = [f32(f32(2 * v) + 1) for v in vals]
    for label, path in (("C order", x),
                        ("Fortran order", c.npy("xf.npy", "<f4", (r_, c_),
                                                [vals[i * c_ + j] for j in range(c_) for i in range(r_)],
                                                fortran=True))):
        rows = c.rows("api", "apimem", "api_accessors", [path])
        check_row("2x+1 through accessors (%s)" % label, rows[0], F32, (r_, c_), [(v, 0) for v in y])
        check_row("2x+1 through tcm accessors (%s)" % label, rows[1], F32, (r_, c_), [(v, 0) for v in y])
        check_row("a 3-D accessor", rows[2], F32, (2, r_, c_),
                  [(f32(v * k), 0) for k in (1, 2) for v in vals])
        check_row("an int16 accessor", rows[3], I16, (r_, c_),
                  [(i * 100 + j, 0) for i in range(r_) for j in range(c_)])
        check_row("operator=", rows[4], F32, (r_, c_), [(f32(3 + v), 0) for v in y])
    print("ok: accessors")


def case_streams(c):
    """Streaming accessors: the guide's add over 3 chunks of 4 KiB, int16,
    a write stream flushed at scope exit, six streams at once (two beyond
    the pool), close()'s results, the pool full while four are open;
    then misuse, with an accessor index outside its dimension (1-D, and a
    37x53 tensor read as 256x256) and a tcm copy larger than its block."""
    n = 2500  # 10,000 bytes of float32: three buffers' worth
    vals = [float((i * 37) % 1001 - 500) / 8 for i in range(n)]
    ivals = [(i * 13) % 2001 - 1000 for i in range(n)]
    x = c.npy("x.npy", "<f4", (n,), vals)
    xi = c.npy("xi.npy", "<i2", (n,), ivals)
    rows = c.rows("api", "apimem", "api_streams", [x, xi])
    check_row("read+read->write streams", rows[0], F32, (n,), [(f32(2 * v), 0) for v in vals])
    check_row("int16 streams, written back at scope exit", rows[1], I16, (n,),
              [(wrap(3 * v, I16), 0) for v in ivals])
    check_row("six read streams", rows[2], F32, (n,), [(f32(6 * v), 0) for v in vals])
    check_row("close() and the pool", rows[3], I32, (5,), [(0, 0), (0, 0), (-1, 0), (1, 0), (1, 0)])
    # Fortran order: the streams walk the flat order through the strides.
    r_, c_ = 40, 25
    xf = c.npy("xf.npy", "<f4", (r_, c_), [vals[i * c_ + j] for j in range(c_) for i in range(r_)],
               fortran=True)
    xif = c.npy("xif.npy", "<i2", (r_, c_), ivals[:r_ * c_])
    rows = c.rows("api", "apimem", "api_streams", [xf, xif])
    check_row("streams over a Fortran-ordered tensor", rows[0], F32, (r_, c_),
              [(f32(2 * v), 0) for v in vals[:r_ * c_]])
    small = c.npy("small.npy", "<f4", (5,), [1, 2, 3, 4, 5])
    for which, needle in enumerate((
            "read_stream_accessor: read() past the end of the tensor's 5 elements",
            "write_stream_accessor: write() past the end of the tensor's 5 elements",
            "read_stream_accessor: read() on a closed stream",
            "read_stream_accessor<int32>: tensor is float32",
            "tcm_free: ",
            "accessor: index 5 is out of bounds for dimension 0 with size 5",
            "accessor: index 37 is out of bounds for dimension 0 with size 37",
            "tensor_to_tcm: 5 elements (20 bytes) do not fit the tcm_malloc block, which has 8 "
            "bytes from there")):
        c.expect_error("api", "apimem", "api_stream_errors", [small, which], "api_stream_errors: " + needle)
    print("ok: streams")


def case_coherence(c):
    """The coherence policy: COHERENT (the default) stops an incoherent
    mix naming the op, INCOHERENT_VERBOSE warns on the op's output,
    INCOHERENT_QUIET allows it silently; coherent mixes always pass."""
    x = c.npy("x.npy", "<f4", (4,), [1, 2, 3, 4])
    what = {0: "accessor: incoherent access: a standard accessor while a write stream accessor of "
               "the tensor is open",
            1: "write_stream_accessor: incoherent access: a write stream accessor while the tensor "
               "already has 0 read stream(s), 0 write stream(s) and 1 standard accessor(s) open",
            2: "write_stream_accessor: incoherent access: a write stream accessor while the tensor "
               "already has 1 read stream(s), 0 write stream(s) and 0 standard accessor(s) open"}
    for scenario in (0, 1, 2):
        c.expect_error("api", "apimem", "api_coherence", [x, 0, scenario],
                       ["api_coherence: " + what[scenario], "the coherence policy is COHERENT"])
        for policy in (1, 2):
            rh, re_, (_, _, got) = c.both("api", "apimem", "api_coherence", [x, policy, scenario])
            if got != [policy, 1]:
                fail("policy %d, scenario %d: %r" % (policy, scenario, got))
            warning = "warning: api_coherence: " + what[scenario]
            for r in (rh, re_):
                if (warning in r.stdout) != (policy == 1):
                    fail("policy %d, scenario %d: the warning %s: %r" % (
                        policy, scenario, "is missing" if policy == 1 else "should not be there",
                        r.stdout))
    for scenario in (3, 4):
        rh, re_, (_, _, got) = c.both("api", "apimem", "api_coherence", [x, 0, scenario])
        if got != [0, 1] or "warning" in rh.stdout + re_.stdout:
            fail("coherent scenario %d: %r %r" % (scenario, got, rh.stdout))
    print("ok: coherence policy")


def case_tcm(c):
    """tcm_malloc(16384) on an empty pool, four 4 KiB streams filling it:
    in the streams case; here tcm_malloc/tcm_free through the guide's TCM
    negate and the runtime's pool through many small blocks."""
    n = 3000
    vals = [float(i % 97) - 48.5 for i in range(n)]
    x = c.npy("x.npy", "<f4", (n,), vals)
    _, _, (descr, shape, got) = c.both("guide", "guide_tcm", "tensor_negate_compute", [x])
    if (descr, shape) != ("<f4", (n,)) or got != [-v for v in vals]:
        fail("tcm negate: %s %r" % (descr, shape))
    print("ok: tcm pool")


def check_line(path, text):
    """The line of path that contains text."""
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i
    fail("%s: no line with %r" % (path, text))


def case_checks(c):
    """assert() and abort() on the device and the host end the op with the
    op, file:line and the core, as TORCH_CHECK does (with its message)."""
    x = c.npy("x.npy", "<f4", (4,), [1, 2, 3, 4])
    mem = os.path.join(c.a.api, "mem.cpp")
    line = lambda t: check_line(mem, t)  # noqa: E731
    c.expect_error("api", "apimem", "api_checks", [x, 0],
                   "api_checks: mem.cpp:%d: assertion failed: x.numel() < 0 (on core 0)" % line("case 0: assert("))
    c.expect_error("api", "apimem", "api_checks", [x, 1], "api_checks: abort() was called (on core 0)")
    c.expect_error("api", "apimem", "api_checks", [x, 2],
                   "api_checks: mem.cpp:%d: expected x.numel() == 3: want 3 elements, got 4 of "
                   "float32 [4] (on core 0)" % line("case 2: TORCH_CHECK("))
    c.expect_error("api", "apimem", "api_checks", [x, 3],
                   "api_checks: mem.cpp:%d: expected x.dim() == 7 (on core 0)" % line("case 3: TORCH_CHECK("))
    _, _, (_, _, got) = c.both("api", "apimem", "api_checks", [x, 4])
    if got != [1]:
        fail("passing checks: %r" % got)
    print("ok: assert, abort, TORCH_CHECK")


def case_cxx(c):
    """The C++ headers (<algorithm>, <array>, <cmath>, <limits>, <numeric>,
    <utility>, <type_traits>, ...) in a kernel, against Python."""
    rng = random.Random(5)
    n = 200
    vals = [f32(rng.uniform(-50, 50)) for _ in range(n)]
    rows = c.rows("api", "apimem", "api_cxx", [c.npy("x.npy", "<f4", (n,), vals)])
    check_row("std::sort", rows[0], F32, (n,), [(v, 0) for v in sorted(vals)])
    key = [int(math.floor(v)) % 5 for v in vals]
    check_row("std::stable_sort", rows[1], I32, (n,), [(i, 0) for i in sorted(range(n), key=lambda i: key[i])])
    desc = sorted(vals, reverse=True)
    fmax = struct.unpack('<f', struct.pack('<I', 0x7f7fffff))[0]
    dvals = [min(vals), max(vals), 1.0, desc[n // 2], float(sum(1 for v in vals if v < 0)),
             float(sum(1 for v in vals if v > 0)), fmax, -fmax, 2.0 ** -23, math.inf,
             -3.0 + 3.0 + 1.5 + 4.0, 3.0 + 2.0 - 7.0, 7.0, 1024.125, 1.0, 1.5]
    check_row("<algorithm>, <cmath>, <limits> (double)", rows[2], F64, (16,), [(v, 0) for v in dvals])
    kvals = [-(1 << 63), (1 << 63) - 1, 255, 24, 24, 55, 55, 29, 32154, 7, 3, 10, 14, 1, 1, 1]
    check_row("<algorithm>, <numeric>, <utility> (int64)", rows[3], I64, (16,), [(v, 0) for v in kvals])
    print("ok: C++ headers")


def case_stack(c):
    """-DSTACK_SIZE=307200 given only to the compile (target_compile_options):
    the 288 KB frame runs on a switched stack on both targets."""
    x = c.npy("x.npy", "<f4", (5,), [0, 0, 0, 0, 0])
    rh, re_, (_, shape, got) = c.both("api", "apistack", "api_deep", [x])
    want = sum((i * 7 + 5) % 1000 for i in range(72000))
    if got != [want]:
        fail("api_deep: %r, want %d" % (got, want))
    for r in (rh, re_):
        if "switched stack: yes" not in r.stderr:
            fail("api_deep did not switch stacks: " + r.stderr)
    print("ok: a 300 KB stack from -DSTACK_SIZE=")


def case_multicore(c):
    """Eight cores over one output through TCM accessors; only core 0's
    printf reaches the output, on both targets (the device's rule)."""
    n = 1000
    vals = [float(i % 31) - 15 for i in range(n)]
    x = c.npy("x.npy", "<f4", (n,), vals)
    for cores in (8, 3, 1):
        rh, re_, (descr, shape, got) = c.both("api", "apimc", "api_mc_printf", [x],
                                              ["--cores=%d" % cores])
        if got != [-v for v in vals]:
            fail("api_mc_printf on %d cores" % cores)
        part = (n + cores - 1) // cores
        want = "core 0 of %d: elements 0 to %d\n" % (cores, min(part, n))
        for r in (rh, re_):
            if r.stdout != want:
                fail("printf on %d cores: %r, want %r" % (cores, r.stdout, want))
    # The guide's multicore kernel, eight per-core images.
    _, _, (_, _, got) = c.both("guide", "guide_mc", "example_kernel", [x], ["--cores=8"])
    if got != [-v for v in vals]:
        fail("the guide's multicore kernel")
    print("ok: multicore, printf from core 0 only")


def case_guide(c):
    """The reference guide's own examples: the accessor add, the streaming
    add, the TCM negate (case tcm), the printf negate."""
    n = 3000
    a = [float(i % 101) / 4 - 12 for i in range(n)]
    b = [float((i * 7) % 53) / 2 for i in range(n)]
    pa, pb = c.npy("a.npy", "<f4", (n,), a), c.npy("b.npy", "<f4", (n,), b)
    for lib in ("guide_add", "guide_stream"):
        _, _, (descr, shape, got) = c.both("guide", lib, "tensor_add_compute", [pa, pb])
        if (descr, shape) != ("<f4", (n,)) or got != [f32(x + y) for x, y in zip(a, b)]:
            fail("%s: tensor_add_compute" % lib)
    pc = c.npy("c.npy", "<f4", (4,), [1, 2, 3, 4])
    c.expect_error("guide", "guide_add", "tensor_add_compute", [pa, pc],
                   "assertion failed: t1.sizes() == t2.sizes()")
    v = [1, 2, 3, 4, 5, 6, 7, 8]
    rh, re_, (_, _, got) = c.both("guide", "guide_printf", "tensor_negate_compute",
                                  [c.npy("v.npy", "<f4", (8,), v)])
    want = "".join("Assigning element %d to a value of %f\n" % (i, -x) for i, x in enumerate(v))
    for r in (rh, re_):
        if r.stdout != want:
            fail("the printf example printed %r" % r.stdout)
    if got != [-x for x in v]:
        fail("the printf example: %r" % got)
    print("ok: the guide's examples")


def case_readonly(c):
    """A const Tensor's accessors are read-only: a write through one does
    not compile, for the device and for the host."""
    q7cc = os.path.join(c.a.bin, "q7cc")
    cases = {
        "acc.cpp": ("torch::Tensor f(const torch::Tensor &t) { auto a = t.accessor<float, 1>(); "
                    "a[0] = 1; return t; }", "read-only"),
        "tcm.cpp": ("torch::Tensor f(const torch::Tensor &t) { float b[1] = {0}; "
                    "t.tcm_accessor().tcm_to_tensor<float>(b, 0, 1); return t; }",
                    "a const Tensor's tcm_accessor() cannot write to the tensor"),
        "stream.cpp": ("torch::Tensor f(const torch::Tensor &t) { auto w = "
                       "t.write_stream_accessor<float>(); w.write(1); return t; }",
                       "write_stream_accessor() on a const Tensor (or a temporary): a write "
                       "stream cannot write to it"),
    }
    good = ("torch::Tensor f(const torch::Tensor &t) { torch::Tensor o = torch::empty(t.sizes(), "
            "torch::kFloat); auto a = t.accessor<float, 1>(); auto b = o.accessor<float, 1>(); "
            "b[0] = a[0]; o.tcm_accessor().tcm_to_tensor<float>(&b[0], 0, 1); return o; }")
    for tc in ("gnu", "host"):
        env = dict(os.environ, Q7_TOOLCHAIN=tc)
        src = c.path("good.cpp")
        with open(src, "w") as f:
            f.write("#include <torch/torch.h>\n" + good + "\n")
        sh([q7cc, "-c", src, "-o", c.path("good.o")], env=env)
        for name, (body, needle) in cases.items():
            src = c.path(name)
            with open(src, "w") as f:
                f.write("#include <torch/torch.h>\n" + body + "\n")
            r = subprocess.run([q7cc, "-c", src, "-o", c.path(name + ".o")], capture_output=True,
                               text=True, env=env)
            if r.returncode == 0 or needle not in r.stderr:
                fail("%s (%s) should not compile (%r): %s" % (name, tc, needle, r.stderr))
    print("ok: const tensors give read-only accessors")


def case_lint(c):
    """q7-multicore-accessor: with --q7-multicore on the compile line, the
    lint warns of standard and streaming accessors in a kernel."""
    q7cc = os.path.join(c.a.bin, "q7cc")
    src = c.path("k.cpp")
    with open(src, "w") as f:
        f.write("#include <torch/torch.h>\n#include <neuron/neuron-utils.hpp>\n"
                "#include <q7/kernel.h>\n"
                "Q7_KERNEL torch::Tensor k(const torch::Tensor &x) {\n"
                "    torch::Tensor o = get_dst_tensor();\n"
                "    auto a = x.accessor<float, 1>();\n"
                "    auto r = x.read_stream_accessor<float>();\n"
                "    o.tcm_accessor().tcm_to_tensor<float>(&a[0], 0, 1);\n"
                "    (void)r;\n    return o;\n}\n")
    for tc in ("gnu", "host"):
        env = dict(os.environ, Q7_TOOLCHAIN=tc)
        r = sh([q7cc, "--q7-multicore", "-c", src, "-o", c.path("k.o")], env=env)
        got = re.findall(r"k\.cpp:(\d+):(\d+): warning: .*\[-Wq7-multicore-accessor\]", r.stderr)
        if got != [("6", "16"), ("7", "16")]:
            fail("%s: the multicore lint gave %r: %s" % (tc, got, r.stderr))
        r = sh([q7cc, "-c", src, "-o", c.path("k.o")], env=env)
        if "q7-multicore-accessor" in r.stderr:
            fail("%s: a single-core compile warned: %s" % (tc, r.stderr))
    print("ok: the multicore accessor lint")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("work")
    p.add_argument("--bin", required=True)
    p.add_argument("--api", required=True)
    p.add_argument("--guide", required=True)
    a = p.parse_args()
    CASES[a.case](Ctx(a))


if __name__ == "__main__":
    main()
