"""unit.docs_runner: run_blocks.py on pages made here: a block that
fails is named by page, line and command; an output that differs, an
indented command and a failing docs-setup fail too; norun blocks do not
run, file= blocks are written for the blocks after them.
    selftest.py BUILD_DIR WORK_DIR"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
F = "```"
PAGES = {
    "README.md": "# ok\n\n%s sh norun\nexit 1\n%s\n\n%s c++ file=a/k.txt\nkernel\n%s\n\n"
                 "%s sh\ncat a/k.txt\necho two\n%s\n\n%s text output\nkernel\ntwo\n%s\n" % ((F,) * 8),
    "docs/fails.md": "x\n\n%s sh\ntrue\nno_such_command_q7 --flag\necho never\n%s\n" % (F, F),
    "docs/differs.md": "%s sh\necho 1\n%s\n\n%s text output\n2\n%s\n" % ((F,) * 4),
    "docs/indented.md": "Run:\n\n    q7-run lib.so op x.npy -o y.npy\n",
    "docs/setup.md": "<!-- docs-setup: exit 3 -->\n%s sh\ntrue\n%s\n" % (F, F),
}
WANT = [
    "FAILED docs/differs.md:5: the block before printed\n1\nnot what this block shows\n2",
    "FAILED docs/fails.md:3: failed with status 127\n  $ no_such_command_q7 --flag",
    "FAILED docs/indented.md:3: a command indented as a code block",
    "FAILED docs/setup.md:2: its docs-setup failed (status 3)",
]


def main(build, work):
    src = os.path.join(work, "src")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(src, "docs"))
    os.makedirs(os.path.join(src, "examples"))
    for name, text in PAGES.items():
        with open(os.path.join(src, name), "w") as f:
            f.write(text)
    r = subprocess.run([sys.executable, os.path.join(HERE, "run_blocks.py"), src, build,
                        os.path.join(work, "run")], capture_output=True, text=True, timeout=120)
    failed = [w for w in WANT if w not in r.stderr]
    if r.returncode != 1 or failed or "FAILED README.md" in r.stderr or "never" in r.stdout:
        print("FAIL: status %d, missing %r\n%s%s" % (r.returncode, failed, r.stdout, r.stderr))
        return 1
    print("docs_runner: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))
