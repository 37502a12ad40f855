#!/bin/sh
# e2e.deb_package: `cpack -G DEB` and `-G TGZ` of this build: two .debs,
# q7cc (the compiler, no PyTorch in its dependencies) and python3-q7cc
# (q7cc.torch and the bridge). Their dependencies are installed Debian
# packages, versioned from dpkg-shlibdeps (libgcc-s1 among them); q7cc
# recommends clangd. The .debs unpacked with dpkg -x into a temporary root run from
# there: a gnu and a host op compiled, linked and run (q7-run on the host
# and the emulated core); the .tar.gz holds the same tree, links as links.
# The .debs are ones a packager would ship: lintian reports no error and no
# warning (its overrides each say why the rule cannot apply), every
# program in /usr/bin has a manual page. Installed with apt-get (in a
# private mount namespace whose /usr, /etc and /var are overlays on a
# tmpfs, so the machine's own stay as they were), `python3 -c "import
# q7cc.torch"` works with no environment (installed over q7cc 0.1.0, the
# single package that held q7cc.torch too: python3-q7cc replaces it), and
# apt-get remove then leaves
# none of the package's files and no __pycache__. (Needs root: CI is.)
#   deb_package.sh BUILD_DIR SOURCE_DIR WORKDIR
set -eu
build=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "${Q7CC_DEB_NS:-}" = 1 ]; then
	# In the namespace: install, import, remove.
	deb=$(ls "$work"/out/q7cc_*.deb)
	pydeb=$(ls "$work"/out/python3-q7cc_*.deb)
	ov=$work/ov
	mount -t tmpfs tmpfs "$ov"
	for d in usr etc var; do
		mkdir -p "$ov/$d.u" "$ov/$d.w"
		mount -t overlay overlay -o "lowerdir=/$d,upperdir=$ov/$d.u,workdir=$ov/$d.w" "/$d"
	done
	# An upgrade from the single package of 0.1.0, which held q7cc.torch
	# too: python3-q7cc takes its files over (Replaces, Breaks).
	old=$work/old-q7cc
	torch_init=usr/lib/python3/dist-packages/q7cc/torch/__init__.py
	mkdir -p "$old/DEBIAN" "$old/$(dirname "$torch_init")"
	echo "# q7cc 0.1.0" > "$old/$torch_init"
	printf '%s\n' "Package: q7cc" "Version: 0.1.0" "Architecture: $(dpkg --print-architecture)" \
		"Maintainer: q7cc maintainers <maintainers@q7cc.invalid>" \
		"Description: q7cc as one package (0.1.0)" > "$old/DEBIAN/control"
	dpkg-deb --root-owner-group --build "$old" "$work/old-q7cc.deb" > /dev/null ||
		fail "dpkg-deb --build of the old q7cc"
	dpkg -i "$work/old-q7cc.deb" > "$work/old-install.log" 2>&1 ||
		{ cat "$work/old-install.log"; fail "dpkg -i the old q7cc"; }
	DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb" "$pydeb" > "$work/apt-install.log" 2>&1 ||
		{ cat "$work/apt-install.log"; fail "apt-get install $deb $pydeb"; }
	[ "$(dpkg-query -W -f='${Version}' q7cc)" != 0.1.0 ] || fail "q7cc 0.1.0 was not upgraded"
	[ "$(dpkg -S "/$torch_init" 2>/dev/null)" = "python3-q7cc: /$torch_init" ] ||
		fail "/$torch_init is not python3-q7cc's after the upgrade: $(dpkg -S "/$torch_init" 2>&1)"
	dpkg -L q7cc python3-q7cc > "$work/files.txt"
	(cd / && env -i PATH=/usr/bin:/bin /usr/bin/python3 -c "import q7cc.torch") ||
		fail "python3 -c 'import q7cc.torch' after apt-get install"
	[ -d /usr/lib/python3/dist-packages/q7cc/torch/__pycache__ ] ||
		fail "the import wrote no __pycache__ (nothing for remove to clean?)"
	DEBIAN_FRONTEND=noninteractive apt-get remove -y q7cc python3-q7cc > "$work/apt-remove.log" 2>&1 ||
		{ cat "$work/apt-remove.log"; fail "apt-get remove q7cc python3-q7cc"; }
	while IFS= read -r f; do
		[ -d "$f" ] && [ ! -L "$f" ] && continue
		[ ! -e "$f" ] && [ ! -L "$f" ] || fail "apt-get remove left $f"
	done < "$work/files.txt"
	[ ! -e /usr/lib/python3/dist-packages/q7cc ] || fail "apt-get remove left /usr/lib/python3/dist-packages/q7cc"
	exit 0
