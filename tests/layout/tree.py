"""What the layout checks share: a tree of files made for a self-test, and
the report of what a check found."""
import contextlib
import os
import sys
import tempfile


@contextlib.contextmanager
def made_tree(files):
    """A temporary folder holding files ({path: text}), removed after."""
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        yield root


def report(bad, summary):
    """Prints each finding, then "<count> <summary>"; returns the count."""
    for b in bad:
        print(b)
    print(f"{len(bad)} {summary}")
    return len(bad)


def expect(got, want):
    """A self-test's verdict: 0 when got is want, else 1, said."""
    if got != want:
        print(f"self-test: expected {want}, got {got}")
        return 1
    return 0


def main(check, self_test):
    """check_X.py ROOT checks the tree; check_X.py --self-test checks the
    check. Exits 0 when nothing was found."""
    arg = sys.argv[1] if len(sys.argv) == 2 else ""
    sys.exit(self_test() if arg == "--self-test" else min(1, check(os.path.abspath(arg))))
