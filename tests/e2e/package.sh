#!/bin/sh
# e2e.package_*: tests/e2e/package, a project whose own compiler is g++,
# builds custom ops with find_package(q7cc CONFIG) and q7_add_custom_op
# (single core with a shape file and COMPILE_OPTIONS, and MULTICORE), from
# the build's stage or from a `cmake --install` of q7cc.
#   package.sh FROM PROFILE GENERATOR BUILD_DIR WORKDIR
#     FROM: stage or install; PROFILE: host or gnu (TOOLCHAIN of the ops)
# Checks: every output, named and of the profile's kind; the schemas;
# the ops run (q7-run: host, or the emulated core); a header change
# rebuilds the objects that include it and nothing else; `clean` leaves no
# output; q7_install_custom_op installs what loads (host: the images; gnu:
# the packed images and, multicore, a manifest naming them), and the
# installed ops run.
set -eu
from=$1 profile=$2 generator=$3 build=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/mtime_lib.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true

case $from in
stage) prefix=$build/stage ;;
install)
	prefix="$work/q7 prefix"
	cmake --install "$build" --prefix "$prefix" > "$work/install-q7cc.log" 2>&1 ||
		{ cat "$work/install-q7cc.log"; fail "cmake --install q7cc"; }
	;;
esac
[ -f "$prefix/lib/cmake/q7cc/q7ccConfig.cmake" ] || fail "no lib/cmake/q7cc/q7ccConfig.cmake in $prefix"
q7run=$prefix/bin/q7-run

# A copy of the kernels' project, so that its header can be touched.
cp -R "$here/proj" "$work/proj"
proj=$work/proj
b=$work/build
CXX=g++ cmake -S "$here/package" -B "$b" -G "$generator" -Dq7cc_DIR="$prefix/lib/cmake/q7cc" \
	-DOP_TOOLCHAIN="$profile" -DE2E_PROJ="$proj" -DCMAKE_BUILD_TYPE=Debug \
	> "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
grep -q "The CXX compiler identification is GNU" "$work/configure.log" || fail "CXX is not g++"
cmake --build "$b" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }

# The project's own compiler built the host library (an x86-64 object).
readelf -h "$b/libhostext.so" | grep -q 'X86-64' || fail "libhostext.so is not a host library"

outputs() { # the files q7_add_custom_op declares
	echo libops.so libops.stripped.so libops.packed.so libopsmc.so
	for i in 0 1 2 3 4 5 6 7; do
		echo libopsmc_cpu$i.so libopsmc_cpu$i.stripped.so libopsmc_cpu$i.packed.so
	done
}
machine=X86-64
[ "$profile" = gnu ] && machine='Tensilica Xtensa'
for f in $(outputs); do
	[ -f "$b/$f" ] || fail "$f missing"
done
for f in libops.so libopsmc_cpu3.so; do
	readelf -h "$b/$f" | grep -q "$machine" || fail "$f is not a $profile image"
done
head -1 "$b/libopsmc.so" | grep -qx 'q7cc-multicore 1' || fail "libopsmc.so is not a manifest"

# The schemas: Q7_KERNEL kernels, and the one the shape file names.
objs=$(find "$b/CMakeFiles/ops.q7cc" -name '*.o' | sort)
got=$("$prefix/bin/q7cc" --q7-print-schema $objs | sort)
want='bias(Tensor x) -> Tensor
my_ops::relu_forward(Tensor t_in) -> Tensor
relu(Tensor x) -> Tensor
scale(Tensor x, float s, int n) -> Tensor'
[ "$got" = "$want" ] || fail "schemas: '$got'"

npy() { "$here/npy.py" "$@"; }
npy write "$work/in.npy"
target=host
[ "$profile" = gnu ] && target=emulated
run() { # LIB OP ARGS... -> prints the result
	lib=$1 op=$2
	shift 2
	"$q7run" --target=$target "$lib" "$op" "$work/in.npy" "$@" -o "$work/out.npy" ||
		fail "q7-run $lib $op"
	npy read "$work/out.npy"
}
[ "$(run "$b/libops.so" bias)" = "-0.5 2.5 -2.5 5" ] || fail "bias (COMPILE_OPTIONS)"
[ "$(run "$b/libops.so" relu_forward)" = "0 2 0 4.5" ] || fail "relu_forward (shape file)"
[ "$(run "$b/libopsmc.so" scale 2.0 4 --cores=8)" = "-2 4 -6 9" ] || fail "scale on 8 cores"

