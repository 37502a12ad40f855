#!/bin/sh
# e2e.uninstall: install_manifest.txt lists every installed file and link
# (bin/'s ten names of q7cc too), and the uninstall script (what the
# `uninstall` target runs) removes them all, leaving no file, link or
# folder of q7cc's under the prefix. A DESTDIR install with --prefix /usr
# puts q7cc.torch in Debian's lib/python3/dist-packages, where it imports;
# an install over an older one leaves none of the older one's files; the
# uninstall then leaves nothing at all under DESTDIR: no __pycache__, no
# folder the install created (docs/torch.md, "Installing").
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

# DESTDIR, --prefix /usr: Debian's python3 folder, an install over an older
# one, and an uninstall that leaves no trace.
root=$work/root
rm -f "$build/install_created_dirs.txt"
DESTDIR=$root cmake --install "$build" --prefix /usr > "$work/install-usr.log" 2>&1 ||
	{ cat "$work/install-usr.log"; fail "cmake --install --prefix /usr"; }
py=$root/usr/lib/python3/dist-packages
grep -q '^PYTHONDIR = "lib/python3/dist-packages"$' "$py/q7cc/_layout.py" ||
	fail "q7cc.torch is not in Debian's python3 folder: $(ls "$root/usr/lib")"
[ ! -e "$root/usr/lib/python" ] || fail "lib/python installed beside dist-packages"
lib=$(cd "$root/usr" && ls -d lib*/q7cc/torch-bridge/src | head -1)
touch "$root/usr/$lib/kernel.cpp" "$root/usr/include/q7cc/image.h" "$py/q7cc/torch/old.py"
DESTDIR=$root cmake --install "$build" --prefix /usr > "$work/install-usr.log" 2>&1 ||
	{ cat "$work/install-usr.log"; fail "cmake --install over the older one"; }
# At once, as above: a test running beside this one may install next.
cp "$build/install_manifest.txt" "$work/manifest-usr.txt"
cp "$build/install_created_dirs.txt" "$work/created-usr.txt"
grep -q "^/usr/bin/q7cc\$" "$work/manifest-usr.txt" || fail "the /usr manifest is not this install's"
for f in "$lib/kernel.cpp" include/q7cc/image.h lib/python3/dist-packages/q7cc/torch/old.py; do
	[ ! -e "$root/usr/$f" ] || fail "the install over an older one left $f"
done
(cd "$work" && env -i PATH=/usr/bin:/bin PYTHONPATH="$py" /usr/bin/python3 -c "import q7cc.torch") ||
	fail "import q7cc.torch from lib/python3/dist-packages"
[ -d "$py/q7cc/torch/__pycache__" ] || fail "the import wrote no __pycache__"
DESTDIR=$root cmake -DMANIFEST="$work/manifest-usr.txt" -DCREATED="$work/created-usr.txt" \
	-P "$src/cmake/Q7Uninstall.cmake" > "$work/uninstall-usr.log" 2>&1 ||
	{ cat "$work/uninstall-usr.log"; fail "uninstall of the /usr install"; }
[ -z "$(ls -A "$root")" ] || { (cd "$root" && find . | head); fail "left after uninstall under DESTDIR"; }
echo "uninstall: ok"
