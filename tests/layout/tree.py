"""What the layout checks share: a tree of files made for a self-test, and
the report of what a check found."""
import contextlib
import os
import re
import sys
import tempfile

# A function definition: its name at the start of a line, "{" on the next
# line or the same one (the project's style).
DEFINITION = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\([^;]*$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def sources(root, top, exts=(".c", ".h")):
    """top's C files, its subfolders' too (analysis/clang), as top/..."""
    for dirpath, dirs, names in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(exts):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def code_lines(root, name):
    """The lines of root/name, comments and strings blanked, as (number,
    line, the function the line is in or None)."""
    with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
        text = f.read()
    text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    text = STRING.sub('""', text)
    function = None
    for no, line in enumerate(text.split("\n"), 1):
        m = DEFINITION.match(line)
        if m:
            function = m.group(1)
        yield no, line, function


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
