#!/usr/bin/env python3
"""unit.layout_citations: what the code and the docs cite exists. A page
named (docs/runtime.md, README.md, ...) is a file of the tree, found from
the citing file's folder, the top or docs/; a section cited after it
(docs/profile.md, "Each core's memory") begins one of its headings; and
nothing cites a tracker's number ("issue 7"), which a reader of the tree
cannot open.

Usage: check_citations.py ROOT         check the tree
       check_citations.py --self-test  check that each kind of bad citation is caught"""
import os
import re

from tree import expect, main, made_tree, report

EXTS = (".c", ".h", ".cpp", ".hpp", ".py", ".sh", ".cmake", ".txt", ".md", ".lua", ".in")
SKIP = {"build", ".git", "node_modules"}
PAGE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b")
SECTION = re.compile(r"((?:[\w.-]+/)*[\w-]+\.md),\s+\"([^\"]+)\"")
TRACKER = re.compile(r"\b(?:issue|tracker|bug)\s+#?\d+\b", re.I)
# Self-tests whose text names pages of their own, and bad citations.
MADE = {os.path.join("tests", "docs", "selftest.py"),
        os.path.join("tests", "layout", "check_citations.py")}


# An installed page (share/q7cc/doc/X.md, as the code names it at run
# time) is docs/X.md of the tree.
INSTALLED = "share/q7cc/doc/"


def find(root, here, page):
    if page.startswith(INSTALLED):
        page = os.path.join("docs", page[len(INSTALLED):])
    for base in (here, root, os.path.join(root, "docs")):
        path = os.path.join(base, page)
        if os.path.isfile(path):
            return path
    return None


# A section: a heading, or a paragraph's or list item's bold or italic lead
# ("**The multicore manifest.**", "- *Interrupted compiles.*").
LEAD = re.compile(r"^(?:#+\s*(.*)|(?:- )?(\*\*?)([^*]+)\2)")


def headings(path):
    with open(path, encoding="utf-8") as f:
        found = [LEAD.match(l) for l in f]
    return [(m.group(1) or m.group(3)).replace("`", "").strip() for m in found if m]


def bad_citations(root):
    bad = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and
                         not os.path.exists(os.path.join(here, d, "CMakeCache.txt")))
        for name in sorted(files):
            path = os.path.join(here, name)
            rel = os.path.relpath(path, root)
            if not name.endswith(EXTS) or rel in MADE:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            for no, line in enumerate(text.split("\n"), 1):
                for m in PAGE.finditer(line):
                    if not find(root, here, m.group(1)):
                        bad.append(f"{rel}:{no}: {m.group(1)} does not exist")
                for m in TRACKER.finditer(line):
                    bad.append(f"{rel}:{no}: '{m.group(0)}' cites a tracker; say what it was")
            # A section may follow its page on the next comment line.
            flat = re.sub(r"\n\s*(?:\*|#|//)?\s*", " ", text)
            for m in SECTION.finditer(flat.replace("`", "")):
                page = find(root, here, m.group(1))
                if page and not any(h.startswith(m.group(2)) for h in headings(page)):
                    bad.append(f"{rel}: {m.group(1)} has no section \"{m.group(2)}\"")
    return bad


def check(root):
    return report(bad_citations(root), "citations of what does not exist")


def self_test():
    """A missing page, a missing section across a comment's line break and
    a tracker number are caught; a page found beside the file, at the top
    or in docs/, and a section that begins a heading, are not."""
    files = {
        "docs/runtime.md": "# Runtime\n\n## Each core's `memory`: a map\n\n- *Lead.* text\n",
        "README.md": "See docs/runtime.md and runtime.md.\n",
        "lib/notes.md": "# Notes\n",
        "lib/a.c": "/* notes.md; docs/runtime.md, \"Each core's\n * memory\" */\n"
                   "/* (docs/runtime.md, \"Lead\") */\n",
        "lib/b.c": "/* docs/gone.md; as in issue 7; docs/runtime.md, \"Codegen\" */\n",
    }
    with made_tree(files) as root:
        got = sorted(bad_citations(root))
    want = ["lib/b.c: docs/runtime.md has no section \"Codegen\"",
            "lib/b.c:1: 'issue 7' cites a tracker; say what it was",
            "lib/b.c:1: docs/gone.md does not exist"]
    return expect(got, sorted(want))


if __name__ == "__main__":
    main(check, self_test)
