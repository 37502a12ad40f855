#!/bin/sh
# e2e.several_installs: any number of q7cc installs on PATH. Another
# install's q7cc (a copy: another file, as a second version or a team
# install is), first on PATH under its own name, as its xt-clang++ link and
# as a renamed copy, is never taken for the vendor compiler: plain q7cc
# detects the gnu profile and compiles, and CMake's compiler check passes.
#   several_installs.sh STAGE_BIN WORKDIR
set -eu
bin=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/other/bin" "$work/renamed/bin" "$work/proj"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE XTENSA_TOOLS || true
cp "$bin/q7cc" other/bin/q7cc
ln -s q7cc other/bin/xt-clang++
cp "$bin/q7cc" renamed/bin/xt-clang++
strip other/bin/q7cc # a packager's strip keeps the mark
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor ident(const torch::Tensor &x) { return x; }
CPP
machine_of() { od -An -tu2 -j18 -N2 "$1" | tr -d ' '; } # e_machine: 94 Xtensa
for first in other renamed; do
	PATH="$work/$first/bin:$bin:$PATH" "$bin/q7cc" -c k.cpp -o "$first.o" 2> "$first.err" ||
		{ cat "$first.err"; fail "$first/bin first on PATH: q7cc -c"; }
	[ "$(machine_of "$first.o")" = 94 ] || fail "$first.o is not an Xtensa object (gnu profile)"
	[ "$("$bin/q7cc" --q7-print-schema "$first.o")" = "ident(Tensor x) -> Tensor" ] ||
		fail "$first.o lost its record"
done
# The other install's q7cc, started by its name, takes neither this one's
# xt-clang++ link nor its own.
PATH="$bin:$work/other/bin:$PATH" "$work/other/bin/q7cc" --q7-toolchain=gnu -### -c k.cpp \
	> other.line 2>&1 || { cat other.line; fail "the other q7cc: -###"; }
grep -q "xtensa-lx106-elf-g++" other.line || { cat other.line; fail "the other q7cc's compiler"; }
# CMake's compiler check, both installs on PATH.
printf 'cmake_minimum_required(VERSION 3.20)\nproject(p CXX)\n' > proj/CMakeLists.txt
PATH="$work/other/bin:$bin:$PATH" CXX="$bin/q7cc" cmake -S proj -B proj/build > cmake.log 2>&1 ||
	{ cat cmake.log; fail "CMake's compiler check with two installs on PATH"; }
echo "several installs: ok"
