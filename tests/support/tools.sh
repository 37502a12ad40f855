#!/bin/sh
# e2e.tools_missing: a tool the suite needs never makes tests drop out
# silently. cmake/Q7Tools.cmake on a small project
# that needs a tool no machine has: with CI=true the configure fails
# naming the tool and its Debian package; without, a test missing.<tool>
# is registered and fails saying the same. Then this build: no missing.*
# test, and the tests that need QEMU, Python, ninja, clang and valgrind
# are all registered.
#   tools.sh SRC_ROOT BUILD_DIR WORKDIR
set -u
root=$1 build=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
says() { tr '\n' ' ' < "$1" | tr -s ' ' | grep -q "$2"; } # CMake wraps its messages
rm -rf "$work"
mkdir -p "$work/proj"
cd "$work" || exit 1
cat > proj/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(needs NONE)
enable_testing()
include($root/cmake/Q7Tools.cmake)
q7_find_tool(NO_SUCH_TOOL NAMES q7-no-such-tool PACKAGE q7-no-such-package)
find_program(SH sh)
q7_need(SH sh dash)
CMAKE
CI=true cmake -S proj -B ci > ci.log 2>&1 && fail "CI=true: the configure passed without the tool"
says ci.log "q7-no-such-tool not found.*q7-no-such-package" || { cat ci.log; fail "CI=true: message"; }
env -u CI cmake -S proj -B dev > dev.log 2>&1 || { cat dev.log; fail "without CI: the configure failed"; }
says dev.log "q7-no-such-tool not found" || { cat dev.log; fail "without CI: no warning"; }
(cd dev && ctest --output-on-failure > ../ctest.log 2>&1) && fail "without CI: ctest passed"
grep -q "missing.q7-no-such-tool .*Failed" ctest.log || { cat ctest.log; fail "no failing missing.* test"; }
says ctest.log "q7-no-such-tool not found.*q7-no-such-package" || { cat ctest.log; fail "the test does not say what is missing"; }
! grep -q "missing\.sh" ctest.log || fail "a found tool was reported missing"

# This build: nothing missing, nothing left out.
(cd "$build" && ctest -N) > all.log || fail "ctest -N"
! grep -q "missing\." all.log || { grep "missing\." all.log; fail "this build misses a tool"; }
for t in e2e.emulated.boot e2e.emulated.spmd8 unit.softfp_emulated e2e.runtime.q7cc.build \
         e2e.cmake_gnu_ninja fuzz.packer e2e.packer.replay unit.lsp_link_each valgrind.device \
         unit.runtime.headers; do
	grep -q " $t\$" all.log || fail "$t is not registered"
done
# Every package the tests name is one scripts/setup-deps installs.
pkgs=$(cat "$root"/tests/*/CMakeLists.txt | tr '\n' ' ' |
	grep -o 'q7_\(find_tool\|need\)([^)]*)' | sed 's/.*PACKAGE \([^ )]*\).*/\1/; s/q7_need([^ ]* [^ ]* \([^ )]*\))/\1/' | sort -u)
[ -n "$pkgs" ] || fail "no packages found in the tests' CMakeLists"
for p in $pkgs; do
	grep -q "^[^#]*[[:space:]]$p\([[:space:]]\|\$\)" "$root/scripts/setup-deps" || fail "scripts/setup-deps does not install $p"
done
echo "missing tools fail; none missing here; setup-deps installs: $(echo $pkgs)"
