#!/bin/sh
# e2e.uninstall: install_manifest.txt lists every installed file and link
# (bin/'s ten names of q7cc too), and the uninstall script (what the
# `uninstall` target runs) removes them all, leaving no file, link or
# folder of q7cc's under the prefix.
#   uninstall.sh BUILD_DIR SOURCE_DIR WORKDIR
set -eu
build=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install"; }
# Other tests install from this build too: take the manifest at once, and
# only if it is this install's.
cp "$build/install_manifest.txt" "$work/manifest.txt"
grep -q "^$prefix/bin/q7cc\$" "$work/manifest.txt" || fail "the manifest is not this install's"
(cd "$prefix" && find . \( -type f -o -type l \) | sed "s|^\.|$prefix|" | sort) > "$work/installed.txt"
sort -u "$work/manifest.txt" > "$work/listed.txt"
comm -23 "$work/installed.txt" "$work/listed.txt" > "$work/unlisted.txt"
[ ! -s "$work/unlisted.txt" ] || { head "$work/unlisted.txt"; fail "installed but not in the manifest"; }
for n in xt-clang++ q7cc-xt q7cc-gnu q7cc-host q7cc-gnu-g++ q7cc-host-g++ q7cc-gnu-gcc q7cc-host-gcc q7-pkg-loadlib xt-pkg-loadlib q7-prelink q7-run; do
	[ "$(readlink "$prefix/bin/$n")" = q7cc ] || fail "bin/$n is not a link to q7cc"
done
cmake -DMANIFEST="$work/manifest.txt" -P "$src/cmake/Q7Uninstall.cmake" > "$work/uninstall.log" 2>&1 ||
	{ cat "$work/uninstall.log"; fail "uninstall"; }
left=$(cd "$prefix" && find . -mindepth 1 ! -type d; find . -mindepth 1 -type d -path '*q7cc*')
[ -z "$left" ] || { echo "$left" | head; fail "left after uninstall"; }
echo "uninstall: ok"
