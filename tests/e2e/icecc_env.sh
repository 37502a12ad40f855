#!/bin/bash
# e2e.icecc_env: q7cc-icecc-env with paths that hold a space, a quote and
# $(...): q7cc installed under such a folder, and a compiler on PATH that
# loads a library from one. The scripts the environment starts q7cc by
# (/usr/bin/g++, /usr/bin/gcc) name the install as one word and run no
# command of its name; every library ldd lists is in the tarball at its
# own path. (e2e.icecc_build compiles in such an environment.)
#   icecc_env.sh STAGE WORKDIR
set -euo pipefail
stage=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
dir="$work/in st 'q\" \$(touch pwned)"
mkdir -p "$dir/lib" "$dir/fakebin" "$work/out" "$work/root"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true
cp -a "$stage" "$dir/q7"
# c++ and cc: the host's, started through a program that loads a library
# from the odd folder.
printf 'int q7fake(void);\nint q7fake(void) { return 0; }\n' > fake.c
printf '#include <unistd.h>\nint q7fake(void);\nint main(int c, char **v) { (void)c; q7fake(); v[0] = (char *)REAL; execv(REAL, v); return 127; }\n' > wrap.c
cc -shared -fPIC -o "$dir/lib/libq7fake.so" fake.c
for t in c++ cc; do
	real=$(readlink -f "$(command -v $t)")
	cc -DREAL="\"$real\"" -o "$dir/fakebin/$t" wrap.c -L"$dir/lib" -lq7fake -Wl,-rpath,"$dir/lib"
done
"$dir/fakebin/cc" --version > /dev/null || fail "the fake cc does not run"
env=$(PATH="$dir/fakebin:$PATH" "$dir/q7/bin/q7cc-icecc-env" host "$work/out") ||
	fail "q7cc-icecc-env host"
tar -xzf "$env" -C "$work/root" || fail "$env: not a tarball"
[ -f "$work/root$dir/lib/libq7fake.so" ] || fail "the compiler's library is not in the tarball at its path"
[ -f "$work/root$dir/q7/bin/q7cc" ] || fail "q7cc is not in the tarball at its path"
for d in g++ gcc; do
	# Outside the chroot the script's path is the install's own.
	out=$(sh "$work/root/usr/bin/$d" --version 2>&1) || fail "usr/bin/$d --version: $out"
	grep -q '(profile host)' <<< "$out" || fail "usr/bin/$d did not start q7cc-host: $out"
done
[ -z "$(find "$work" -name pwned)" ] || fail "a command in the install's name ran"
echo "icecc env: ok"
