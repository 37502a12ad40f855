"""pytest setup for tests/torch: the target (Q7CC_TORCH_TARGET, which
CTest sets per test: host or emulated) and the test libraries."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session")
def target():
    t = os.environ.get("Q7CC_TORCH_TARGET", "host")
    assert t in ("host", "emulated")
    return t
