#!/usr/bin/env python3
"""q7-run --target=emulated --profile=FILE end to end.

  run_profile.py CASE WORK --bin STAGE_BIN --kernels DIR --npytool DIR

'build' compiles kernels/profile_ops.cpp with q7cc (gnu, single image and
--q7-multicore) into WORK/build; the other cases use it:
  folded     exact counts: the raw profile's sum is the -icount total of
             the same call unprofiled; mix() called n times shows n times
             one call; runtime and soft-float frames by name; the result is
             the unprofiled run's; the default device view counts each
             float helper's call as one instruction ("f32 mul"), the rest
             as the raw view
  general_case  a helper's fast path jumping to its general code: counted
             in the helper's frame (raw), one instruction (device)
  multicore  one root per core, each core's sum its own -icount total
  errors     a profile name that is neither .folded nor .svg, a view
             that is neither device nor raw, a host run,
             a stripped image: refused, nothing written
  svg        the flame graph: box widths proportional to the counts, each
             frame's name, count and share in its tooltip; in headless
             Chromium (a screenshot in WORK/svg) its search marks mix and
             reports mix's instructions, its hover line names a frame
  memory_map q7cc --q7-memory-map of the single image, the manifest and one
             core's image: windows, sections (as readelf -S), image (as
             readelf -l), stack (the ops' largest, 64 KiB), free; the SVG:
             one column per core, boxes to scale, each section labelled
  quiet      40 profiled runs in a row, none with a word on stderr but
             -v's: QEMU is killed before its socket closes, so the boot
             program never reports a session it saw end (it said "q7boot:
             cannot write the result" on about 1 run in 3)
  link_fit   an image past its core's window: the link fails with one message
             naming the image, core, section and bytes over, nothing written;
             a 2 MiB stack beside an image in a 2 MiB window links (switched
             to the heap arena at run time) and the memory map says so"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
from run_e2e import fail  # noqa: E402


def sh(argv, env=None, expect_ok=True):
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    if r.returncode < 0:
        fail("crashed (signal %d): %s\n%s" % (-r.returncode, " ".join(argv), r.stderr))
    if expect_ok and r.returncode != 0:
        fail("command failed: %s\n%s%s" % (" ".join(argv), r.stdout, r.stderr))
    return r


class Ctx:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.work, a.case)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.build = os.path.join(a.work, "build")
        self.run_bin = os.path.join(a.bin, "q7-run")
        self.single = os.path.join(self.build, "libprof.so")
        self.multi = os.path.join(self.build, "libprof_mc.so")

    def path(self, name):
        return os.path.join(self.work, name)

    def run(self, lib, op, args, opts=(), env=None, expect_ok=True):
        out = self.path("out.npy")
        if os.path.exists(out):
            os.unlink(out)
        argv = [self.run_bin, "-v", "--target=emulated"] + list(opts) + [lib, op]
        argv += [str(x) for x in args] + ["-o", out]
        r = sh(argv, dict(os.environ, **(env or {})), expect_ok)
        data = open(out, "rb").read() if r.returncode == 0 else None
        return r, data

    def icount(self, lib, op, args, opts=()):
        """The unprofiled call's instructions per core (-icount)."""
        r, data = self.run(lib, op, args, opts, env={"Q7CC_EMU_STATS": "1", "Q7CC_EMU_ICOUNT": "1"})
        n = [int(m) for m in re.findall(r"emulated core \d+: \d+ cycles, (\d+) instructions",
                                        r.stderr)]
        if not n:
            fail("no instruction count in: %s" % r.stderr)
        return n, data

    def profile(self, lib, op, args, name, opts=()):
        f = self.path(name)
        r, data = self.run(lib, op, args, ["--profile=" + f] + list(opts))
        if "profile: " not in r.stderr:
            fail("-v did not report the profile: %s" % r.stderr)
        return f, data


