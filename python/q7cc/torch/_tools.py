"""What the build, the bridge's build and the precompiled header share:
the host's tools (its C++ compiler, libtorch's folders), running a
command whose outputs appear whole or not at all (BuildError when it
fails), a lock between processes, and the hashes that key what was
built. It imports no other module of the package: they all import it."""
import contextlib
import errno
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile

import torch

# C++ comments, for reading a source's text (the code, not what it says)
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


class BuildError(RuntimeError):
    """A compile or link failed. .command is the command line (a list),
    .output the compiler's diagnostics."""

    def __init__(self, what, command, output):
        self.command = command
        self.output = output
        super().__init__("%s failed:\n$ %s\n%s" % (what, shlex.join(command), output.rstrip()))


_file_hashes = {}


SOURCE_MAX = 256 << 20  # what q7cc's pre-scan reads of a source, too


def open_regular(path):
    """path opened for reading when it is a regular file (after links),
    without waiting on a FIFO and before a byte is read (docs/robustness.md,
    "Special files"); else OSError naming it and why."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file (a FIFO, a device or a folder)", path)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def file_hash(path):
    """sha256 of a file's bytes, cached per (path, inode, size, mtime,
    ctime): the ctime, which nobody can set back, changes with each write."""
    st = os.stat(path)
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    h = _file_hashes.get(key)
    if h is None:
        with open_regular(path) as f:
            h = _file_hashes[key] = hashlib.file_digest(f, "sha256").hexdigest()
    return h


def tool_hash(argv0):
    """The compiler's executable, as far as it can be found."""
    p = shutil.which(argv0)
    return file_hash(os.path.realpath(p)) if p else argv0


def write_whole(path, text):
    """path appears whole or not at all (text: str or bytes)."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix="." + os.path.basename(path))
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def digest(*parts):
    d = hashlib.sha256()
    for p in parts:
        d.update(repr(p).encode())
        d.update(b"\0")
    return d.hexdigest()


def torch_paths():
    """libtorch's include folders and library folder, as this torch has them."""
    base = os.path.dirname(os.path.abspath(torch.__file__))
    inc = os.path.join(base, "include")
    return [inc, os.path.join(inc, "torch", "csrc", "api", "include")], os.path.join(base, "lib")


def cxx_standard():
    """The C++ standard to compile against this torch's headers with:
    C++20 where its <ATen/ATen.h> asks for it (2.15.0's does), else
    C++17 (2.5.1; Debian's 1.13, whose headers are not in the package)."""
    for inc in torch_paths()[0]:
        try:
            with open(os.path.join(inc, "ATen", "ATen.h"), encoding="utf-8",
                      errors="replace") as f:
                if "C++20 or later" in f.read(1 << 16):
                    return "-std=c++20"
        except OSError:
            pass
    return "-std=c++17"


SHAPE_TORCH = b"q7cc-shape-torch:"


def built_for_torch(path, limit=1 << 30):
    """The torch a shape library says it was built against
    (<torchneuron/register.h>'s q7_neuron_torch): ("2.15", 1), the
    major.minor and the C++ ABI; None when it says nothing (an older
    q7cc's)."""
    with open(path, "rb") as f:
        data = f.read(limit)
    at = data.find(SHAPE_TORCH)
    if at < 0:
        return None
    fields = data[at + len(SHAPE_TORCH):at + 64].split(b";")
    if len(fields) < 3 or not fields[1].startswith(b"abi"):
        return None
    return fields[0].decode("ascii", "replace"), fields[1][3:].decode("ascii", "replace")


def host_cxx():
    """The host's C++ compiler: $CXX, else c++; c++ too when CXX names q7cc
    under any of its names (q7cc-host, xt-clang++, ...: links to the one
    executable; docs/torch.md, "The API")."""
    cxx = shlex.split(os.environ.get("CXX") or "c++")
    p = shutil.which(cxx[0])
    return ["c++"] if p and os.path.basename(os.path.realpath(p)) == "q7cc" else cxx


def run_command(what, command, renames, verbose, log, show=False):
    """Runs command with its outputs renamed (renames: the path it names
    -> the temporary it writes); on failure the temporaries are removed
    and BuildError raised. verbose: the command is shown first, and what
    it printed when it succeeded (its warnings), as with show."""
    if verbose:
        log("$ " + shlex.join(command))
    r = subprocess.run([renames.get(a, a) for a in command], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0:
        for p in renames.values():
            if os.path.exists(p):
                os.unlink(p)
        raise BuildError(what, command, out)
    if (verbose or show) and out:
        log(out.rstrip())


@contextlib.contextmanager
def locked(path, what, log):
    """An exclusive lock on path (created) for the block; says once that
    it waits when another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log("q7cc.torch: waiting for another process building %s" % what)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
