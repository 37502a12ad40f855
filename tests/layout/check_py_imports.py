#!/usr/bin/env python3
"""unit.layout_py_imports: the modules of the q7cc.torch package
(python/q7cc/torch) import each other in one direction, at their top.
Read by their syntax (ast), not imported: an import inside a function or
a class (a late import, the usual way around a cycle) is refused, and the
package's import graph, every module-to-module edge wherever its import
is written, must have no cycle; each cycle found is said once.

Usage: check_py_imports.py ROOT         check the tree
       check_py_imports.py --self-test  check that a late import and a
                                        cycle are caught"""
import ast
import os

from tree import expect, main, made_tree, report

PACKAGE = ("q7cc", "torch")  # the package checked, under python/


def modules(root):
    """{module name: path} of the package's .py files, "q7cc.torch.x"."""
    d = os.path.join(root, "python", *PACKAGE)
    out = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".py"):
            mod = ".".join(PACKAGE) if name == "__init__.py" else \
                ".".join(PACKAGE + (name[:-3],))
            out[mod] = os.path.join(d, name)
    return out


def imported(mod, node, known):
    """The modules of known that an Import or ImportFrom in mod names."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative to mod's package
            pkg = mod.split(".") if mod == ".".join(PACKAGE) else mod.split(".")[:-1]
            pkg = pkg[:len(pkg) - (node.level - 1)]
            base = ".".join(pkg + ([base] if base else []))
        # "from . import x" names module x; "from .x import y", module x
        names = [base + "." + a.name for a in node.names]
    out = []
    for n in names:
        while n and n not in known:  # "q7cc.torch.x.y" is in module x
            n = n.rpartition(".")[0]
        # (a module's own package is imported before it: no edge)
        if n and n != mod and not mod.startswith(n + ".") and n not in out:
            out.append(n)
    return out


def scan(path):
    """(imports, late): every import node of the file, and those inside a
    function, lambda or class, each with the scope's name."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found, late = [], []

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
                if scope:
                    late.append((child, scope))
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = child.name
            elif isinstance(child, ast.Lambda):
                inner = "lambda"
            visit(child, inner)
    visit(tree, None)
    return found, late


def cycles(graph):
    """Each cycle of graph ({node: [nodes]}) once, as a list that starts at
    its least node."""
    out, state, stack = [], {}, []

    def walk(n):
        state[n] = "open"
        stack.append(n)
        for m in graph.get(n, []):
            if state.get(m) == "open":
                c = stack[stack.index(m):]
                i = c.index(min(c))
                c = c[i:] + c[:i]
                if c not in out:
                    out.append(c)
            elif m not in state:
                walk(m)
        stack.pop()
        state[n] = "done"
    for n in sorted(graph):
        if n not in state:
            walk(n)
    return out


def problems(root):
    mods = modules(root)
    graph, bad = {}, []
    for mod, path in mods.items():
        found, late = scan(path)
        rel = os.path.relpath(path, root)
        graph[mod] = []
        for node in found:
            for m in imported(mod, node, mods):
                if m not in graph[mod]:
                    graph[mod].append(m)
        for node, scope in late:
            bad.append(f"{rel}:{node.lineno}: an import inside {scope}: import at the top "
                       f"of the module (a late import hides a cycle; move what both modules "
                       f"need into the lower one)")
    for c in sorted(cycles(graph)):
        bad.append("import cycle: " + " -> ".join(c + [c[0]]))
    return bad


def check(root):
    return report(problems(root), "late imports or import cycles in python/q7cc/torch")


def self_test():
    """A late import, a cycle through it and a cycle of top-level imports
    are caught; top-level imports in one direction, "from .. import" and a
    name that mentions an import in a string are not."""
    pkg = "python/q7cc/torch/"
    files = {
        pkg + "__init__.py": "from . import low, mid  # noqa\n",
        pkg + "low.py": "import os\nfrom .. import _layout\n\ndef f():\n"
                        "    from . import mid\n    return mid, 'import high'\n",
        pkg + "mid.py": "from . import low\nfrom .low import f\n",
        pkg + "a.py": "from .b import g\n",
        pkg + "b.py": "from . import a\n\ndef g():\n    return a\n",
        pkg + "high.py": "import q7cc.torch.mid\nfrom . import low\n",
    }
    with made_tree(files) as root:
        got = problems(root)
    want = [pkg + "low.py:5: an import inside f: import at the top of the module (a late import "
            "hides a cycle; move what both modules need into the lower one)",
            "import cycle: q7cc.torch.a -> q7cc.torch.b -> q7cc.torch.a",
            "import cycle: q7cc.torch.low -> q7cc.torch.mid -> q7cc.torch.low"]
    return expect(got, want)


if __name__ == "__main__":
    main(check, self_test)
