"""load() runs the sources, headers and flags as they stand, each load in
a new process: a header of the compute source and of the shape source
edited, the source, a flag, and then the old text put back under its old
mtime, each change gives the numbers and the shape it should (a library
that is not linked again after its object was recompiled runs the old
code). Processes loading one library at once all succeed and compile each
object once; the shape cache is keyed by content, not by path."""
import os
import shutil
import subprocess
import sys
import uuid

import libs

FILES = ("stale.cpp", "stale_scale.h", "stale_shape.cpp", "stale_rows.h")

LOAD = """
import sys, torch
from q7cc.torch import custom_op
d, flags = sys.argv[1], sys.argv[2:]
custom_op.load(name="stale", compute_srcs=[d + "/stale.cpp"], shape_srcs=[d + "/stale_shape.cpp"],
               build_directory=d + "/build", verbose=True, extra_cflags=flags)
print("result", torch.ops.stale.stale(torch.ones(2)).tolist())
"""


def sources(tmp_path):
    for f in FILES:
        shutil.copy(os.path.join(libs.KERNELS, f), tmp_path / f)
    return tmp_path


def load_in_new_process(d, target, flags=()):
    """(the op's result for x = ones(2), the build's log)."""
    env = dict(os.environ, Q7CC_TORCH_TARGET=target)
    r = subprocess.run([sys.executable, "-c", LOAD, str(d)] + list(flags), capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    line = [x for x in r.stdout.splitlines() if x.startswith("result ")][-1]
    return eval(line[len("result "):]), r.stderr


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_every_load_runs_the_text_as_it_stands(tmp_path, target):
    d = sources(tmp_path)
    originals = {f: ((d / f).read_text(), os.stat(d / f).st_mtime_ns) for f in FILES}
    assert load_in_new_process(d, target)[0] == [2.0, 3.0, 4.0]
    # a header of the compute source
    edit(d / "stale_scale.h", "2.0f", "3.0f")
    assert load_in_new_process(d, target)[0] == [3.0, 4.0, 5.0]
    # a header of the shape source: the output's shape
    edit(d / "stale_rows.h", "3", "4")
    assert load_in_new_process(d, target)[0] == [3.0, 4.0, 5.0, 6.0]
    # the source
    edit(d / "stale.cpp", "+ (float)i", "- (float)i")
    assert load_in_new_process(d, target)[0] == [3.0, 2.0, 1.0, 0.0]
    # a flag
    assert load_in_new_process(d, target, ["-DSTALE_EXTRA=100"])[0] == [103.0, 102.0, 101.0,
                                                                        100.0]
    # every file back to its old text under its old mtime (touch -d)
    for f, (text, mtime) in originals.items():
        (d / f).write_text(text)
        os.utime(d / f, ns=(mtime, mtime))
    result, log = load_in_new_process(d, target)
    assert result == [2.0, 3.0, 4.0]
    # the old shape object is the cache's: not compiled again
    assert "-c %s" % (d / "stale_shape.cpp") not in log and "compiled before" in log, log
    # and nothing changed since: nothing runs
    assert "$ " not in load_in_new_process(d, target)[1]


def test_concurrent_loads_compile_each_object_once(tmp_path, target):
    d = sources(tmp_path)
    # a shape file no process compiled before (code: a comment is not)
    with open(d / "stale_shape.cpp", "a") as f:
        f.write('extern const char stale_token[] = "%s";\n' % uuid.uuid4())
    env = dict(os.environ, Q7CC_TORCH_TARGET=target)
    procs = [subprocess.Popen([sys.executable, "-c", LOAD, str(d)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    logs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, out + err
        assert "result [2.0, 3.0, 4.0]" in out
        logs.append(err)
    log = "".join(logs)
    assert log.count("-c %s" % (d / "stale.cpp")) == 1, log
    assert log.count("-c %s" % (d / "stale_shape.cpp")) == 1, log
    assert log.count("-o %s" % (d / "build" / "libstale.so")) == 1, log

    # the same shape file in another folder, another build directory: the
    # cache's object, by its content
    other = tmp_path / "other"
    other.mkdir()
    for f in FILES:
        shutil.copy(d / f, other / f)
    result, log = load_in_new_process(other, target)
    assert result == [2.0, 3.0, 4.0]
    assert "-c %s" % (other / "stale_shape.cpp") not in log and "compiled before" in log, log