def read_folded(path):
    stacks = {}
    for i, line in enumerate(open(path), 1):
        m = re.fullmatch(r"(\S[^\n]*) (\d+)\n", line)
        if not m or m.group(1).startswith(";") or ";;" in m.group(1):
            fail("%s:%d: not a folded stack: %r" % (path, i, line))
        if m.group(1) in stacks:
            fail("%s:%d: the stack is listed twice" % (path, i))
        stacks[m.group(1)] = int(m.group(2))
    if not stacks:
        fail("%s: empty" % path)
    return stacks


def under(stacks, frame):
    """Instructions at or under any frame named frame."""
    return sum(n for s, n in stacks.items() if frame in s.split(";"))


def case_build(c):
    os.makedirs(c.build, exist_ok=True)
    src = os.path.join(c.a.kernels, "profile_ops.cpp")
    q7cc = os.path.join(c.a.bin, "q7cc")
    env = dict(os.environ, Q7_TOOLCHAIN="gnu")
    obj = os.path.join(c.build, "profile_ops.o")
    sh([q7cc, "-O2", "-c", src, "-o", obj], env)
    sh([q7cc, "-shared", "-o", c.single, obj], env)
    sh([q7cc, "-shared", "--q7-multicore", "-o", c.multi, obj], env)


def write_inputs(c):
    sys.path.insert(0, c.a.npytool)
    import npytool
    x = c.path("x.npy")
    npytool.write(x, "<i4", (2,), [7, 3])
    rows = c.path("rows.npy")
    npytool.write(rows, "<i4", (16, 4), [(i * 37) % 101 - 50 for i in range(64)])
    return x, rows


def case_folded(c):
    x, _ = write_inputs(c)
    per_n = {}
    for n in (1, 7):
        counts, plain = c.icount(c.single, "mix_n", [x, n])
        f, data = c.profile(c.single, "mix_n", [x, n], "mix%d.folded" % n, ["--profile-view=raw"])
        if data != plain:
            fail("n=%d: the profiled run's result differs from the unprofiled one" % n)
        st = read_folded(f)
        total = sum(st.values())
        if total != counts[0]:
            fail("n=%d: the profile sums to %d instructions, -icount counted %d" % (n, total, counts[0]))
        if any(not s.startswith("core0;") for s in st):
            fail("n=%d: a stack outside core0: %s" % (n, [s for s in st if not s.startswith("core0;")]))
        mix = [s for s in st if s.endswith(";mix_n;mix")]
        if len(mix) != 1:
            fail("n=%d: expected one stack ending in mix_n;mix, got %s" % (n, mix))
        per_n[n] = st[mix[0]]
        print("n=%d: %d instructions (-icount %d), mix %d" % (n, total, counts[0], per_n[n]))
        # Runtime frames (argument marshalling, allocation, the stack switch)
        # and the soft-float multiply under scale() appear by name.
        for frame in ("customop_next_tensor", "customop_next_longlong", "q7rt_tensor_new",
                      "switch_stack_or_call_wrapper", "mix_n_wrapper"):
            if under(st, frame) <= 0:
                fail("n=%d: no %s frame in %s" % (n, frame, f))
        if not any(s.endswith(";mix_n;scale;__mulsf3") for s in st):
            fail("n=%d: __mulsf3 is not under mix_n;scale" % n)
        check_device_view(c, x, n, st)
    if per_n[1] <= 0 or per_n[7] != 7 * per_n[1]:
        fail("mix called 7 times shows %d instructions, once %d (expected 7x)" % (per_n[7], per_n[1]))


UNIT = re.compile(r"[fiu](32|64) (add|sub|mul|div|neg|cmp|mod|to [fiu](32|64))")


