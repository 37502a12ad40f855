#!/usr/bin/env python3
"""unit.layout_spawns: every command the driver starts is shown under -###
and -v, and run only without -###, because it goes through one call:
q7_step_start in wrapper/steps.c (q7_step_run and q7_step_wait are built on
it), or q7_step_query there, a question to a tool, shown and asked the same
way. A call
that starts a process anywhere else in the driver (wrapper/) could forget
-###, and this check fails naming it. The analysis (analysis/) is one such
step ("analyze FILE", run only without -###); it may start a process in
one place only, the resident server (q7_server_start), whose own master
and workers (serve.c) are the server's, not the driver's. Subfolders
(analysis/clang) are checked as their parent.

Usage: check_spawns.py ROOT         check the tree
       check_spawns.py --self-test  check that a stray spawn is caught"""
import re

from tree import code_lines, expect, main, made_tree, report, sources

# What starts a process: the process layer's starters (support/proc.h)
# and libc's.
STARTS = re.compile(r"\b(q7_proc_spawn|q7_proc_capture|q7_proc_fork|"
                    r"q7_proc_fork_group|fork|vfork|posix_spawnp?|execv[pe]?|execl[pe]?|"
                    r"popen|system)\s*\(")
# The folders checked, and the functions that may start one.
TOPS = ("wrapper", "analysis")
ALLOWED = {("wrapper/steps.c", "q7_step_start"), ("wrapper/steps.c", "q7_step_query"),
           ("analysis/server.c", "q7_server_start"), ("analysis/serve.c", "start_worker"),
           ("analysis/serve.c", "q7_analysis_server_main")}
HOW = {"wrapper": "start commands with q7_step_start or q7_step_run (wrapper/modes.h), "
                  "which show them under -###",
       "analysis": "the analysis starts only its server (server.c, q7_server_start), "
                   "inside the driver's \"analyze\" step"}


def strays(root):
    bad = []
    for top in TOPS:
        bad += strays_in(root, top)
    return bad


def strays_in(root, top):
    bad = []
    for name in sources(root, top):
        for no, line, function in code_lines(root, name):
            for call in STARTS.finditer(line):
                if (name, function) not in ALLOWED:
                    bad.append(f"{name}:{no}: {call.group(1)}() in "
                               f"{function or 'file scope'}: {HOW[top]}")
    return bad


def check(root):
    return report(strays(root), "process starts outside the checked places")


def self_test():
    """A spawn in link.c, one in a subfolder (analysis/clang) and a fork in
    steps.c outside the step functions must be caught; the step functions' own calls, a comment and a string
    naming one must not."""
    files = {
        "wrapper/steps.c": "pid_t q7_step_start(const struct q7_drv *d, char *const *argv)\n{\n"
                           "\treturn q7_proc_spawn(argv, NULL);\n}\n\n"
                           "int q7_step_query(char *const *argv, int fd, char **out)\n{\n"
                           "\treturn q7_proc_capture(argv, fd, out);\n}\n\n"
                           "static void other(void)\n{\n\tfork();\n}\n",
        "wrapper/link.c": "/* q7_proc_capture(cmd) was here */\nstatic int f(char **cmd)\n{\n"
                          "\tputs(\"system(x)\");\n\treturn q7_proc_spawn(cmd, NULL);\n}\n",
        "analysis/server.c": "void q7_server_start(char **argv)\n{\n\tq7_proc_spawn(argv, NULL);\n}\n",
        "analysis/load.c": "static void go(char **argv)\n{\n\tq7_proc_spawn(argv, NULL);\n}\n",
        "analysis/clang/front.c": "static void tu(char **argv)\n{\n\tposix_spawnp(argv);\n}\n",
    }
    with made_tree(files) as root:
        bad = strays(root)
    # "wrapper/link.c:5: q7_proc_spawn() in f: ..." -> up to the function
    got = sorted(b.split(": ", 2)[0] + ": " + b.split(": ", 2)[1] for b in bad)
    want = ["analysis/clang/front.c:3: posix_spawnp() in tu",
            "analysis/load.c:3: q7_proc_spawn() in go", "wrapper/link.c:5: q7_proc_spawn() in f",
            "wrapper/steps.c:13: fork() in other"]
    return expect(got, want)


if __name__ == "__main__":
    main(check, self_test)