fi
for t in lintian apt-get unshare; do
	command -v $t > /dev/null || fail "$t is not installed (Debian packages lintian, apt, util-linux)"
done
[ "$(id -u)" = 0 ] || fail "apt-get install needs root; run as root (CI does)"
rm -rf "$work"
mkdir -p "$work/root" "$work/run"
cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/out" > "$work/cpack.log" 2>&1 ||
	{ cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/out/q7cc_*.deb)
pydeb=$(ls "$work"/out/python3-q7cc_*.deb)
tgz=$(ls "$work"/out/q7cc-*.tar.gz)
deps=$(dpkg-deb -f "$deb" Depends)
pydeps=$(dpkg-deb -f "$pydeb" Depends)
for d in libclang1-14 gcc-xtensa-lx106 qemu-system-misc libdw1 'libc6 (>= '; do
	echo "$deps" | grep -q -F "$d" || fail "q7cc's Depends lacks $d: $deps"
done
for d in libtorch1.13 python3-torch; do
	! echo "$deps" | grep -q "\b$d\b" || fail "q7cc depends on $d: $deps"
done
for d in 'q7cc (= ' python3-torch 'libtorch1.13 (>= ' 'libgcc-s1 (>= '; do
	echo "$pydeps" | grep -q -F "$d" || fail "python3-q7cc's Depends lacks $d: $pydeps"
done
dpkg-deb -f "$deb" Recommends | grep -q '\bclangd\b' || fail "q7cc does not recommend clangd"
for d in $(echo "$deps, $pydeps" | sed 's/([^)]*)//g' | tr -d ' ' | tr ',' ' '); do
	[ "$d" = q7cc ] && continue
	dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q 'install ok installed' ||
		fail "Depends names $d, which is not an installed Debian package"
done
dpkg -x "$deb" "$work/root"
dpkg -x "$pydeb" "$work/root"
[ -f "$work/root/usr/share/doc/python3-q7cc/copyright" ] || fail "python3-q7cc has no copyright file"
r=$work/root/usr
[ "$(readlink "$r/bin/q7-run")" = q7cc ] || fail "the .deb's bin/q7-run is not a link to q7cc"
lintian --fail-on error,warning "$deb" "$pydeb" > "$work/lintian.txt" 2>&1 || { cat "$work/lintian.txt"; fail "lintian"; }
! grep -q '^[EW]: ' "$work/lintian.txt" || { cat "$work/lintian.txt"; fail "lintian"; }
"$src/tests/e2e/check_copyright.py" "$r/share/doc/q7cc/copyright" "$work/root" ||
	fail "debian/copyright does not declare every bundled file"
for p in "$r"/bin/*; do
	[ -e "$r/share/man/man1/$(basename "$p").1.gz" ] || fail "no manual page for $(basename "$p")"
done
mkdir -p "$work/ov"
Q7CC_DEB_NS=1 unshare --mount --propagation private "$0" "$build" "$src" "$work" ||
	fail "apt-get install / import / remove"
tar tzf "$tgz" | grep -q '/bin/q7cc$' || fail "the .tar.gz has no bin/q7cc"
cd "$work/run"
cp "$src/examples/ops/relu.cpp" .
env -u Q7CC_PREFIX PATH="$r/bin:/usr/bin:/bin" sh -c '
	set -e
	q7cc-gnu -O2 -shared relu.cpp -o libgnu.so
	q7cc-host -O2 -shared relu.cpp -o libhost.so
	/usr/bin/python3 -c "import numpy as np; np.save(\"x.npy\", np.arange(-8, 8, dtype=np.float32).reshape(4, 4))"
	q7-run --target=emulated libgnu.so relu_forward x.npy -o emu.npy
	q7-run --target=host libhost.so relu_forward x.npy -o host.npy
	q7cc-gnu -### -O2 -shared relu.cpp -o libx.so > line.txt 2>&1' || fail "running from the unpacked .deb"
grep -q -- "-L$r/lib/q7cc/xtensa/lsp" line.txt || { cat line.txt; fail "the link did not use the .deb's own libraries"; }
/usr/bin/python3 -c '
import numpy as np
x = np.load("x.npy")
for f in ("emu.npy", "host.npy"):
    assert np.array_equal(np.load(f), np.maximum(x, 0)), f' || fail "wrong results"
echo "deb package: ok"