def check_device_view(c, x, n, raw):
    """The default view: mix_n's one float multiply, int-to-float and
    float-to-int conversions each one instruction in a frame of its own,
    nothing under them; every stack without a helper as in the raw view."""
    f, _ = c.profile(c.single, "mix_n", [x, n], "mix%d-device.folded" % n)
    dev = read_folded(f)
    for tail in (";mix_n;scale;f32 mul", ";mix_n;i32 to f32", ";mix_n;f32 to i32"):
        got = [m for s, m in dev.items() if s.endswith(tail)]
        if got != [1]:
            fail("n=%d: device view: expected one stack ending in %s counting 1, got %s"
                 % (n, tail, got))
    for s in dev:
        frames = s.split(";")
        if any(UNIT.fullmatch(fr) for fr in frames[:-1]):
            fail("n=%d: device view: a frame under a unit's operation: %s" % (n, s))
    plain = lambda st: {s: m for s, m in st.items()
                        if not any(fr.startswith("__") or UNIT.fullmatch(fr) for fr in s.split(";"))}
    if plain(dev) != plain(raw):
        fail("n=%d: device view: the stacks without a helper differ from the raw view's" % n)
    units = sum(m for s, m in dev.items() if UNIT.fullmatch(s.split(";")[-1]))
    print("n=%d: device view %d instructions (raw %d), %d of them a unit's"
          % (n, sum(dev.values()), sum(raw.values()), units))


def case_general_case(c):
    """A helper's fast path that jumps to its general code (__addsf3 with
    a zero): the raw view counts that code in the helper's frame (no frame
    of its own), the device view one instruction for the call."""
    x, _ = write_inputs(c)
    f, data = c.profile(c.single, "sum_zero", [x], "zero.folded", ["--profile-view=raw"])
    raw = read_folded(f)
    if not any(s.endswith(";sum_zero;__addsf3") for s in raw):
        fail("raw view: no __addsf3 under sum_zero: %s" % list(raw))
    inner = [s for s in raw if "q7sf_" in s or ";__addsf3;" in s]
    if inner:
        fail("raw view: the general case has frames of its own: %s" % inner)
    f, _ = c.profile(c.single, "sum_zero", [x], "zero-device.folded")
    dev = read_folded(f)
    got = [n for s, n in dev.items() if s.endswith(";sum_zero;f32 add")]
    if got != [1]:
        fail("device view: expected one f32 add under sum_zero counting 1, got %s" % got)
    print("general case: __addsf3 %d instructions raw, 1 in the device view"
          % sum(n for s, n in raw.items() if s.endswith(";__addsf3")))


def case_multicore(c):
    _, rows = write_inputs(c)
    counts, plain = c.icount(c.multi, "mix_rows", [rows], ["--cores=8"])
    f, data = c.profile(c.multi, "mix_rows", [rows], "rows.folded",
                        ["--cores=8", "--profile-view=raw"])
    if data != plain:
        fail("the profiled 8-core run's result differs from the unprofiled one")
    st = read_folded(f)
    roots = sorted({s.split(";")[0] for s in st})
    if roots != ["core%d" % i for i in range(8)]:
        fail("expected one root per core, core0..core7, got %s" % roots)
    if len(counts) != 8:
        fail("expected 8 -icount lines, got %s" % counts)
    mixes = []
    for i in range(8):
        mine = {s: n for s, n in st.items() if s.startswith("core%d;" % i)}
        if sum(mine.values()) != counts[i]:
            fail("core%d: the profile sums to %d, -icount counted %d" % (i, sum(mine.values()), counts[i]))
        mixes.append(under(mine, "mix"))
    # 16 rows of 4 over 8 cores: every core calls mix() 8 times.
    if len(set(mixes)) != 1 or mixes[0] <= 0 or mixes[0] % 8:
        fail("mix's instructions per core: %s (expected 8 equal calls on each)" % mixes)
    print("8 cores: %s instructions, mix %d each" % (counts, mixes[0]))


