"""e2e.torch.build: builds every test library (libs.py) for both targets,
without registering any (a process registers a namespace once), so the
tests find them up to date. The two shape files compile first, side by
side; the rest reuse their objects."""
import concurrent.futures
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import libs  # noqa: E402
from q7cc.torch import _build  # noqa: E402


def one(name, target):
    compute, shape, multicore = libs.LIBS[name]
    d = libs.build_directory(name, target)
    os.makedirs(d, exist_ok=True)
    t0 = time.time()
    _build.build(name, compute, shape, d, multicore, False, target, **libs.OPTIONS.get(name, {}))
    return "%s (%s): %.1f s" % (name, target, time.time() - t0)


def main():
    first = [("relu", "host"), ("params", "host")]
    rest = [(n, t) for t in ("host", "emulated") for n in libs.LIBS
            if (n, t) not in first and (t == "host" or n not in libs.HOST_ONLY)]
    for batch in (first, rest):
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for line in pool.map(lambda nt: one(*nt), batch):
                print(line, flush=True)


if __name__ == "__main__":
    main()
