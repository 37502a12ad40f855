#!/usr/bin/env python3
"""unit.layout_spawns: every command the driver starts is shown under -###
and -v, and run only without -###, because it goes through one call:
q7_step_start in wrapper/steps.c (q7_step_run and q7_step_wait are built on
it; q7_step_query asks a tool a question that decides the steps). A call
that starts a process anywhere else in the driver (wrapper/) could forget
-###, and this check fails naming it.

Usage: check_spawns.py ROOT         check the tree
       check_spawns.py --self-test  check that a stray spawn is caught"""
import os
import re
import sys

# What starts a process: the process layer's starters (support/proc.h)
# and libc's.
STARTS = re.compile(r"\b(q7_proc_spawn|q7_proc_run|q7_proc_capture|q7_proc_fork|"
                    r"q7_proc_fork_group|fork|vfork|posix_spawnp?|execv[pe]?|execl[pe]?|"
                    r"popen|system)\s*\(")
# The functions of wrapper/steps.c that may start one.
ALLOWED = {("steps.c", "q7_step_start"), ("steps.c", "q7_step_query")}
# A function definition: its name at the start of a line, "{" on the next
# line or the same one (the project's style).
DEFINITION = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\([^;]*$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def strays(root):
    bad = []
    top = os.path.join(root, "wrapper")
    for name in sorted(os.listdir(top)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(top, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        # Comments and strings are blanked, lines kept.
        text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        text = STRING.sub('""', text)
        function = None
        for no, line in enumerate(text.split("\n"), 1):
            m = DEFINITION.match(line)
            if m:
                function = m.group(1)
            for call in STARTS.finditer(line):
                if (name, function) not in ALLOWED:
                    bad.append(f"wrapper/{name}:{no}: {call.group(1)}() in {function or 'file scope'}"
                               f": start commands with q7_step_start or q7_step_run "
                               f"(wrapper/modes.h), which show them under -###")
    return bad


def check(root):
    bad = strays(root)
    for b in bad:
        print(b)
    print(f"{len(bad)} process starts outside q7_step_start/q7_step_query")
    return len(bad)


def self_test():
    """A spawn in link.c and a fork in steps.c outside the step functions
    must be caught; the step functions' own calls, a comment and a string
    naming one must not."""
    import tempfile
    files = {
        "wrapper/steps.c": "pid_t q7_step_start(const struct q7_drv *d, char *const *argv)\n{\n"
                           "\treturn q7_proc_spawn(argv, NULL);\n}\n\n"
                           "int q7_step_query(char *const *argv, int fd, char **out)\n{\n"
                           "\treturn q7_proc_capture(argv, fd, out);\n}\n\n"
                           "static void other(void)\n{\n\tfork();\n}\n",
        "wrapper/link.c": "/* q7_proc_run(cmd) was here */\nstatic int f(char **cmd)\n{\n"
                          "\tputs(\"system(x)\");\n\treturn q7_proc_spawn(cmd, NULL);\n}\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        bad = strays(root)
    # "wrapper/link.c:5: q7_proc_spawn() in f: ..." -> up to the function
    got = sorted(b.split(": start commands")[0] for b in bad)
    want = ["wrapper/link.c:5: q7_proc_spawn() in f", "wrapper/steps.c:13: fork() in other"]
    if got != want:
        print(f"self-test: expected {want}, got {got}")
        return 1
    return 0


if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) == 2 else ""
    sys.exit(self_test() if arg == "--self-test" else min(1, check(os.path.abspath(arg))))
