"""What the layout checks share: a tree of files made for a self-test, and
the report of what a check found."""
import contextlib
import os
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