# Nothing to do when nothing changed; a header change rebuilds the objects
# that include it (through the depfiles) and the links, nothing else.
cmake --build "$b" > "$work/again.log" 2>&1 || fail "second build"
! grep -q 'q7cc object' "$work/again.log" || { cat "$work/again.log"; fail "an unchanged build compiled"; }
newer_than "$b" "$proj/include/e2e_ops.h"
cmake --build "$b" > "$work/header.log" 2>&1 || { cat "$work/header.log"; fail "rebuild"; }
n=$(grep -c 'Building q7cc object' "$work/header.log" || true)
[ "$n" = 2 ] && grep -q 'ops.q7cc/.*/proj/scale.cpp.o' "$work/header.log" &&
	grep -q 'opsmc.q7cc/.*/proj/scale.cpp.o' "$work/header.log" ||
	{ cat "$work/header.log"; fail "the header change rebuilt $n objects, not scale.cpp's two"; }
grep -q 'Linking q7cc custom op libopsmc.so' "$work/header.log" || fail "no relink after the header change"

# q7_install_custom_op: what loads.
cmake --install "$b" --prefix "$work/inst" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "install"; }
(cd "$work/inst" && find . -type f | sort) > "$work/installed"
{
	echo ./lib/libhostext.so
	if [ "$profile" = gnu ]; then
		echo ./ops/libops.packed.so
		echo ./ops/mc/libopsmc.so
		for i in 0 1 2 3 4 5 6 7; do echo ./ops/mc/libopsmc_cpu$i.packed.so; done
	else
		echo ./ops/libops.so
		echo ./ops/mc/libopsmc.so
		for i in 0 1 2 3 4 5 6 7; do echo ./ops/mc/libopsmc_cpu$i.so; done
	fi
} | sort > "$work/expected"
diff "$work/expected" "$work/installed" || fail "installed files"
single=$work/inst/ops/libops.so
[ "$profile" = gnu ] && single=$work/inst/ops/libops.packed.so
[ "$(run "$single" bias)" = "-0.5 2.5 -2.5 5" ] || fail "the installed op"
[ "$(run "$work/inst/ops/mc/libopsmc.so" scale 2.0 4 --cores=8)" = "-2 4 -6 9" ] ||
	fail "the installed multicore op"

# Misuse stops the configure with a message naming the call and the reason.
misuse() { # EXPECTED-MESSAGE CMAKE-LINES
	rm -rf "$work/misuse"
	mkdir -p "$work/misuse"
	printf 'cmake_minimum_required(VERSION 3.20)\nproject(m CXX)\nfind_package(q7cc CONFIG REQUIRED)\n%s\n' \
		"$2" > "$work/misuse/CMakeLists.txt"
	: > "$work/misuse/k.cpp"
	CXX=g++ cmake -S "$work/misuse" -B "$work/misuse/b" -Dq7cc_DIR="$prefix/lib/cmake/q7cc" \
		> "$work/misuse.log" 2>&1 && fail "misuse configured: $2"
	grep -q "$1" "$work/misuse.log" || { cat "$work/misuse.log"; fail "no message '$1'"; }
}
misuse 'q7_add_custom_op(k): TOOLCHAIN arm: use xt, gnu or host' 'q7_add_custom_op(k SOURCES k.cpp TOOLCHAIN arm)'
misuse 'q7_add_custom_op(k): no SOURCES' 'q7_add_custom_op(k MULTICORE)'
misuse 'q7_install_custom_op(k): k was not made by q7_add_custom_op' \
	'add_library(k SHARED k.cpp)
q7_install_custom_op(k DESTINATION lib)'

# clean: none of the outputs, objects or depfiles stay.
cmake --build "$b" --target clean > "$work/clean.log" 2>&1 || { cat "$work/clean.log"; fail "clean"; }
left=$(cd "$b" && find . \( -name '*.so' -o -name '*.o' -o -name '*.o.d' \) -print)
[ -z "$left" ] || fail "clean left: $left"
echo "ok: package from $from, $profile, $generator"
