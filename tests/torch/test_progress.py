"""The progress line of a build (q7cc/torch/_progress.py): load() of a
library not built before, in a new process whose stderr is a
pseudo-terminal, writes one line over and over ("\\r...\\x1b[K": what is
being built, n of m, the seconds) and ends with "built lib....so"; with
stderr a file, or with verbose=True, there is no such line, and
verbose=True gives each command a line of its own.
Q7CC_PROGRESS_AFTER=0 shows the line from the start (by default it
waits 2 s, and this build is quicker than that on a fast machine)."""
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import uuid

import libs

LOAD = """
import sys, torch
from q7cc.torch import custom_op
d, name, verbose = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
custom_op.load(name=name, compute_srcs=[sys.argv[4]], build_directory=d, verbose=verbose)
print("loaded", flush=True)
"""


def load(tmp_path, target, stderr, verbose=False):
    """A new process loading a new library (ints.cpp), stderr as given;
    returns (the process, its stdout)."""
    name = "progress_%s" % uuid.uuid4().hex[:8]
    env = dict(os.environ, Q7CC_TORCH_TARGET=target, Q7CC_PROGRESS_AFTER="0", TERM="xterm")
    p = subprocess.Popen([sys.executable, "-c", LOAD, str(tmp_path / name), name,
                          "1" if verbose else "0", os.path.join(libs.KERNELS, "ints.cpp")],
                         stdout=subprocess.PIPE, stderr=stderr, env=env)
    return p, name


def terminal():
    """A pseudo-terminal 200 columns wide: (master, slave)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    return master, slave


def read_all(fd, p):
    """What the pseudo-terminal's other end saw until the process ended."""
    out = b""
    while True:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the slave side is closed
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    return out.decode("utf-8", "replace")


def test_a_terminal_shows_one_updating_line(tmp_path, target):
    master, slave = terminal()
    try:
        p, name = load(tmp_path, target, slave)
        os.close(slave)
        slave = None
        seen = read_all(master, p)
        stdout = p.stdout.read().decode()
        assert p.wait(timeout=600) == 0, seen
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    assert "loaded" in stdout
    lines = re.findall(r"\r(q7cc\.torch: building [^\r\x1b]*)\x1b\[K", seen)
    assert lines, "no progress line in %r" % seen
    for line in lines:
        assert re.fullmatch(r"q7cc\.torch: building lib%s\.so \[\d+/\d+\] .* \(\d+ s\)" % name,
                            line), line
    assert any("compiling ints.cpp" in x for x in lines), lines
    assert any("linking lib%s.so" % name in x for x in lines), lines
    counts = {re.search(r"\[(\d+/\d+)\]", x).group(1) for x in lines}
    assert "2/2" in counts, counts
    # The line is written over, never scrolled: no newline until the last
    # line, which says what was built.
    last = seen.rsplit("\x1b[K", 1)[1]
    assert re.fullmatch(r"\r?q7cc\.torch: built lib%s\.so: 2 steps in \d+ s\r?\n" % name,
                        last), repr(last)


def test_no_line_when_stderr_is_a_file(tmp_path, target):
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as f:
        p, _ = load(tmp_path, target, f)
        stdout = p.communicate(timeout=600)[0].decode()
    assert p.returncode == 0 and "loaded" in stdout
    text = err.read_text()
    assert "\r" not in text and "\x1b" not in text and "building" not in text, repr(text)


def test_verbose_gives_each_command_a_line(tmp_path, target):
    master, slave = terminal()
    try:
        p, name = load(tmp_path, target, slave, verbose=True)
        os.close(slave)
        slave = None
        seen = read_all(master, p)
        assert p.wait(timeout=600) == 0, seen
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    assert "\x1b[K" not in seen and "building" not in seen, repr(seen)
    commands = [x for x in seen.splitlines() if x.startswith("$ ")]
    assert len(commands) >= 2, seen
    for c in commands:
        assert c.count("$ ") == 1 and c.count(" -o ") == 1, "two commands on a line: %r" % c
