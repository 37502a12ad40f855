"""q7cc.torch's caches trusted as q7cc's own (docs/robustness.md,
"Caches"): a shape-object entry edited or replaced by a link is a miss and
is compiled again (the link's target untouched), a bridge whose library or
record was changed is built again, and a cache folder writable by others
or another user's is not used, with one note (custom_op.load()'s default
build directory too). A fake compiler stands for the host's (it counts
its compiles), so this takes a second."""
import json
import os
import subprocess
import sys

import pytest

from q7cc.torch import _bridge, _build, _cache, custom_op

FAKE = r'''#!%s
import sys
a = sys.argv[1:]
out, dep = a[a.index("-o") + 1], a[a.index("-MF") + 1]
src = a[a.index("-P") + 1] if "-E" in a else a[a.index("-c") + 1]
text = open(src, "rb").read()
open(out, "wb").write(text if "-E" in a else b"OBJECT " + text)
open(dep, "w").write("%%s: %%s\n" %% (out, src))
if "-c" in a:
    open(%r, "a").write("compiled\n")
'''


@pytest.fixture
def shape(tmp_path):
    """run(): one shape step through the cache; returns the compiles so far."""
    count = tmp_path / "count"
    cxx = tmp_path / "cxx"
    cxx.write_text(FAKE % (sys.executable, str(count)))
    cxx.chmod(0o755)
    src = tmp_path / "s.cpp"
    src.write_text("int shape;\n")
    cache = tmp_path / "cache"

    def run(use_cache=True):
        obj = tmp_path / "s.o"
        dep = tmp_path / "s.d"
        cmd = [str(cxx), "-MD", "-MF", str(dep), "-c", str(src), "-o", str(obj)]
        d = _cache.private_dir(str(cache)) if use_cache else None
        step = _build.ShapeStep("compiling s.cpp", cmd, str(obj), "k", str(obj) + ".json",
                                str(dep), str(src), ["flags"], d)
        step.run(False, lambda s: None)
        assert obj.read_bytes() == b"OBJECT int shape;\n"
        return len(count.read_text().splitlines()) if count.exists() else 0
    run.cache = cache
    return run


def entry(cache):
    (e,) = [p for p in cache.iterdir() if p.suffix == ".o"]
    return e


