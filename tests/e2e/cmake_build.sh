#!/bin/sh
# An existing CMake project built with CXX=q7cc and nothing else, in a
# build folder whose path has a space and a quote.
#   cmake_build.sh Q7CC PROFILE GENERATOR SHARED WORKDIR   (PROFILE: host, gnu, detect)
# SHARED=ON also links the device library, MC adds its --q7-multicore twin,
# DEBUG links it in a Debug build (-g: linked, not stripped or packed); the
# outputs are checked by name, where they were loaded, and (host) that the
# library exports q7_entry.
set -eu
q7cc=$1 profile=$2 generator=$3 shared=$4 work=$5
src=$(cd "$(dirname "$0")/proj" && pwd)
build="$work/b 'q' dir"
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
# PROFILE "detect": q7cc chooses (gnu, on a machine without the vendor tools).
if [ "$profile" = detect ]; then
	profile=gnu
else
	export Q7_TOOLCHAIN="$profile"
fi

fail() { echo "FAIL: $*" >&2; exit 1; }

mc=OFF type=Release
[ "$shared" = MC ] && shared=ON mc=ON
[ "$shared" = DEBUG ] && shared=ON type=Debug
# Ninja: compile and link lines through @response files, as long ones go.
rsp=
[ "$generator" = Ninja ] && rsp=-DCMAKE_NINJA_FORCE_RESPONSE_FILE=ON
CXX="$q7cc" cmake -S "$src" -B "$build" -G "$generator" -DE2E_SHARED="$shared" $rsp \
	-DE2E_MULTICORE="$mc" \
	-DCMAKE_BUILD_TYPE=$type > "$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log"; fail "configure"; }
grep -q "The CXX compiler identification is GNU" "$work/configure.log" ||
	fail "CMake did not identify the compiler"
cmake --build "$build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }

# The records went through CMake's compile lines into the archive members.
got=$("$q7cc" --q7-print-schema "$build/libkernels.a")
want='relu(Tensor x) -> Tensor
scale(Tensor x, float s, int n) -> Tensor'
[ "$got" = "$want" ] || fail "schemas from libkernels.a: '$got'"

obj="$build/CMakeFiles/kernels.dir/relu.cpp.o"
case $profile in
gnu) readelf -h "$obj" | grep -q 'Tensilica Xtensa' || fail "$obj is not an Xtensa object" ;;
host) readelf -h "$obj" | grep -q 'REL (Relocatable' || fail "$obj is not an object" ;;
esac

[ "$shared" = ON ] || exit 0

# Single core: <base>.so (+ stripped and packed on the device profiles).
[ -f "$build/libops.so" ] || fail "libops.so missing"
if [ "$profile" = host ]; then
	nm -D "$build/libops.so" | grep -q ' T q7_entry$' || fail "libops.so lacks q7_entry"
fi
if [ "$type" = Debug ]; then
	[ ! -e "$build/libops.stripped.so" ] && [ ! -e "$build/libops.packed.so" ] ||
		fail "a Debug (-g) build was packed"
	# ... and the link said so, once, naming the image to load.
	[ "$(grep -c "note: .*libops.so: -g: this is the image to load (not stripped); no packed image was written" \
		"$work/build.log")" = 1 ] || { cat "$work/build.log"; fail "the -g link did not say once which image to load"; }
	echo "ok: $profile $generator Debug"
	exit 0
fi
[ -f "$build/libops.stripped.so" ] && [ -f "$build/libops.packed.so" ] ||
	fail "libops.stripped.so / libops.packed.so missing"

# Every loaded segment inside the window: [lo, lo+len).
in_window() { # FILE LO LEN
	n=0
	readelf -lW "$1" | grep '^ *LOAD' > "$work/load.txt"
	while read -r _ _ vaddr _ _ memsz _; do
		n=$((n + 1))
		[ $((vaddr)) -ge $(($2)) ] && [ $((vaddr + memsz)) -le $(($2 + $3)) ] ||
			fail "$1: LOAD at $vaddr+$memsz outside [$2, +$3)"
	done < "$work/load.txt"
	[ $n -gt 0 ] || fail "$1: no LOAD segment"
}
[ "$profile" = host ] || in_window "$build/libops.so" 0x84000000 0x2000000
# The library runs: on the host, or on the emulated Xtensa core.
target=host
[ "$profile" = host ] || target=emulated
q7run="$(dirname "$q7cc")/q7-run"
npy() { "$(dirname "$0")/npy.py" "$@"; }
npy write "$work/in.npy"
"$q7run" --target=$target "$build/libops.so" relu "$work/in.npy" -o "$work/relu.npy" ||
	fail "q7-run relu"
[ "$(npy read "$work/relu.npy")" = "0 2 0 4.5" ] || fail "relu gave $(npy read "$work/relu.npy")"

[ "$mc" = ON ] || { echo "ok: $profile $generator shared=$shared"; exit 0; }
# Multicore: eight images and -o as the manifest.
head -1 "$build/libopsmc.so" | grep -qx 'q7cc-multicore 1' || fail "libopsmc.so is not a manifest"
for i in 0 1 2 3 4 5 6 7; do
	grep -qx "libopsmc_cpu$i.so" "$build/libopsmc.so" || fail "manifest lacks cpu$i"
	[ -f "$build/libopsmc_cpu$i.so" ] || fail "libopsmc_cpu$i.so missing"
	[ -f "$build/libopsmc_cpu$i.packed.so" ] || fail "libopsmc_cpu$i.packed.so missing"
	[ "$profile" = host ] ||
		in_window "$build/libopsmc_cpu$i.so" $((0x84000000 + i * 0x200000)) 0x200000
done
"$q7run" --target=$target --cores=8 "$build/libopsmc.so" scale "$work/in.npy" 2.0 4 \
	-o "$work/scale.npy" || fail "q7-run scale on 8 cores"
[ "$(npy read "$work/scale.npy")" = "-2 4 -6 9" ] || fail "scale gave $(npy read "$work/scale.npy")"
echo "ok: $profile $generator shared=$shared multicore"
