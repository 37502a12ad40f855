"""Where q7cc.torch finds and keeps things, and the C++ ABI of this torch:
said once here, read by every other module.

q7cc's own files are where this package is: <prefix>/<PYTHONDIR>/q7cc/
torch (q7cc/_layout.py says which PYTHONDIR). The per-user caches
(user_cache, shape_objects, bridges) hold what docs/robustness.md,
"Caches", lists, and load()'s default build directories; whether a
folder may serve as a cache is _cache's to say."""
import os

import torch

from .. import _layout

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
PREFIX = os.path.normpath(os.path.join(PACKAGE_DIR, "..", "..",
                                       *[".."] * len(_layout.PYTHONDIR.split("/"))))


def user_cache(*parts):
    """$XDG_CACHE_HOME/q7cc/torch/<parts>, else ~/.cache/q7cc/torch/<parts>."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "q7cc", "torch", *parts)


def shape_objects():
    """The shape-object cache, shared by every build directory:
    Q7CC_TORCH_CACHE, else <user cache>/shape-objects."""
    return os.environ.get("Q7CC_TORCH_CACHE") or user_cache("shape-objects")


def bridges():
    """The bridges built for a torch: Q7CC_TORCH_BRIDGE_CACHE, else
    <user cache>/bridge."""
    return os.environ.get("Q7CC_TORCH_BRIDGE_CACHE") or user_cache("bridge")


def cxx11_abi():
    """The C++ ABI this torch was built with (_GLIBCXX_USE_CXX11_ABI, 0 or 1):
    what the bridge and the shape files must be compiled with."""
    return int(torch._C._GLIBCXX_USE_CXX11_ABI)
