#!/bin/sh
# e2e.wheel_missing_debs: the wheel's build (Q7CC_WHEEL, what `pip install .`
# configures; cmake/Q7Wheel.cmake) on a machine without the Debian packages
# it builds with stops at the configure with one message naming every one
# (and the apt-get line), before any compile: the cross compiler, pkg-config,
# libelf, json-c and libclang are hidden from CMake's searches here.
#   wheel_missing_debs.sh SOURCE_DIR WORKDIR
set -eu
src=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
rc=0
cmake -S "$src" -B "$work/build" -DQ7CC_WHEEL=ON -DBUILD_TESTING=OFF \
	-DCMAKE_MAKE_PROGRAM=/usr/bin/make -DCMAKE_C_COMPILER=/usr/bin/cc \
	-DCMAKE_CXX_COMPILER=/usr/bin/c++ -DCMAKE_FIND_ROOT_PATH="$work/none" \
	-DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
	-DQ7CC_LIBCLANG_INCLUDE="$work/none" >"$work/out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "the configure passed without the packages"
# CMake wraps the message: one line of it.
msg=$(tr '\n' ' ' <"$work/out" | tr -s ' ')
for deb in gcc-xtensa-lx106 binutils-xtensa-lx106 picolibc-xtensa-lx106-elf pkg-config \
	libelf-dev libjson-c-dev libclang-14-dev; do
	case "$msg" in
	*"pip install needs the Debian packages"*" $deb "*"apt-get install"*) ;;
	*) cat "$work/out"; fail "the message does not name $deb" ;;
	esac
done
[ ! -e "$work/build/build.ninja" ] && [ ! -e "$work/build/Makefile" ] ||
	fail "a build system was written"
echo "the wheel's configure names the missing Debian packages"