def test_an_edited_shape_entry_is_compiled_again(shape):
    assert shape() == 1
    assert shape() == 1  # a hit
    e = entry(shape.cache)
    st = e.stat()
    e.write_bytes(e.read_bytes().replace(b"int shape", b"int plant"))
    os.utime(e, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert shape() == 2  # a miss, the object right
    assert shape() == 2  # written whole again


def test_a_shape_entry_linked_elsewhere_is_replaced_not_written_through(shape, tmp_path):
    assert shape() == 1
    e = entry(shape.cache)
    victim = tmp_path / "bashrc"
    victim.write_text("export SAFE=1\n")
    e.unlink()
    e.symlink_to(victim)
    assert shape() == 2
    assert victim.read_text() == "export SAFE=1\n"
    assert e.is_file() and not e.is_symlink()


def test_a_folder_others_may_write_is_not_used(shape, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(_cache, "_noted", False)
    shape.cache.mkdir(mode=0o700)
    shape.cache.chmod(0o777)
    monkeypatch.setenv("Q7CC_TORCH_CACHE", str(shape.cache))
    assert _build.shape_cache() is None
    assert _cache.private_dir(str(shape.cache)) is None
    err = capsys.readouterr().err
    assert err.count("not used as a cache") == 1, err
    assert "%s: writable by others (mode 0777)" % shape.cache in err, err
    # without the cache the step compiles each time, and puts nothing there
    assert shape(use_cache=False) == 1
    assert shape(use_cache=False) == 2
    assert list(shape.cache.iterdir()) == []
    shape.cache.chmod(0o700)
    sub = shape.cache / "shared"
    sub.mkdir()
    sub.chmod(0o777)
    assert _cache.private_dir(str(sub / "q7cc")) is None  # a folder above: not sticky
    sub.chmod(0o1777)
    assert _cache.private_dir(str(sub / "q7cc")) == str(sub / "q7cc")  # as /tmp


def test_another_users_folder_is_not_used():
    me = os.geteuid()
    other = 65534 if me != 65534 else 65533

    def st(uid, mode):
        return os.stat_result((mode, 0, 0, 0, uid, 0, 0, 0, 0, 0))
    assert _cache._unsafe(st(me, 0o40700), True) is None
    assert _cache._unsafe(st(other, 0o40700), True) == \
        "owned by uid %d, not by you (uid %d)" % (other, me)
    assert _cache._unsafe(st(other, 0o40755), False) is not None  # above it, neither
    assert _cache._unsafe(st(0, 0o40755), False) is None  # root's, as /home
    assert _cache._unsafe(st(0, 0o40755), True) is not None or me == 0
    # group write: the user's own group is the user; another group is others
    gid = os.getegid()

    def gst(mode, g):
        return os.stat_result((mode, 0, 0, 0, me, g, 0, 0, 0, 0))
    assert _cache._unsafe(gst(0o40770, gid), True) is None
    assert _cache._unsafe(gst(0o40770, gid + 1), True) == "writable by others (mode 0770)"


def test_a_changed_bridge_is_built_again(tmp_path):
    out, record = tmp_path / "libq7torch.so", tmp_path / "libq7torch.so.json"
    out.write_bytes(b"\x7fELF a bridge")
    _cache.write_entry(str(record), json.dumps({
        "torch": _bridge.torch.__version__, "key": "K",
        "sha256": _cache.file_sum(str(out))}).encode())
    assert _bridge.cached_bridge(str(out), str(record), "K")
    assert not _bridge.cached_bridge(str(out), str(record), "other key")
    out.write_bytes(b"\x7fELF a planted bridge")
    assert not _bridge.cached_bridge(str(out), str(record), "K")
    # a record edited to match is damaged
    text = record.read_bytes()
    rec = json.loads(text.split(b"\n#sha256 ")[0])
    rec["sha256"] = _cache.file_sum(str(out))
    record.write_bytes(json.dumps(rec).encode() + text[text.index(b"\n#sha256 "):])
    assert not _bridge.cached_bridge(str(out), str(record), "K")
    # the library replaced by a link to a good copy
    _cache.write_entry(str(record), json.dumps(rec).encode())
    assert _bridge.cached_bridge(str(out), str(record), "K")
    good = tmp_path / "good.so"
    good.write_bytes(out.read_bytes())
    out.unlink()
    out.symlink_to(good)
    assert not _bridge.cached_bridge(str(out), str(record), "K")


def test_a_default_build_directory_others_may_write_is_not_used(tmp_path, monkeypatch, capsys):
    """custom_op.load()'s default build directory is under the cache
    folder: one others may write would have its objects loaded."""
    monkeypatch.setattr(_cache, "_noted", False)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    seen = []

    class Built(Exception):
        pass

    def build(name, compute, shape, build_directory, *rest, **options):
        seen.append(build_directory)
        raise Built()
    monkeypatch.setattr(custom_op, "build", build)
    src = tmp_path / "k.cpp"
    src.write_text("int k;\n")
    with pytest.raises(Built):
        custom_op.load("planted", [str(src)])
    assert not seen[0].startswith(str(shared)), seen
    assert os.stat(seen[0]).st_mode & 0o077 == 0
    assert "not used as a cache" in capsys.readouterr().err
    shared.chmod(0o755)  # as the user's own: used
    seen.clear()
    with pytest.raises(Built):
        custom_op.load("planted", [str(src)])
    assert seen[0] == str(shared / "q7cc" / "torch" / "planted"), seen


def test_no_fifo_blocks_a_read(tmp_path):
    fifo = tmp_path / "entry.o"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-c", "from q7cc.torch import _cache; "
                        "print(_cache.read_entry(%r, 1 << 20))" % str(fifo)],
                       capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "None", r.stdout + r.stderr


def special(path, kind):
    """path made a FIFO ("fifo") or a link to /dev/zero ("zero")."""
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_special_neuron_library_record_is_a_miss(tmp_path, kind):
    """neuron_library.json in a build folder is a cache entry: as a FIFO its
    read hung load(), as a link to /dev/zero it read 7 GB to a MemoryError.
    Now a miss: q7cc (a fake here) is asked again, and the record replaced."""
    q7cc = tmp_path / "q7cc"
    q7cc.write_text("#!/bin/sh\necho '{\"neuron_library\": []}'\n")
    q7cc.chmod(0o755)
    record = special(tmp_path / "neuron_library.json", kind)
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30)); "
            "from q7cc.torch import _build; "
            "print(_build.shape_defs(%r, 'k', 'host', [], [], %r))" % (str(q7cc), str(tmp_path)))
    # The time-out is a hang detector, not a measure of speed.
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
    assert record.is_file() and not record.is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_special_source_is_refused_before_it_is_read(tmp_path, kind):
    """A source or header given to load() that is a FIFO (it hung the
    source's hash and the precompiled header's look at it) or a link to
    /dev/zero (read until memory ran out): an OSError naming it."""
    src = special(tmp_path / "k.cpp", kind)
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30)); "
            "from q7cc.torch import _pch, _tools\n"
            "for f in (lambda: _tools.file_hash(%r), lambda: _pch.usable(['g++'], %r)):\n"
            "    try:\n        f()\n    except OSError as e:\n        print(e)\n" % (str(src), str(src)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and all("not a regular file" in l and str(src) in l for l in lines), \
        r.stdout + r.stderr
