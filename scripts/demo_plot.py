#!/usr/bin/env python3
"""The demo's loss chart: the per-step losses that examples/customop_mlp's
train.py printed on the host and on the emulated core (their train.out),
and the same training with torch.relu in place of the custom ReLU, run
here; all three on one chart (out/demo/loss.png), where they lie on top
of each other. Fails unless the three are equal step by step and the loss
falls (the data is learnable).

usage: demo_plot.py DEMO_DIR"""
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

STEP = re.compile(r"^Step (\d+) loss (\S+)$")

# train.py with the model's custom ReLU swapped for torch.relu: no custom op
# runs (my_ops is replaced before model imports it).
REFERENCE = r"""
import sys, types, runpy, torch
sys.modules["my_ops"] = types.SimpleNamespace(Relu=types.SimpleNamespace(apply=torch.relu))
runpy.run_path("train.py", run_name="__main__")
"""


def losses(text):
    steps = [STEP.match(line) for line in text.splitlines()]
    return [float(m.group(2)) for m in steps if m]


def main():
    demo = sys.argv[1]
    curves = {}
    for target in ("host", "emulated"):
        with open(os.path.join(demo, "torch", target, "train.out")) as f:
            curves[target] = losses(f.read())
    ref = subprocess.run([sys.executable, "-c", REFERENCE], cwd=os.path.join(demo, "torch", "host"),
                         capture_output=True, text=True, check=True)
    curves["torch.relu"] = losses(ref.stdout)
    n = len(curves["host"])
    if n < 2 or any(c != curves["host"] for c in curves.values()):
        raise SystemExit("demo: the loss curves differ: %r" % curves)
    if not curves["host"][-1] < curves["host"][0] / 2:
        raise SystemExit("demo: the loss did not fall: %r" % curves["host"])

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=100)
    styles = {"host": dict(lw=5, alpha=0.35), "emulated": dict(lw=2.5, ls="--"),
              "torch.relu": dict(lw=1, marker="o", ms=3)}
    labels = {"host": "q7cc op, host", "emulated": "q7cc op, emulated Xtensa core",
              "torch.relu": "torch.relu"}
    for name, ys in curves.items():
        ax.plot(range(n), ys, label=labels[name], **styles[name])
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("training step")
    ax.set_ylabel("NLL loss")
    ax.set_title("customop_mlp: the same losses on every target, bit for bit")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    out = os.path.join(demo, "loss.png")
    fig.savefig(out)
    print("    loss %.4f -> %.4f over %d steps, equal on host, emulated and torch.relu: %s" % (
        curves["host"][0], curves["host"][-1], n, out))


if __name__ == "__main__":
    main()
