#!/bin/sh
# e2e.install_moved: an install of q7cc works wherever its tree is moved,
# with no source or build tree on any path. cmake --install to one prefix,
# the tree moved to another folder, then, in an environment of that tree
# and /usr/bin only, from a folder outside both trees: compile and link a
# demo op (examples/ops/relu.cpp) for the gnu and host profiles, run it
# with q7-run on the host and the emulated core (checked against numpy),
# build it with find_package(q7cc)/q7_add_custom_op in a g++ project, run
# it through the session API (docs/emulated.md's example program, built
# against the moved tree's header and libq7run.a, no Q7CC_PREFIX), and
# load it with q7cc.torch on both targets. strace shows no file of the
# source or build tree touched.
#   install_moved.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v strace >/dev/null || fail "strace is not installed (Debian package strace; scripts/setup-deps)"
work=$(mktemp -d "${TMPDIR:-/tmp}/q7cc-moved.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/first" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install"; }
mv "$work/first" "$work/moved"
pre=$work/moved
mkdir -p "$work/run" "$work/home" "$work/proj"
cp "$src/examples/ops/relu.cpp" "$work/run/"
cat > "$work/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(moved CXX)
find_package(q7cc CONFIG REQUIRED)
q7_add_custom_op(relu SOURCES relu.cpp TOOLCHAIN gnu)
CMAKE
cp "$src/examples/ops/relu.cpp" "$work/proj/"
cd "$work/run"

# What runs from here on sees the moved tree and the system only. (No
# resident analysis server: strace -f would wait for it to go idle; the
# plugin is loaded from the moved tree in-process instead.)
clean() {
	env -i PATH="$pre/bin:/usr/bin:/bin" HOME="$work/home" TMPDIR="$work" LANG=C.UTF-8 \
		PYTHONPATH="$pre/lib/python" Q7CC_ANALYSIS_SERVER=0 "$@"
}
traced() { # LOG CMD...: run under strace, file accesses to LOG
	log=$1
	shift
	clean strace -f -qq -o "$log" -e trace=%file,%process "$@"
}
traced compile.trace q7cc-gnu -O2 -shared relu.cpp -o libgnu.so || fail "gnu compile and link"
traced host.trace q7cc-host -O2 -shared relu.cpp -o libhost.so || fail "host compile and link"
# The gnu link took q7cc's own libc (its writable-.rodata copy), found in
# the moved tree.
grep -q "$pre/lib/[^\"]*q7cc/xtensa/lsp" compile.trace || fail "the gnu link did not use the moved tree's lsp folder"
grep -q "$pre/lib/[^\"]*q7cc/q7analysis-clang.so" compile.trace || fail "the analysis plugin is not the moved tree's"

clean /usr/bin/python3 -c '
import numpy as np
np.save("x.npy", (np.arange(32, dtype=np.float32).reshape(4, 8) - 15.5))' || fail "numpy input"
traced run-host.trace q7-run --target=host libhost.so relu_forward x.npy -o host.npy ||
	fail "q7-run host"
traced run-emu.trace q7-run --target=emulated libgnu.so relu_forward x.npy -o emu.npy ||
	fail "q7-run emulated"
clean /usr/bin/python3 -c '
import numpy as np
x = np.load("x.npy")
for f in ("host.npy", "emu.npy"):
    assert np.array_equal(np.load(f), np.maximum(x, 0)), f' || fail "wrong results"

# The session API's example (docs/emulated.md), built against the moved
# tree's header and library, finds q7cc's files by the q7cc on PATH.
page=${src}/docs/emulated.md
python3 - "$page" > session.c <<'PY' || fail "no session example in $page"
import sys
page = open(sys.argv[1], encoding="utf-8").read()
start = page.index("```c file=session/relu.c\n") + len("```c file=session/relu.c\n")
sys.stdout.write(page[start:page.index("```", start)])
PY
mkdir -p session
cp libgnu.so session/libops.so
traced session-cc.trace cc -O2 -I"$pre/include/q7cc-run" session.c "$pre/lib/q7cc/libq7run.a" \
	-lelf -lpthread -ldl -lm -o session/relu || fail "the session example does not build"
got=$(cd session && traced ../session.trace ./relu) || fail "the session example failed: $got"
[ "$got" = "0 2 0 4.5 5 0 7 0" ] || fail "the session example printed '$got'"

# find_package from the moved tree, a g++ project.
traced cmake.trace sh -c "CXX=g++ cmake -S '$work/proj' -B '$work/proj/b' -DCMAKE_PREFIX_PATH='$pre' >'$work/cfg.log' 2>&1 &&
	cmake --build '$work/proj/b' >'$work/bld.log' 2>&1" ||
	{ cat "$work/cfg.log" "$work/bld.log" 2>/dev/null; fail "find_package project"; }
[ -f "$work/proj/b/librelu.packed.so" ] || fail "q7_add_custom_op wrote no packed image"

# q7cc.torch from the moved tree, both targets.
traced torch.trace /usr/bin/python3 -c '
import torch, q7cc.torch as q
assert q.__file__.startswith("'"$pre"'"), q.__file__
x = torch.randn(4, 8)
for lib, target in (("libhost.so", "host"), ("libgnu.so", "emulated")):
    q.custom_op.load_library(lib, target=target)
    ns = getattr(torch.ops, lib[3:-3])
    assert torch.equal(ns.relu_forward(x), torch.relu(x)), target' || fail "q7cc.torch"

for t in *.trace; do
	if grep -F -e "$build" -e "$src" "$t" > "$work/touched" 2>/dev/null; then
		head -5 "$work/touched"
		fail "$t: a file of the source or build tree was touched"
	fi
done
echo "moved install: ok"