def case_errors(c):
    x, _ = write_inputs(c)
    bad = c.path("p.txt")
    r, _ = c.run(c.single, "mix_n", [x, 1], ["--profile=" + bad], expect_ok=False)
    if r.returncode == 0 or ".folded" not in r.stderr or os.path.exists(bad):
        fail("--profile=p.txt: expected a refusal naming .folded and .svg: %s" % r.stderr)
    r, _ = c.run(c.single, "mix_n", [x, 1], ["--profile=" + c.path("v.folded"),
                                             "--profile-view=cycles"], expect_ok=False)
    if r.returncode == 0 or "--profile-view=raw" not in r.stderr \
            or "--profile-view=device" not in r.stderr or os.path.exists(c.path("v.folded")):
        fail("--profile-view=cycles: expected a refusal naming device and raw: %s" % r.stderr)
    f = c.path("h.folded")
    argv = [c.run_bin, "--target=host", "--profile=" + f, c.single, "mix_n", x, "1", "-o",
            c.path("o.npy")]
    r = sh(argv, expect_ok=False)
    if r.returncode == 0 or "--target=emulated" not in r.stderr or os.path.exists(f):
        fail("--profile on the host: expected a refusal naming --target=emulated: %s" % r.stderr)
    # A stripped image has no symbols to name frames with.
    stripped = c.path("libstripped.so")
    shutil.copy(os.path.join(c.build, "libprof.stripped.so"), stripped)
    shutil.copy(os.path.join(c.build, "libprof.packed.so"), c.path("libstripped.packed.so"))
    f = c.path("s.folded")
    r, _ = c.run(stripped, "mix_n", [x, 1], ["--profile=" + f], expect_ok=False)
    if r.returncode == 0 or "no symbol table" not in r.stderr or stripped not in r.stderr \
            or os.path.exists(f):
        fail("a stripped image: expected 'no symbol table' naming it, nothing written: %s" % r.stderr)


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium(c, args):
    exe = shutil.which("chromium")
    if not exe:
        fail("chromium not found (Debian package chromium; scripts/setup-deps installs it)")
    with tempfile.TemporaryDirectory(dir=c.work) as profile_dir:
        argv = [exe] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile_dir] + args
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("chromium failed: %s\n%s" % (" ".join(argv), r.stderr[-2000:]))
    return r.stdout


# Run in the picture as a browser shows it: every label's box (its font's
# cell) inside the window, none overlapping another, a frame's name inside
# its frame; what is wrong, as JSON, in a <desc id="layout">.
LAYOUT_CHECK = """<script type="text/ecmascript"><![CDATA[
window.addEventListener('load', function () {
  var W = @W@, H = @H@;
  var svg = document.documentElement, box = svg.getBoundingClientRect(), ts = svg.getElementsByTagName('text'), v = [], bad = [];
  for (var i = 0; i < ts.length; i++) {
    var t = ts[i], r = t.getBoundingClientRect(), s = t.textContent;
    if (!s.trim()) continue;
    v.push([r, s]);
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      bad.push('outside the ' + W + 'x' + H + ' window: ' + s + ' ' + JSON.stringify(r));
    else if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)
      bad.push('cut by the edge of the picture: ' + s);
    var g = t.parentNode;
    if (g.getAttribute('class') === 'f') {
      var q = g.getElementsByTagName('rect')[0].getBoundingClientRect();
      /* The whole name's width at the smallest size a name is given (10 px). */
      var px = parseFloat(getComputedStyle(t).fontSize);
      var name = g.getAttribute('data-name'), full = r.width / s.length * name.length * 10 / px;
      if (r.left < q.left - 0.5 || r.right > q.right + 0.5)
        bad.push('past its frame: ' + s);
      else if (s !== name && full + 6 <= q.width)
        bad.push('cut though the whole name fits at 10 px: ' + s + ' for ' + name);
    }
  }
  for (var i = 0; i < v.length; i++)
    for (var j = i + 1; j < v.length; j++) {
      var a = v[i][0], b = v[j][0];
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1)
        bad.push('overlap: ' + v[i][1] + ' | ' + v[j][1]);
    }
  var d = document.createElementNS('http://www.w3.org/2000/svg', 'desc');
  d.setAttribute('id', 'layout');
  d.textContent = JSON.stringify({texts: v.length, bad: bad, width: box.width});
  svg.appendChild(d);
});
]]></script>
"""


