#!/bin/sh
# e2e.deb_package: `cpack -G DEB` and `-G TGZ` of this build. The .deb's
# dependencies are installed Debian packages (the ones q7cc needs at run
# time); the .deb unpacked with dpkg -x into a temporary root runs from
# there: a gnu and a host op compiled, linked and run (q7-run on the host
# and the emulated core); the .tar.gz holds the same tree, links as links.
#   deb_package.sh BUILD_DIR SOURCE_DIR WORKDIR
set -eu
build=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/root" "$work/run"
cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/out" > "$work/cpack.log" 2>&1 ||
	{ cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/out/q7cc_*.deb)
tgz=$(ls "$work"/out/q7cc-*.tar.gz)
deps=$(dpkg-deb -f "$deb" Depends)
for d in libclang1-14 gcc-xtensa-lx106 qemu-system-misc libtorch1.13; do
	echo "$deps" | grep -q "\b$d\b" || fail "Depends lacks $d: $deps"
done
for d in $(echo "$deps" | tr -d ' ' | tr ',' ' '); do
	dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q 'install ok installed' ||
		fail "Depends names $d, which is not an installed Debian package"
done
dpkg -x "$deb" "$work/root"
r=$work/root/usr
[ "$(readlink "$r/bin/q7-run")" = q7cc ] || fail "the .deb's bin/q7-run is not a link to q7cc"
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
