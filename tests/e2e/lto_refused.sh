#!/bin/sh
# e2e.lto_refused: -flto (CMake's INTERPROCEDURAL_OPTIMIZATION) is refused
# at the compile with one clear message and no object, never a failure deep
# in the device link; -fno-lto after it compiles; an -flto link is refused
# too; CMake's check_ipo_supported() then says no.
#   lto_refused.sh STAGE_BIN PROFILE WORKDIR
set -eu
bin=$1 profile=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/proj"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
q7cc="$bin/q7cc-$profile"
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor ident(const torch::Tensor &x) { return x; }
CPP
for flag in -flto -flto=auto; do
	rc=0
	"$q7cc" -O2 $flag -c k.cpp -o k.o 2> lto.err || rc=$?
	[ "$rc" = 2 ] || { cat lto.err; fail "$flag: exit $rc, want 2 (a usage error)"; }
	[ ! -e k.o ] || fail "$flag: an object was written"
	[ "$(grep -c "error: $flag: link-time optimisation is not supported" lto.err)" = 1 ] &&
		[ "$(wc -l < lto.err)" = 1 ] || { cat lto.err; fail "$flag: not one clear message"; }
done
"$q7cc" -O2 -flto -fno-lto -c k.cpp -o k.o || fail "-flto -fno-lto"
rc=0
"$q7cc" -flto -shared k.o -o libk.so 2> link.err || rc=$?
[ "$rc" = 2 ] && grep -q "error: -flto: link-time optimisation" link.err || { cat link.err; fail "the -flto link"; }
[ ! -e libk.so ] || fail "the -flto link wrote libk.so"
cat > proj/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(p CXX)
include(CheckIPOSupported)
check_ipo_supported(RESULT ipo LANGUAGES CXX)
message(STATUS "IPO: ${ipo}")
CMAKE
CXX="$q7cc" cmake -S proj -B proj/b > cmake.log 2>&1 || { cat cmake.log; fail "configure"; }
grep -q "IPO: NO" cmake.log || { cat cmake.log; fail "check_ipo_supported did not say no"; }
echo "lto refused ($profile): ok"