def layout_problems(c, svg, query="", size="1400,900"):
    """The picture at size in headless Chromium: (labels, what is wrong)."""
    text = open(svg).read()
    probe = c.path("layout-" + os.path.basename(svg))
    with open(probe, "w") as f:
        w, h = size.split(",")
        f.write(text.replace("</svg>", LAYOUT_CHECK.replace("@W@", w).replace("@H@", h) + "</svg>"))
    dom = chromium(c, ["--window-size=" + size, "--dump-dom", "file://" + probe + query])
    m = re.search(r'<desc id="layout">([^<]*)</desc>', dom)
    if not m:
        fail("%s: the layout check did not run: %s" % (svg, dom[-500:]))
    import json
    r = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                   .replace("&gt;", ">"))
    return r["texts"], r["bad"], r["width"]


def check_layout(c, svg, what, query=""):
    """Every label whole and none overlapping at 1400x900; a screenshot.
    The picture's width in the window."""
    n, bad, width = layout_problems(c, svg, query)
    if n < 10 or bad:
        fail("%s at 1400x900: %d labels; %s" % (what, n, "\n  ".join(bad[:20]) or "too few"))
    shot = os.path.splitext(svg)[0] + ".png"
    chromium(c, ["--window-size=1400,900", "--screenshot=" + shot, "file://" + os.path.abspath(svg) + query])
    with open(shot, "rb") as f:
        png = f.read()
    if not png.startswith(b"\x89PNG") or len(png) < 5000:
        fail("%s: not a picture (%d bytes)" % (shot, len(png)))
    print("%s: %d labels whole, none overlapping at 1400x900; screenshot %s" % (what, n, shot))
    return width


def case_svg(c):
    x, _ = write_inputs(c)
    svg, _ = c.profile(c.single, "mix_n", [x, 7], "mix.svg")
    folded, _ = c.profile(c.single, "mix_n", [x, 7], "mix.folded")
    st = read_folded(folded)
    total = sum(st.values())
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(svg).getroot()
    if int(root.get("data-total")) != total:
        fail("the flame graph's total %s is not the folded total %d" % (root.get("data-total"), total))
    frames = root.findall("s:g[@class='f']", ns)
    if len(frames) < 10:
        fail("only %d frames drawn" % len(frames))
    per = None
    for g in frames:
        n = int(g.get("data-count"))
        w = float(g.find("s:rect", ns).get("width"))
        title = g.find("s:title", ns).text
        share = "%.2f%%" % (100.0 * n / total)
        if g.get("data-name") not in title or str(n) not in title or share not in title:
            fail("tooltip %r lacks the name, count %d or share %s" % (title, n, share))
        if w > 2:
            if per is None:
                per = w / n
            elif abs(w / n - per) > per * 0.01:
                fail("%s: width %.2f for %d instructions, not proportional (%.6f px each)" %
                     (g.get("data-name"), w, n, per))
    # The search is by substring: mix, mix_n, mix_n_wrapper... each stack
    # counted once.
    # What each frame is shows: the kernel's own code, the runtime's
    # (argument marshalling, allocation, the stack switch), soft float.
    kinds = {g.get("data-name"): g.get("data-kind") for g in frames}
    for name, kind in (("mix_n", "kernel"), ("mix", "kernel"), ("scale", "kernel"),
                       ("customop_next_tensor", "runtime"), ("q7rt_tensor_new", "runtime"),
                       ("switch_stack_or_call_wrapper", "runtime"), ("mix_n_wrapper", "runtime"),
                       ("core0", "root")):
        if kinds.get(name) != kind:
            fail("%s is drawn as %s, expected %s" % (name, kinds.get(name), kind))
    # A unit's operation (mix_n's one multiply is too narrow to draw beside
    # the runtime's checks: scale_n makes 2000).
    units, _ = c.profile(c.single, "scale_n", [x, 1000], "units.svg")
    drawn = {g.get("data-name"): g.get("data-kind")
             for g in ET.parse(units).getroot().findall("s:g[@class='f']", ns)}
    if drawn.get("f32 mul") != "unit":
        fail("f32 mul is drawn as %s, expected unit" % drawn.get("f32 mul"))
    kernel_mix = sum(n for s, n in st.items() if "mix" in s)
    url = "file://" + os.path.abspath(svg) + "?s=mix&hover=mix_n"
    # At 1400x900 (a screenshot in WORK/svg/mix.png): as wide as the
    # window, every name whole or cut only where even 10 px is too wide.
    width = check_layout(c, svg, "the flame graph", "?s=mix&hover=mix_n")
    if abs(width - 1400) > 1:
        fail("the flame graph is %.0f px wide in a 1400 px window" % width)
    dom = chromium(c, ["--dump-dom", url])
    m = re.search(r'id="matched"[^>]*>([^<]*)<', dom)
    want = 'Matched "mix": %s instructions' % format(kernel_mix, ",")
    if not m or want not in m.group(1).replace("&quot;", '"'):
        fail("search: expected %r in the page, got %r" % (want, m.group(1) if m else dom[-500:]))
    mix_n = under(st, "mix_n")
    d = re.search(r'id="details"[^>]*>([^<]*)<', dom)
    want = "mix_n: %s instructions, %.2f%%" % (format(mix_n, ","), 100.0 * mix_n / total)
    if not d or want not in d.group(1):
        fail("hover: expected %r in the page, got %r" % (want, d.group(1) if d else None))
    print("flame graph: %d frames, search and hover checked" % len(frames))


