"""Shared by the bench/ scripts: run commands side by side, take medians,
print a table of ratios. Timing is wall-clock of whole child processes,
measured alternately (A, B, A, B, ...) so that machine noise hits both."""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_timed(argv, env=None, cwd=None):
    """(wall seconds, CPU seconds): the CPU time is user + system of the
    process and of the children it waited for (wait4's), so a compiler
    driver's cc1plus and as count; a server it talks to does not."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    err = p.stderr.read()
    p.stderr.close()
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.stderr.write(err.decode(errors="replace"))
        raise SystemExit(f"bench: command failed ({p.returncode}): {argv}")
    return t1 - t0, ru.ru_utime + ru.ru_stime


def run_once(argv, env=None, cwd=None):
    return run_timed(argv, env, cwd)[0]


def medians(cmds, n, env=None, cwd=None, warmup=1, cpu=None):
    """cmds: {name: argv}. Returns {name: median wall seconds},
    interleaved; with a dict as cpu, fills it with {name: median CPU
    seconds} of the same runs."""
    for _ in range(warmup):
        for argv in cmds.values():
            run_once(argv, env, cwd)
    times = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    for _ in range(n):
        for k, argv in cmds.items():
            wall, c = run_timed(argv, env, cwd)
            times[k].append(wall)
            cpus[k].append(c)
    if cpu is not None:
        cpu.update({k: statistics.median(v) for k, v in cpus.items()})
    return {k: statistics.median(v) for k, v in times.items()}


def table(title, header, rows):
    print(f"\n{title}")
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    fmt = " | ".join("{:<%d}" % w for w in widths)
    print(fmt.format(*header))
    print("-+-".join("-" * w for w in widths))
    for r in rows:
        print(fmt.format(*[str(c) for c in r]))


def build_dir():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Absolute: the benchmarks run tools from other folders (cmake -S ...).
    return os.path.abspath(os.environ.get("Q7CC_BUILD_DIR", os.path.join(root, "build")))


def real_argv(q7cc, args, env, flag="-c"):
    """The real compiler's argv of the step with flag ("-c", "-E"), as
    `q7cc -### args` prints it."""
    p = subprocess.run([q7cc, "-###"] + args, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"bench: q7cc -### failed: {p.stderr}")
    for line in (p.stdout + p.stderr).splitlines():
        line = line.strip()
        if line and not line.startswith("#") and flag in shlex.split(line):
            return shlex.split(line)
    raise SystemExit(f"bench: no {flag} step in q7cc -### output")
