"""e2e.docs.blocks: runs the code blocks of README.md and docs/*.md as a
reader would copy them, so that an example cannot rot (as Rust's doc
tests do). docs/README.md says how a page marks its blocks; in short:

  ```sh, ```bash     run with bash -e (```shell too), in order, in a folder of the page's own
  ```python          run with the Python that imports torch (/usr/bin/python3)
  ```LANG file=PATH  not run: written to PATH (the page's files: a kernel, ...)
  ```text output     the last lines the block before printed, exactly
  ```LANG norun      not run (a distcc server, a package install, ...)
  <!-- docs-setup: COMMAND -->   a shell command run before the next block,
                     unseen by a reader (what the page assumes: an input, a build)

Other blocks (```c++, ```text, an unnamed ```) are read, not run. A
command indented as a code block (four spaces, `q7-run ...`) is refused:
fence it. Each page runs in a folder of its own under the work folder,
where examples/ is a copy of the source tree's and build/ the build,
with build/stage/bin on PATH and q7cc.torch on PYTHONPATH; the shape
objects' cache is shared by every page (Q7CC_TORCH_CACHE: CTest gives
tests/torch's, where e2e.torch.build compiled the sample's shape.cpp).

Usage: run_blocks.py SOURCE_DIR BUILD_DIR WORK_DIR [PAGE...]"""
import os
import re
import shutil
import subprocess
import sys
import time

RUN = {"sh": "sh", "bash": "sh", "shell": "sh", "python": "python"}
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(.*)$")
SETUP = re.compile(r"^\s*<!--\s*docs-setup:\s*(.*?)\s*-->\s*$")
COMMAND = re.compile(r"^ {4,}(\$ )?(q7-[\w-]+|xt-[\w+-]+|q7cc[\w-]*|cmake|ctest|CXX=\S*|CC=\S*|"
                     r"scripts/\S+|bench/\S+|python3?|/usr/bin/python3|export|make|ninja) ")
PYTHON = "/usr/bin/python3"


class Block:
    def __init__(self, page, line, info, text):
        self.page, self.line, self.text = page, line, text
        words = info.split()
        self.lang = words[0] if words else ""
        self.flags = set(w for w in words[1:] if "=" not in w)
        self.attrs = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        self.setup = []

    def where(self):
        return "%s:%d" % (self.page, self.line)


def blocks(page, text):
    """The page's fenced blocks, each with the docs-setup lines before
    it; a ValueError for a command indented as a code block."""
    out, setup, lines = [], [], text.split("\n")
    i, prev_blank = 0, True
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        s = SETUP.match(line)
        if s:
            setup.append(s.group(1))
        elif m:
            indent, fence, info = m.group(1), m.group(2), m.group(3)
            body, i = [], i + 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else
                            lines[i].lstrip())
                i += 1
            b = Block(page, i - len(body), info, "\n".join(body) + "\n")
            b.setup, setup = setup, []
            out.append(b)
        elif prev_blank and COMMAND.match(line):
            raise ValueError("%s:%d: a command indented as a code block: fence it as ```sh "
                             "(run by e2e.docs.blocks) or ```sh norun (docs/README.md)"
                             % (page, i + 1))
        prev_blank = not line.strip()
        i += 1
    return out


def run(block, code, kind, cwd, env):
    """(status, output) of code run as kind in cwd."""
    if kind == "python":
        path = os.path.join(cwd, ".block-%d.py" % block.line)
        with open(path, "w") as f:
            f.write(code)
        argv = [PYTHON, path]
    else:
        argv = ["bash", "-e", "-o", "pipefail", "-x", "-c", code]
    try:
        r = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after 300 s"
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def failure(block, what, stdout, stderr):
    """The message: the page, the line and the command that failed."""
    command = block.text.strip()
    if block.lang in ("sh", "bash"):
        traced = [line[2:] for line in stderr.splitlines() if line.startswith("+ ")]
        if traced:
            command = traced[-1]
        stderr = "\n".join(line for line in stderr.splitlines() if not line.startswith("+"))
    return "%s: %s\n  $ %s\n%s%s" % (block.where(), what, command.replace("\n", "\n    "),
                                     stdout, stderr)


def run_page(page, text, src, build, work, env):
    """Runs one page's blocks; returns the failures (at most the first
    of the page: what follows it depends on it)."""
    cwd = os.path.join(work, re.sub(r"[^\w.]", "_", page))
    shutil.rmtree(cwd, ignore_errors=True)
    os.makedirs(cwd)
    shutil.copytree(os.path.join(src, "examples"), os.path.join(cwd, "examples"))
    os.symlink(build, os.path.join(cwd, "build"))
    last_out = None
    for b in blocks(page, text):
        for cmd in b.setup:
            status, out, err = run(b, cmd, "sh", cwd, env)
            if status:
                return [failure(b, "its docs-setup failed (status %d)" % status, out, err)]
        if "norun" in b.flags:
            continue
        if "file" in b.attrs:
            path = os.path.join(cwd, b.attrs["file"])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(b.text)
        elif "output" in b.flags:
            if last_out is None:
                return ["%s: an output block with no block run before it" % b.where()]
            want = [line.rstrip() for line in b.text.strip("\n").splitlines()]
            got = [line.rstrip() for line in last_out.strip("\n").splitlines()]
            if want != got[len(got) - len(want):]:
                return ["%s: the block before printed\n%s\nnot what this block shows\n%s" % (
                    b.where(), "\n".join(got), "\n".join(want))]
        elif b.lang in RUN:
            t0 = time.time()
            status, out, err = run(b, b.text, RUN[b.lang], cwd, env)
            print("%s: %s block, %.1f s" % (b.where(), b.lang, time.time() - t0), flush=True)
            if status:
                return [failure(b, "failed with status %d" % status, out, err)]
            last_out = out
    return []


def main(argv):
    src, build, work = (os.path.abspath(a) for a in argv[1:4])
    pages = argv[4:] or ["README.md"] + sorted(
        os.path.join("docs", p) for p in os.listdir(os.path.join(src, "docs"))
        if p.endswith(".md"))
    os.makedirs(os.path.join(work, "home"), exist_ok=True)
    stage = os.path.join(build, "stage")
    env = dict(os.environ,
               PATH=os.path.join(stage, "bin") + os.pathsep + os.environ.get("PATH", ""),
               PYTHONPATH=os.path.join(stage, "lib", "python"),
               Q7CC_TORCH_CACHE=os.environ.get("Q7CC_TORCH_CACHE") or
               os.path.join(work, "shape-objects"),
               XDG_CACHE_HOME=os.path.join(work, "cache"),
               HOME=os.path.join(work, "home"),  # a block's ~ is not the tester's
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("CXX", None)
    env.pop("CC", None)
    failures = []
    for page in pages:
        with open(os.path.join(src, page), encoding="utf-8") as f:
            text = f.read()
        try:
            failures += run_page(page, text, src, build, work, env)
        except ValueError as e:
            failures.append(str(e))
    for f in failures:
        print("FAILED " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