WINDOW, CORE_WINDOW, SINGLE_WINDOW = 0x84000000, 0x200000, 0x2000000


def readelf_sections(path):
    """readelf -SW: allocated sections with a size, {name: (addr, size)}."""
    out = sh(["readelf", "-SW", path]).stdout
    secs = {}
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]{8})\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*A\S*)\s", line)
        if m and int(m.group(3), 16):
            secs[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return secs


def readelf_extent(path):
    """readelf -lW: the lowest PT_LOAD address and the end of the highest."""
    out = sh(["readelf", "-lW", path]).stdout
    lo, hi = None, 0
    for m in re.finditer(r"LOAD\s+0x[0-9a-f]+ 0x([0-9a-f]+) 0x[0-9a-f]+ 0x[0-9a-f]+ 0x([0-9a-f]+)", out):
        a, size = int(m.group(1), 16), int(m.group(2), 16)
        lo = a if lo is None else min(lo, a)
        hi = max(hi, a + size)
    return lo, hi


def parse_map(text):
    """q7cc --q7-memory-map's text: [(who, image, {row: (addr, size)})]."""
    cores = []
    for line in text.splitlines():
        m = re.match(r"(core \d|the single core): (\S+)$", line)
        if m:
            cores.append((m.group(1), m.group(2), {}))
            continue
        m = re.match(r"  (\S+(?: \S+)?)\s+(0x[0-9a-f]{8}|-)\s+(-?\d+ bytes|-)", line)
        if m and cores:
            a = int(m.group(2), 16) if m.group(2) != "-" else None
            n = int(m.group(3).split()[0]) if m.group(3) != "-" else None
            cores[-1][2][m.group(1)] = (a, n)
    return cores


def check_core(who, image, rows, core):
    base = WINDOW + core * CORE_WINDOW if core >= 0 else WINDOW
    size = CORE_WINDOW if core >= 0 else SINGLE_WINDOW
    if rows.get("SRAM window") != (base, size):
        fail("%s: window %s, expected 0x%08x, %d bytes" % (who, rows.get("SRAM window"), base, size))
    secs = readelf_sections(image)
    got = {k: v for k, v in rows.items() if k.startswith(".")}
    if got != secs:
        fail("%s: sections %s, readelf -S says %s" % (who, got, secs))
    lo, hi = readelf_extent(image)
    if rows["image"] != (lo, hi - lo) or lo != base:
        fail("%s: image %s, readelf -l: 0x%08x..0x%08x" % (who, rows["image"], lo, hi))
    if rows["stack"] != (base + size - 65536, 65536):
        fail("%s: stack %s, expected the 64 KiB of 'stacked' at the top" % (who, rows["stack"]))
    if rows["free"] != (hi, base + size - 65536 - hi):
        fail("%s: free %s, expected 0x%08x, %d bytes" % (who, rows["free"], hi, base + size - 65536 - hi))
    if rows["TCM"][1] != 16384 or "heap arena" not in rows:
        fail("%s: no heap arena or 16 KiB TCM row: %s" % (who, rows))


def case_memory_map(c):
    q7cc = os.path.join(c.a.bin, "q7cc")
    r = sh([q7cc, "--q7-memory-map", c.single])
    [(who, image, rows)] = parse_map(r.stdout)
    check_core(who, image, rows, -1)
    cpu3 = os.path.join(c.build, "libprof_mc_cpu3.so")
    [(who, image, rows)] = parse_map(sh([q7cc, "--q7-memory-map", cpu3]).stdout)
    if who != "core 3":
        fail("%s: mapped as %s, not core 3" % (cpu3, who))
    check_core(who, image, rows, 3)
    svg = c.path("map.svg")
    r = sh([q7cc, "--q7-memory-map", c.multi, "-o", svg])
    cores = parse_map(r.stdout)
    if [w for w, _, _ in cores] != ["core %d" % i for i in range(8)]:
        fail("the manifest's map: %s, expected core 0..7" % [w for w, _, _ in cores])
    for i, (who, image, rows) in enumerate(cores):
        check_core(who, image, rows, i)
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.parse(svg).getroot()
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    if sorted(t for t in texts if re.fullmatch(r"core \d", t)) != ["core %d" % i for i in range(8)]:
        fail("the SVG's columns: %s" % [t for t in texts if t.startswith("core")])
    # The window to scale (a byte the same height in every column), the
    # image and the stack enlarged (one scale within a column), each part
    # named beside it.
    per = float(root.find("s:rect[@class='window']", ns).get("height")) / CORE_WINDOW
    zoom = {}
    for g in root.findall("s:g", ns):
        m = re.match(r"(.*): 0x([0-9a-f]{8}), (\d+) bytes", g.find("s:title", ns).text)
        h = float(g.find("s:rect", ns).get("height"))
        n = int(m.group(3))
        if g.get("class") == "win":
            if h > 1 and abs(h - n * per) > 0.02:
                fail("%s: %.2f px for %d bytes, not to scale (%.6f px a byte)" % (m.group(1), h, n, per))
            continue
        core = (int(m.group(2), 16) - WINDOW) // CORE_WINDOW
        if h > 1:
            zoom.setdefault(core, []).append(h / n)
        label = "".join(g.itertext())
        if "%s %d" % (m.group(1), n) not in label:
            fail("the enlarged box of %s is not named with its size: %r" % (m.group(1), label))
    for core, scales in zoom.items():
        if max(scales) - min(scales) > 0.01 * max(scales) or min(scales) < 5 * per:
            fail("core %d: the enlarged boxes are not to one scale, or not enlarged: %s (window %.6f)"
                 % (core, scales, per))
    # The heading says whether it fits and what is free.
    a, n = cores[0][2]["image"]
    fr = cores[0][2]["free"][1]
    want = "Fits: the fullest, core 0 uses %d B of 2 MiB; %.2f MiB free" % (n + 65536, fr / 2**20)
    if not any(t.startswith(want) for t in texts):
        fail("the heading: expected %r in %s" % (want, texts[:3]))
    check_layout(c, svg, "the 8-core memory map")
    one = c.path("map1.svg")
    sh([q7cc, "--q7-memory-map", c.single, "-o", one])
    check_layout(c, one, "the single-core memory map")
    print("memory map: single, core 3, manifest (8 columns) agree with readelf")


def case_link_fit(c):
    q7cc = os.path.join(c.a.bin, "q7cc")
    env = dict(os.environ, Q7_TOOLCHAIN="gnu")
    src = os.path.join(c.a.kernels, "too_big.cpp")
    obj = c.path("big.o")
    sh([q7cc, "-O2", "-c", src, "-o", obj], env)
    out = c.path("libbig.so")
    r = sh([q7cc, "-shared", "--q7-multicore", "-o", out, obj], env, expect_ok=False)
    m = re.search(r"region `sram0_0_seg' overflowed by (\d+) bytes", r.stderr)
    ours = [l for l in r.stderr.splitlines() if l.startswith("q7cc: error:")]
    if r.returncode == 0 or not m or len(ours) != 1:
        fail("an image past its window: expected ld's overflow and one q7cc message: %s" % r.stderr)
    for want in ("libbig_cpu0.so", "core 0's 2 MiB SRAM window", "section .bss",
                 "%s bytes over" % m.group(1)):
        if want not in ours[0]:
            fail("expected %r in: %s" % (want, ours[0]))
    left = [f for f in os.listdir(c.work) if f.startswith("libbig")]
    if left:
        fail("a failed link left %s" % left)
    # The link asked again for ld's words is shown under -v as every step
    # is (docs/driver.md, "Showing and running a step"): core 0's command
    # twice, the link and the question, before the message.
    r = sh([q7cc, "-v", "-shared", "--q7-multicore", "-o", out, obj], env, expect_ok=False)
    lines = r.stderr.splitlines()
    cpu0 = [i for i, l in enumerate(lines)  # commands: "... -o DIR/libbig_cpu0.so ..."
            if re.search(r" -o \S*/libbig_cpu0\.so ", l)]
    ours = [i for i, l in enumerate(lines) if l.startswith("q7cc: error:")]
    if (r.returncode == 0 or len(cpu0) != 2 or lines[cpu0[0]] != lines[cpu0[1]] or len(ours) != 1
            or ours[0] < cpu0[1]):
        fail("-v: expected core 0's link shown twice (run, asked again) before q7cc's "
             "message: %s" % r.stderr)
    obj = c.path("deep.o")
    sh([q7cc, "-O2", "-DDEEP", "-c", src, "-o", obj], env)
    out = c.path("libdeep.so")
    # A 2 MiB stack beside an image in a 2 MiB window links: the call
    # switches to a stack from the heap arena (the vendor's runtime does
    # the same), and the memory map says so.
    sh([q7cc, "-shared", "--q7-multicore", "-o", out, obj], env)
    r = sh([q7cc, "--q7-memory-map", c.path("libdeep_cpu0.so")], env)
    if "the call switches to one from the heap arena" not in r.stdout:
        fail("the memory map should say the stack is switched: %s" % r.stdout)
    sh([q7cc, "-shared", "-o", out, obj], env)
    print("link fit: overflow refused in words; a stack past the window is switched")


def case_quiet(c):
    x, _ = write_inputs(c)
    runs = 40
    for i in range(runs):
        r, _ = c.run(c.single, "mix_n", [x, 1], ["--profile=" + c.path("q.folded")])
        noise = [l for l in r.stderr.splitlines() if not l.startswith("q7-run: ")]
        if noise:
            fail("run %d of %d: stderr beyond q7-run's own lines: %s" % (i + 1, runs, noise))
    print("quiet: %d profiled runs, stderr clean" % runs)


CASES = {"quiet": case_quiet, "build": case_build, "memory_map": case_memory_map, "link_fit": case_link_fit, "folded": case_folded, "general_case": case_general_case, "multicore": case_multicore,
         "errors": case_errors, "svg": case_svg}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("work")
    p.add_argument("--bin", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("--npytool", required=True)
    a = p.parse_args()
    CASES[a.case](Ctx(a))


if __name__ == "__main__":
    main()
