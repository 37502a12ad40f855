#!/usr/bin/env python3
"""Checks a package's debian/copyright against its unpacked tree.

  check_copyright.py COPYRIGHT ROOT

The file is machine-readable (DEP-5): a header naming the format, then
Files paragraphs, then License paragraphs. Every licence a Files paragraph
names (split at "and", "or", parentheses; "with X exception" kept with its
licence) has a paragraph with its text. The copies of other projects'
files in the package (picolibc's libc.a, GCC's libgcc.a, both under
usr/lib/q7cc/xtensa/lsp) each have their own Files paragraph, not the
project's "*" one, naming a licence other than the project's Apache-2.0.
The program that links libelf and json-c statically (usr/bin/q7cc) names
LGPL-3+ and Expat; it and the analysis plugin, which link libiberty's
demangler statically, name its licence.
Prints each problem; exits 1 on any.
"""
import fnmatch
import os
import re
import sys


def paragraphs(text):
    """The paragraphs as dicts of field -> value (continuation lines kept)."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        fields, key = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line.strip()
            else:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        out.append(fields)
    return out


def short_names(expr):
    """"A and (B or C with X exception)" -> ["A", "B", "C with X exception"]."""
    first = expr.split("\n")[0]
    return [n for n in re.split(r"\s+(?:and|or)\s+|[()]", first) if n.strip()]


def matches(patterns, path):
    return any(fnmatch.fnmatchcase(path, p) for p in patterns.split())


def check(paras, root):
    problems = []
    header, rest = paras[0], paras[1:]
    if not header.get("Format", "").startswith("https://www.debian.org/doc/packaging-manuals/"
                                                "copyright-format/1.0"):
        problems.append("the first paragraph does not name the DEP-5 format")
    files = [p for p in rest if "Files" in p]
    texts = {p["License"].split("\n")[0].strip(): p["License"] for p in rest if "Files" not in p}
    for p in files:
        if "\n" in p.get("License", ""):  # the text inline
            continue
        for name in short_names(p.get("License", "")):
            body = texts.get(name.strip(), "")
            if "\n" not in body:
                problems.append(f"licence {name.strip()!r} (Files: {p['Files']}) has no text")
    bundled = [os.path.relpath(os.path.join(d, f), root)
               for d, _, names in os.walk(os.path.join(root, "usr/lib/q7cc/xtensa/lsp"))
               for f in names if f.endswith(".a")]
    if len(bundled) < 2:
        problems.append(f"expected libc.a and libgcc.a in the package, found {bundled}")
    demangler = ["usr/bin/q7cc", "usr/lib/q7cc/q7analysis-clang.so"]
    for path in bundled + demangler:
        last = [p for p in files if matches(p["Files"], path)]
        para = last[-1] if last else None
        if not para or para["Files"] == "*":
            problems.append(f"{path}: no Files paragraph of its own")
        elif para["License"].split("\n")[0].strip() == "Apache-2.0":
            problems.append(f"{path}: declared as the project's own Apache-2.0 code")
        elif path == "usr/bin/q7cc" and "LGPL-3+" not in para["License"]:
            problems.append(f"{path}: links libelf (LGPL-3+ or GPL-2+) but does not say so")
        elif path == "usr/bin/q7cc" and "Expat" not in para["License"]:
            problems.append(f"{path}: links json-c (Expat) but does not say so")
        if para and path in demangler and "libiberty-demangler exception" not in para["License"]:
            problems.append(f"{path}: links libiberty's demangler but does not say so")
    return problems


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        problems = check(paragraphs(f.read()), sys.argv[2])
    for p in problems:
        print(f"{sys.argv[1]}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
