#!/bin/sh
# e2e.nested_build: `ctest --build-and-test` of tests/e2e/nested with
# CXX=q7cc-host. The nested configure, its try_compile probes and its own
# test keep only the compiler's path, and the profile rides in its name.
# A profile chosen by --q7-toolchain= in CMAKE_CXX_FLAGS under plain q7cc
# is lost there: find_package(q7cc) warns at the configure.
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
# The profile chosen by the flags under plain q7cc is what nested builds
# lose: find_package(q7cc) says so at the configure, naming the way that
# keeps it; under q7cc-host it says nothing.
proj=$(cd "$(dirname "$0")/proj" && pwd)
configure() { # NAME CXX
	CXX=$2 cmake -S "$proj" -B "$work/$1" -DCMAKE_CXX_FLAGS=--q7-toolchain=host \
		-DE2E_FIND_PACKAGE=ON -DE2E_SHARED=OFF -DCMAKE_PREFIX_PATH="$(dirname "$bin")" \
		> "$work/$1.log" 2>&1 || { cat "$work/$1.log"; fail "$1: configure"; }
}
configure flag "$bin/q7cc"
tr -s ' \n' ' ' < "$work/flag.log" |
	grep -q "CMAKE_CXX_FLAGS choose the host profile (--q7-toolchain=host), but the compiler, q7cc, names none: .* Name the profile's compiler instead (CXX=q7cc-host)" ||
	{ cat "$work/flag.log"; fail "no warning for --q7-toolchain=host in the flags of plain q7cc"; }
configure named "$bin/q7cc-host"
! grep -q "names none" "$work/named.log" || { cat "$work/named.log"; fail "a warning under q7cc-host"; }
echo "nested build: ok"
