#!/bin/sh
# e2e.plain_clean_*: `clean` in a plain CXX=q7cc project (tests/e2e/proj:
# add_library(SHARED), and its --q7-multicore twin) removes every file the
# device links wrote: the images, stripped, packed and per-core files.
# CMake learns of them only from q7cc's CMake files, which such a project
# gets one of two ways (docs/driver.md, "The CMake package"):
#   toolchain: -DCMAKE_TOOLCHAIN_FILE=.../q7cc-toolchain.cmake (Make);
#   package:   CXX=q7cc-PROFILE and find_package(q7cc) in it (Ninja).
#   plain_clean.sh PROFILE STAGE WORKDIR
set -eu
profile=$1 stage=$2 work=$3
src=$(cd "$(dirname "$0")/proj" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
command -v ninja > /dev/null || fail "ninja is not installed (Debian package ninja-build)"

build_and_clean() { # NAME CMAKE-ARGS...
	name=$1
	shift
	b=$work/$name
	cmake -S "$src" -B "$b" "$@" > "$work/$name.configure.log" 2>&1 ||
		{ cat "$work/$name.configure.log"; fail "$name: configure"; }
	cmake --build "$b" > "$work/$name.build.log" 2>&1 || { cat "$work/$name.build.log"; fail "$name: build"; }
	for f in libops.so libops.stripped.so libops.packed.so libopsmc.so; do
		[ -f "$b/$f" ] || fail "$name: $f missing"
	done
	for i in 0 1 2 3 4 5 6 7; do
		for f in libopsmc_cpu$i.so libopsmc_cpu$i.stripped.so libopsmc_cpu$i.packed.so; do
			[ -f "$b/$f" ] || fail "$name: $f missing"
		done
	done
	cmake --build "$b" --target clean > "$work/$name.clean.log" 2>&1 ||
		{ cat "$work/$name.clean.log"; fail "$name: clean"; }
	left=$(cd "$b" && find . \( -name '*.so' -o -name '*.a' -o -name '*.o' \) -print)
	[ -z "$left" ] || fail "$name: clean left: $left"
}

build_and_clean toolchain -G "Unix Makefiles" -DQ7CC_TOOLCHAIN="$profile" \
	-DCMAKE_TOOLCHAIN_FILE="$stage/share/q7cc/cmake/q7cc-toolchain.cmake"
CXX=$stage/bin/q7cc-$profile build_and_clean package -G Ninja -DE2E_FIND_PACKAGE=ON \
	-DCMAKE_PREFIX_PATH="$stage"
echo "ok: clean, $profile"
