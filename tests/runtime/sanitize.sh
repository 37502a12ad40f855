#!/bin/bash
# q7-run --sanitize: a host kernel library built with
# -fsanitize=address,undefined runs with the sanitizers' runtimes (q7-run
# starts itself again with them preloaded, in-process): a heap overflow
# and an undefined shift give the sanitizer's report, then one line
# naming the op, a failed status and no output file; the same kernels
# behaving give their results. A library built without them, and the
# emulated target, are refused with a message that says what to do.
#   sanitize.sh Q7CC Q7RUN WORKDIR
set -u
fail() { echo "FAIL: $*" >&2; exit 1; }
q7cc=$1 q7run=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work" || fail "cannot make $work"
cd "$work" || fail "cannot enter $work"
# what would change how the sanitizers run
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SANITIZED LD_PRELOAD ASAN_OPTIONS \
	UBSAN_OPTIONS || true

san=("-fsanitize=address,undefined" -fno-omit-frame-pointer)
"$q7cc" --q7-toolchain=host "${san[@]}" -c "$here/kernels/sanitize.cpp" -o san.o || fail "compile"
"$q7cc" --q7-toolchain=host "${san[@]}" -shared san.o -o libsan.so || fail "link libsan.so"
"$q7cc" --q7-toolchain=host -c "$here/kernels/sanitize.cpp" -o plain.o || fail "compile plain"
"$q7cc" --q7-toolchain=host -shared plain.o -o libplain.so || fail "link libplain.so"
npy() { PYTHONPATH=$here python3 -c "import sys, npytool; $1" "${@:2}"; }
npy "npytool.write(sys.argv[1], '<f4', (4,), [1, 2, 3, 4])" x.npy || fail "npy"

ok() { # WANT ARGS...
	local want=$1
	shift
	rm -f y.npy
	"$q7run" --sanitize "$@" -o y.npy 2> err || fail "$*: $(cat err)"
	got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
	[ "$got" = "$want" ] || fail "$*: gave $got, want $want"
}
ok "1.0 0.0 0.0 0.0" libsan.so heap_over x.npy 0
ok "16.0 0.0 0.0 0.0" libsan.so shift x.npy 4

caught() { # REPORT ARGS...
	local report=$1
	shift
	rm -f y.npy
	"$q7run" --sanitize "$@" -o y.npy 2> err && fail "$*: status 0"
	grep -qF -- "$report" err || fail "$*: no '$report' in: $(cat err)"
	[ "$(tail -n 1 err)" = "q7-run: error: $2: a sanitizer stopped the kernel (its report is above)" ] ||
		fail "$*: the last line does not name the op: $(tail -n 1 err)"
	[ ! -e y.npy ] || fail "$*: an output file was written"
}
caught "ERROR: AddressSanitizer: heap-buffer-overflow" libsan.so heap_over x.npy 4
caught "runtime error: shift exponent 40 is too large for 32-bit type 'int'" libsan.so shift x.npy 40

refused() { # MESSAGE ARGS...
	local msg=$1
	shift
	"$q7run" --sanitize "$@" -o y.npy 2> err && fail "$*: status 0"
	[ "$(cat err)" = "$msg" ] || fail "$*: said: $(cat err)"
}
refused "q7-run: error: libplain.so: not built with the sanitizers: build it with -fsanitize=address,undefined (q7cc hands them to the host compiler), then --sanitize runs it with their runtimes" \
	libplain.so heap_over x.npy 0
refused "q7-run: error: --sanitize runs host kernels (the emulated core has no sanitizers)" \
	--target=emulated libsan.so heap_over x.npy 0
echo ok
