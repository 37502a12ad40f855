#!/bin/bash
# q7-run on the host, when a kernel faults: one line that names the op,
# the core (on several), the signal and the offset in the image; exit
# status 1; no output file. The same kernels without the fault run fine,
# so the check is not blind.
#   faults.sh Q7CC Q7RUN WORKDIR
set -u
q7cc=$1 q7run=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/kernels/faults.cpp
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
fail() { echo "FAIL: $*" >&2; exit 1; }

"$q7cc" --q7-toolchain=host -c "$src" -o faults.o || fail "compile"
"$q7cc" --q7-toolchain=host -shared --q7-multicore faults.o -o libf.so || fail "link"
npy() { PYTHONPATH=$here python3 -c "import sys, npytool; $1" "${@:2}"; }
npy "npytool.write(sys.argv[1], '<i4', (4,), [1, 2, 3, 4])" x.npy || fail "npy"

crash() { # crash WANT-STATUS NEEDLE... -- q7-run ARGS
	local want=$1
	shift
	local needles=()
	while [ "$1" != -- ]; do needles+=("$1"); shift; done
	shift
	rm -f y.npy
	"$q7run" "$@" -o y.npy 2> err
	local rc=$?
	[ "$rc" = "$want" ] || fail "$*: status $rc, want $want: $(cat err)"
	for n in "${needles[@]}"; do
		grep -qF -- "$n" err || fail "$*: no '$n' in: $(cat err)"
	done
	[ "$(wc -l < err)" = 1 ] || fail "$*: more than one line: $(cat err)"
	[ ! -e y.npy ] || fail "$*: an output file was written"
}

# Controls: the same kernels, not faulting.
"$q7run" libf_cpu0.so bad_store x.npy 5 -o y.npy 2> err || fail "bad_store without the fault: $(cat err)"
"$q7run" libf_cpu0.so divide x.npy 2 -o y.npy 2> err || fail "divide by 2: $(cat err)"
got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
[ "$got" = "0 1 1 2" ] || fail "divide by 2 gave $got"

crash 1 "q7-run: error: bad_store: the kernel crashed: SIGSEGV" "address 0x10" \
	", at libf_cpu0.so+0x" -- libf_cpu0.so bad_store x.npy -1
crash 1 "divide: the kernel crashed: SIGFPE" ", at libf_cpu0.so+0x" -- libf_cpu0.so divide x.npy 0
crash 1 "raise_abort: the kernel crashed: SIGABRT" -- libf_cpu0.so raise_abort x.npy -1
# abort() is not a crash: the runtime ends the op and names the core.
crash 1 "q7-run: error: give_up: abort() was called (on core 0)" -- libf_cpu0.so give_up x.npy -1
crash 1 "q7-run: error: core 5: give_up: abort() was called" -- \
	--cores=8 --out-shape=4 --out-dtype=int32 libf.so give_up x.npy 5
# Eight cores: the report names the one that faulted.
crash 1 "bad_store: the kernel crashed on core 3: SIGSEGV" ", at libf_cpu3.so+0x" -- \
	--cores=8 --out-shape=4 --out-dtype=int32 libf.so bad_store x.npy 3
# The offset is the faulting instruction's, in the library's own
# addresses: addr2line (binutils, beside the host compiler) finds the kernel.
"$q7run" libf_cpu0.so bad_store x.npy -1 -o y.npy 2> err
off=$(sed -n 's/.*libf_cpu0.so+\(0x[0-9a-f]*\).*/\1/p' err)
[ -n "$off" ] || fail "no offset in: $(cat err)"
addr2line -f -C -e libf_cpu0.so "$off" | head -1 | grep -q 'bad_store' ||
	fail "offset $off is not in bad_store: $(addr2line -f -C -e libf_cpu0.so "$off")"
echo "ok: faults reported"
