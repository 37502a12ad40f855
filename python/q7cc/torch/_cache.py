"""q7cc.torch's caches (shape objects, bridges) trusted as q7cc trusts its
own (wrapper/cachefile.h), by the rules of docs/robustness.md, "Caches":
a folder that fails them is gone without, after one note saying why; a
damaged or edited entry is a miss."""
import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile

from ._tools import write_whole

_TAG = b"\n#sha256 "
_noted = False


def _others_write(st):
    """Others may write it: all users, or a group that is not the user's
    own (a user private group, Debian's default with umask 002, is the
    user)."""
    return st.st_mode & 0o002 or (st.st_mode & 0o020 and st.st_gid != os.getegid())


def _unsafe(st, leaf):
    """Why a folder (its lstat) cannot hold a cache, or None."""
    me = os.geteuid()
    if not stat.S_ISDIR(st.st_mode):
        return "not a folder (a link?)" if leaf else None
    if st.st_uid != me and (leaf or st.st_uid != 0):
        return "owned by uid %d, not by you (uid %d)" % (st.st_uid, me)
    if _others_write(st) and (leaf or not st.st_mode & stat.S_ISVTX):
        return "writable by others (mode %04o)" % stat.S_IMODE(st.st_mode)
    return None


def _why_unsafe(path):
    why = _unsafe(os.lstat(path), True)
    if why:
        return "%s: %s" % (path, why)
    p = os.path.realpath(os.path.dirname(path))
    while True:
        why = _unsafe(os.lstat(p), False)
        if why:
            return "%s: %s" % (p, why)
        if p == "/":
            return None
        p = os.path.dirname(p)


def private_dir(path):
    """path, made 0700 when missing, when it is safe to cache in; else
    None (after one note per process when it is there but not safe)."""
    global _noted
    try:
        missing = []
        p = os.path.abspath(path)
        while not os.path.lexists(p):
            missing.append(p)
            p = os.path.dirname(p)
        for p in reversed(missing):  # each 0700, as q7cc makes its own
            try:
                os.mkdir(p, 0o700)
            except FileExistsError:
                pass  # another process made it meanwhile
        why = _why_unsafe(path)
    except OSError:
        return None  # cannot be made: it only costs the work
    if why is None:
        return path
    if not _noted:
        print("q7cc.torch: note: %s: not used as a cache: %s (make it yours and 0700, or set "
              "XDG_CACHE_HOME to a folder of yours)" % (path, why), file=sys.stderr, flush=True)
        _noted = True
    return None


def private_or_temp(path, prefix):
    """private_dir(path), else a private temporary folder for this process
    (removed at its exit): the work is done again, never in a folder
    someone else may write."""
    d = private_dir(path)
    if d is None:
        d = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, d, True)
    return d


def _sum(data):
    return _TAG + hashlib.sha256(data).hexdigest().encode() + b"\n"


def _open_own(path):
    """path opened for reading when it is a regular file of the user's
    that nobody else may write, without following a link or waiting on a
    FIFO; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    f = os.fdopen(fd, "rb")
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or _others_write(st):
        f.close()
        return None
    return f


def read_entry(path, limit):
    """The entry's contents without its checksum, or None for a miss."""
    f = _open_own(path)
    if f is None:
        return None
    n = len(_sum(b""))
    with f:
        data = f.read(limit + n + 1)
    body = data[:-n]
    return body if n <= len(data) <= limit + n and data[-n:] == _sum(body) else None


def write_entry(path, data):
    """Writes data and its checksum to path, whole or not at all."""
    write_whole(path, data + _sum(data))


def file_sum(path):
    """sha256 of a regular file of the user's (as _open_own), or None."""
    f = _open_own(path)
    if f is None:
        return None
    with f:
        return hashlib.file_digest(f, "sha256").hexdigest()
