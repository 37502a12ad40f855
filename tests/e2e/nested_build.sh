#!/bin/sh
# e2e.nested_build: `ctest --build-and-test` of tests/e2e/nested with
# CXX=q7cc-host. The nested configure, its try_compile probes and its own
# test keep only the compiler's path, and the profile rides in its name.
#   nested_build.sh STAGE_BIN NPYTOOL_DIR WORKDIR
set -eu
bin=$1 npytool=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
src=$(cd "$(dirname "$0")/nested" && pwd)
PATH="$bin:$PATH" CXX="$bin/q7cc-host" ctest --build-and-test "$src" "$work/build" \
	--build-generator "Unix Makefiles" --build-options -DNPYTOOL_DIR="$npytool" \
	--test-command ctest --output-on-failure > "$work/log" 2>&1 || { cat "$work/log"; fail "nested build and test"; }
grep -q "Performing Test NESTED_HAS_TORCH_HEADERS - Success" "$work/log" || { cat "$work/log"; fail "the try_compile probe"; }
grep -q "100% tests passed, 0 tests failed out of 1" "$work/log" || { cat "$work/log"; fail "the nested test"; }
file "$work/build/libnested.so" | grep -q "x86-64" || fail "libnested.so is not a host library"
echo "nested build: ok"
