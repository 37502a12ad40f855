#!/usr/bin/env python3
"""unit.layout_lengths: no function of the production code (every top
folder but tests/, bench/, fuzz/, examples/; C, C++ and Python) is longer
than 80 lines, from the line of its name to its closing brace (Python: its
last line), as universal-ctags measures it
(its "end" field). The few that are stand on ALLOWED, each for a reason; an
entry that is no longer long is reported too, so the list only shrinks.

The same measurement by hand, from the source root:
  git ls-files '*.c' '*.h' '*.cpp' '*.hpp' '*.py' | grep -vE '^(tests|bench|fuzz|examples)/' |
    ctags -L - --kinds-c=f --kinds-c++=f --kinds-python=fm --fields=+ne --output-format=json -o - |
    python3 -c 'import json,sys; [print(t["end"]-t["line"]+1, t["path"], t["name"])
      for t in map(json.loads, sys.stdin) if t.get("end", 0)-t.get("line", 0) >= 80]'

Usage: check_lengths.py [--ctags PROGRAM] ROOT         check the tree
       check_lengths.py [--ctags PROGRAM] --self-test  check the check"""
import json
import os
import subprocess
import sys

from tree import expect, made_tree, report

LIMIT = 80
# Top folders that are not shipped code; every other top folder holding
# sources is checked.
NOT_PRODUCTION = ("tests", "bench", "fuzz", "examples", "build", "out", "Testing")
SOURCES = (".c", ".h", ".cpp", ".hpp", ".py")
# (path, function): why it stays longer than LIMIT.
ALLOWED = {
}


def sources(root):
    """The source files of the checked folders, relative to root, sorted."""
    found = []
    for top in sorted(os.listdir(root)):
        if top in NOT_PRODUCTION or top.startswith(".") or top.startswith("build"):
            continue
        if not os.path.isdir(os.path.join(root, top)):
            continue
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            found += [os.path.relpath(os.path.join(folder, f), root)
                      for f in sorted(files) if f.endswith(SOURCES)]
    return found


def lengths(root, ctags):
    """(lines, path, name) of every function ctags finds in the sources."""
    files = sources(root)
    if not files:
        return []
    try:
        out = subprocess.run([ctags, "-L", "-", "--kinds-c=f", "--kinds-c++=f",
                              "--kinds-python=fm", "--fields=+ne",
                              "--output-format=json", "-o", "-"],
                             input="\n".join(files), cwd=root, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"check_lengths: {ctags} failed ({e}); it needs universal-ctags "
                 "(apt-get install universal-ctags)")
    found = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag:
            found.append((tag["end"] - tag["line"] + 1, tag["path"], tag["name"]))
    return found


def findings(root, ctags, allowed):
    bad = []
    long_ones = set()
    for n, path, name in sorted(lengths(root, ctags)):
        if n <= LIMIT:
            continue
        long_ones.add((path, name))
        if (path, name) not in allowed:
            bad.append(f"{path}: {name} is {n} lines (at most {LIMIT}): split it into "
                       "helpers whose names say what each part does")
    for path, name in sorted(set(allowed) - long_ones):
        bad.append(f"{path}: {name} is on ALLOWED but no longer over {LIMIT} lines: "
                   "take it off (tests/layout/check_lengths.py)")
    return bad


def body(lines):
    return "int f(void)\n{\n" + "\tx();\n" * lines + "}\n"


def self_test(ctags):
    """A long function is caught, an allowed one is not, one of exactly
    LIMIT lines is not, tests/ is not checked, and an allowed entry that is
    short again is reported."""
    files = {
        "wrapper/a.c": body(LIMIT - 3) + "\nstatic int g(int x)\n{\n" + "\tx++;\n" * LIMIT + "}\n",
        "run/b.c": body(LIMIT + 5).replace("int f(", "int allowed("),
        "run/c.c": body(1).replace("int f(", "int was_long("),
        "tests/run/t.c": body(LIMIT * 2),
        "python/q7/m.py": "def short():\n    pass\n\n\nclass C:\n    def long_method(self):\n"
                          + "        x = 1\n" * LIMIT,
    }
    allowed = {("run/b.c", "allowed"): "a reason", ("run/c.c", "was_long"): "a reason"}
    with made_tree(files) as root:
        got = [b.split(" (")[0].split(":")[0] + ": " + b.split(": ", 1)[1].split(" is ")[0]
               for b in findings(root, ctags, allowed)]
    return expect(got, ["python/q7/m.py: long_method", "wrapper/a.c: g", "run/c.c: was_long"])


def main():
    args = sys.argv[1:]
    ctags = "ctags"
    if len(args) >= 2 and args[0] == "--ctags":
        ctags, args = args[1], args[2:]
    arg = args[0] if len(args) == 1 else ""
    if arg == "--self-test":
        sys.exit(self_test(ctags))
    bad = findings(os.path.abspath(arg), ctags, ALLOWED)
    sys.exit(min(1, report(bad, f"functions over {LIMIT} lines in the production code")))


if __name__ == "__main__":
    main()
