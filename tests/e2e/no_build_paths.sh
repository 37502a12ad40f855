#!/bin/sh
# e2e.no_build_paths: no program, library or object the build stages names
# the source or the build folder (a __FILE__ of libtorch's macros in
# libq7torch.so did; CMakeLists.txt maps both away with -ffile-prefix-map),
# so two builds in different folders give the same bytes (docs/driver.md,
# "CMake": the .deb is reproducible).
#   no_build_paths.sh STAGE SOURCE_DIR BUILD_DIR
set -eu
stage=$1 src=$2 build=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
n=0
for f in $(find "$stage" -type f \( -perm -u+x -o -name '*.so' -o -name '*.a' -o -name '*.o' \)); do
	head -c 4 "$f" | grep -q 'ELF\|!<ar' || continue
	n=$((n + 1))
	for d in "$build" "$src"; do
		! grep -q -F "$d" "$f" || fail "$f names $d"
	done
done
[ "$n" -gt 10 ] || fail "only $n ELF files under $stage"
echo "no build paths: ok ($n files)"
