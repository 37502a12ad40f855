#!/usr/bin/env python3
"""unit.layout_prints: the library folders report errors to their caller
through one carrier (struct q7_err, or a run result's message, filled by
q7_run_fail) and print nothing; only each tool's top prints
(docs/driver.md, "The small tools' command lines and errors"). A call that writes to stderr anywhere else in
them (q7_error and its kin, fprintf/fputs/perror on stderr, a write to fd
2) fails, naming the file, the line and the function.

The tops are whole files: packer/cli.c (q7-pkg-loadlib), prelink/main.c
(q7-prelink), run/run.c (q7-run), analysis/server_main.c (the analysis
server). The few other places are listed by function, each with its
reason; a new one needs a reason of the same kind. Subfolders
(analysis/clang) are checked as their parent.

Usage: check_prints.py ROOT         check the tree
       check_prints.py --self-test  check that a stray print is caught"""
import re

from tree import code_lines, expect, main, made_tree, report, sources

# What writes to stderr: support's printers (support/support.h) and libc's.
PRINTS = re.compile(r"\b(q7_error|q7_warning|q7_note|q7_fatal|perror)\s*\(|"
                    r"\b(v?fprintf|fputs|fputc|putc|fwrite)\s*\([^;]*\bstderr\b|"
                    r"\b(write|dprintf)\s*\(\s*(2|STDERR_FILENO)\s*,")
LIBRARIES = ("packer", "prelink", "run", "profiler", "model", "memmap", "analysis")
TOPS = {"packer/cli.c", "prelink/main.c", "run/run.c", "analysis/server_main.c"}
ALLOWED = {
    # The signal handlers' one line (host.c's on_fault and
    # on_direct_fault): the process ends (or the signal goes on) right
    # there, with no caller to return to; write(2) is async-signal-safe.
    ("run/host_fault.c", "q7_fault_report"),
    # The sanitizers' death callback: the same, inside a dying process.
    ("run/sanitize.c", "said_op"),
    # q7-run --sanitize's own stderr, which its top printed, relayed whole
    # (a sanitizer's report has many lines; the run result keeps one).
    ("run/host_san.c", "report"), ("run/host_san.c", "q7_san_call"),
    # The plugin's entry, built apart, refusing a caller of another ABI:
    # the entry's signature is what does not match, so no carrier can
    # be shared through it.
    ("analysis/clang/front.c", "q7_clang_analyze"),
}
def strays(root):
    bad = []
    for top in LIBRARIES:
        for name in sources(root, top, (".c", ".h", ".cpp")):
            if name not in TOPS:
                bad += strays_in(root, name)
    return bad


def strays_in(root, name):
    bad = []
    for no, line, function in code_lines(root, name):
        for call in PRINTS.finditer(line):
            if (name, function) not in ALLOWED:
                what = next(g for g in call.groups() if g)
                bad.append(f"{name}:{no}: {what}() in {function or 'file scope'}: a library "
                           f"reports through struct q7_err (or q7_run_fail) and its tool's "
                           f"top prints")
    return bad


def check(root):
    return report(strays(root), "prints to stderr outside the tools' tops")


def self_test():
    """A q7_error in a packer file, an fprintf(stderr) in run/, a write to
    fd 2 in a subfolder (analysis/clang) must be caught; a tool's top, an
    allowed signal handler, a print to a FILE given by the caller, a
    comment and a string naming one must not."""
    files = {
        "packer/cli.c": "int main(void)\n{\n\tq7_error(\"usage\");\n}\n",
        "packer/image.c": "/* q7_error(x) was here */\nint open_it(const char *p)\n{\n"
                          "\tputs(\"q7_error(p)\");\n\tq7_error(\"%s: bad\", p);\n}\n",
        "run/emu_session.c": "static void stats(FILE *f)\n{\n\tfprintf(f, \"ok\\n\");\n"
                             "\tfprintf(stderr, \"%u cycles\\n\", 1);\n}\n",
        "run/host_fault.c": "void q7_fault_report(bool fatal)\n{\n\tssize_t w = write(2, buf, n);\n}\n",
        "analysis/clang/types.c": "static void t(void)\n{\n\twrite(STDERR_FILENO, \"x\", 1);\n}\n",
    }
    with made_tree(files) as root:
        bad = strays(root)
    got = sorted(b.split(": ", 2)[0] + ": " + b.split(": ", 2)[1] for b in bad)
    want = ["analysis/clang/types.c:3: write() in t", "packer/image.c:5: q7_error() in open_it",
            "run/emu_session.c:4: fprintf() in stats"]
    return expect(got, want)


if __name__ == "__main__":
    main(check, self_test)
