#!/bin/bash
# The two rules of docs/runtime.md ("What a kernel may write") under
# q7-run: a kernel that writes into its const input, 16 floats past
# get_dst_tensor(), 16 floats past a torch::zeros of its own, or 16
# floats past its input gets one line naming the op, the argument (the
# destination, a heap allocation, an input) and the first byte offset,
# status 1 and no output file; the same
# kernels keeping the rules give their results. On the host in every
# mode (isolated, the default; --in-process), with the runtime's
# destination and with q7-run's (--out-shape), or on the emulated core.
#   safety.sh Q7CC Q7RUN WORKDIR host|emulated
set -u
q7cc=$1 q7run=$2 work=$3 target=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_UNCHECKED || true
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$target" = host ]; then
	tc=--q7-toolchain=host
	modes=("" "--in-process" "--out-shape=8" "--in-process --out-shape=8")
else
	tc=--q7-toolchain=gnu
	modes=("--target=emulated" "--target=emulated --out-shape=8")
fi
"$q7cc" $tc -c "$here/kernels/safety.cpp" -o safety.o || fail "compile safety.cpp"
# recurse overflows the core's stack on purpose, for the run-time check:
# the build's check (docs/driver.md, "The kernel's stack at the build")
# is lowered
"$q7cc" $tc -Wno-q7-stack -shared safety.o -o libs.so || fail "link libs.so"
npy() { PYTHONPATH=$here python3 -c "import sys, npytool; $1" "${@:2}"; }
npy "npytool.write(sys.argv[1], '<f4', (8,), range(1, 9))" x.npy || fail "npy"
cp x.npy x0.npy
npy "npytool.write(sys.argv[1], '<i4', (4,), [8, 4, 2, 1])" xi.npy || fail "npy"

# the results of the kernels keeping the rules
declare -A want=(
	[write_input]="2.0 4.0 6.0 8.0 10.0 12.0 14.0 16.0"
	[past_dst]="1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0"
	[past_zeros]="3.0 3.0 3.0 3.0 3.0 3.0 3.0 3.0"
	[past_input]="1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0"
)
rule2="a kernel writes only into its output and its own allocations"
declare -A says=(
	[write_input]="q7-run: error: write_input: the kernel wrote into its input argument 1 (x), at byte offset 6; a kernel never changes its inputs"
	[past_dst]="q7-run: error: past_dst: the kernel wrote past the end of the destination (get_dst_tensor(): 32 bytes), at byte offset 32; $rule2"
	[past_zeros]="q7-run: error: past_zeros: the kernel wrote past the end of a heap allocation (32 bytes), at byte offset 32; $rule2"
	[past_input]="q7-run: error: past_input: the kernel wrote past the end of its input argument 1 (x), at byte offset 32 (it has 32 bytes); $rule2"
)
n=0
for mode in "${modes[@]}"; do
	for op in write_input past_dst past_zeros past_input; do
		rm -f y.npy
		# shellcheck disable=SC2086 # the mode is words
		"$q7run" $mode libs.so $op x.npy 0 -o y.npy 2> err || fail "$mode $op 0: $(cat err)"
		got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
		[ "$got" = "${want[$op]}" ] || fail "$mode $op 0: gave $got"
		rm -f y.npy
		# shellcheck disable=SC2086
		"$q7run" $mode libs.so $op x.npy 16 -o y.npy 2> err
		rc=$?
		line=${says[$op]}
		# A write into an input's read-only copy faults at the byte
		# written (4: x[1]); the compare names the first byte that
		# changed (6, on the emulated core).
		if [ "$op" = write_input ] && [ "$target" = host ]; then
			line=${line/byte offset 6/byte offset 4}
		fi
		[ "$rc" = 1 ] || fail "$mode $op 16: status $rc: $(cat err)"
		grep -qF -- "$line" err || fail "$mode $op 16: no '$line' in: $(cat err)"
		[ "$(wc -l < err)" = 1 ] || fail "$mode $op 16: more than one line: $(cat err)"
		[ ! -e y.npy ] || fail "$mode $op 16: an output file was written"
		cmp -s x.npy x0.npy || fail "$mode $op 16: the input file changed"
		n=$((n + 1))
	done
done

# The matrix of docs/runtime.md's table: writes far from any tensor, in
# every mode (--sanitize: the library built with the sanitizers), each
# named with its region and offset; the input file unchanged, no output.
fars=(
	"far_dst 1100|the kernel wrote past the end of the destination (get_dst_tensor(): 32 bytes), at byte offset 4432; $rule2"
	"far_dst 64|the kernel wrote past the end of the destination (get_dst_tensor(): 32 bytes), at byte offset 288; $rule2"
	"far_dst -1|the kernel wrote before the start of the destination (get_dst_tensor(): 32 bytes), at byte offset -4; $rule2"
	"far_input 1100|the kernel wrote past the end of its input argument 1 (x), at byte offset 4432 (it has 32 bytes); $rule2"
	"far_zeros 1100|the kernel wrote past the end of a heap allocation (32 bytes), at byte offset 4432; $rule2"
	"far_zeros 64|the kernel wrote past the end of a heap allocation (32 bytes), at byte offset 288; $rule2"
)
lib=libs.so
if [ "$target" = host ]; then
	# out of the emulated core's reach (docs/runtime.md)
	fars+=("far_dst 100000|the kernel wrote past the end of the destination (get_dst_tensor(): 32 bytes), at byte offset 400032; $rule2")
	san=("-fsanitize=address,undefined" -fno-omit-frame-pointer)
	"$q7cc" $tc "${san[@]}" -c "$here/kernels/safety.cpp" -o san.o || fail "compile sanitized"
	"$q7cc" $tc "${san[@]}" -Wno-q7-stack -shared san.o -o libsan.so || fail "link libsan.so"
	fmodes=("" "--in-process" "--sanitize")
else
	fmodes=("--target=emulated")
fi
for mode in "${fmodes[@]}"; do
	[ "$mode" = --sanitize ] && lib=libsan.so || lib=libs.so
	for row in "${fars[@]}"; do
		call=${row%%|*} line="${call%% *}: ${row#*|}"
		rm -f y.npy
		# shellcheck disable=SC2086 # the mode and the call are words
		"$q7run" $mode --out-shape=8 $lib ${call%% *} x.npy ${call#* } -o y.npy 2> err
		rc=$?
		[ "$rc" = 1 ] || fail "$mode $call: status $rc: $(cat err)"
		grep -qF -- "q7-run: error: $line" err || fail "$mode $call: no '$line' in: $(cat err)"
		[ ! -e y.npy ] || fail "$mode $call: an output file was written"
		cmp -s x.npy x0.npy || fail "$mode $call: the input file changed"
		n=$((n + 1))
	done
done
# Past the emulated core's 64 KiB stack without touching its last bytes:
# a 96 KiB local array, recursion of about 760 KB (the region below the
# stack is painted and checked, docs/emulated.md).
if [ "$target" = emulated ]; then
	for call in "recurse -1" "recurse 1400"; do
		# shellcheck disable=SC2086
		"$q7run" --target=emulated --out-shape=8 libs.so ${call%% *} x.npy ${call#* } -o y.npy 2> err && fail "$call: ran"
		grep -qF "the kernel overflowed the core's 64 KiB stack" err || fail "$call: $(cat err)"
		n=$((n + 1))
	done
	# A zero divisor, worded as the host words SIGFPE, in the function
	# the image's symbols name.
	"$q7cc" $tc -c "$here/kernels/divzero.cpp" -o div.o || fail "compile divzero.cpp"
	"$q7cc" $tc -shared div.o -o libdiv.so || fail "link libdiv.so"
	"$q7run" --target=emulated libdiv.so divide_by xi.npy 0 -o y.npy 2> err && fail "divide_by 0: ran"
	grep -Eq "the kernel crashed: integer division by zero in (__u?divsi3|q7sf_u?divsi3_slow)\+0x" err ||
		fail "divide_by 0: $(cat err)"
	"$q7run" --target=emulated libdiv.so divide_by xi.npy 2 -o y.npy 2> err || fail "divide_by 2: $(cat err)"
	# Built with -g: the source line too (the image's DWARF line table,
	# through libdw), of the division's caller, and of a wild store.
	"$q7cc" $tc -g -c "$here/kernels/divzero.cpp" -o divg.o || fail "compile divzero.cpp -g"
	"$q7cc" $tc -g -shared divg.o -o libdivg.so 2> /dev/null || fail "link libdivg.so"
	src="$here/kernels/divzero.cpp"
	div_line=$(grep -n 'in\[i\] / d;' "$src" | cut -d: -f1)
	store_line=$(grep -n '= 1;' "$src" | cut -d: -f1)
	"$q7run" --target=emulated libdivg.so divide_by xi.npy 0 -o y.npy 2> err && fail "-g divide_by 0: ran"
	grep -Eq "integer division by zero in [_a-z0-9]+\+0x[0-9a-f]+, called from divide_by\+0x[0-9a-f]+ at [^ ]*/divzero.cpp:$div_line, at pc" err ||
		fail "-g divide_by 0: no divzero.cpp:$div_line in: $(cat err)"
	"$q7run" --target=emulated libdivg.so store_to xi.npy 0 -o y.npy 2> err && fail "-g store_to 0: ran"
	grep -Eq "the kernel crashed: invalid memory access in store_to\+0x[0-9a-f]+ at [^ ]*/divzero.cpp:$store_line, at pc .*, address 0x00000000" err ||
		fail "-g store_to 0: no divzero.cpp:$store_line in: $(cat err)"
	grep -q 'divzero.cpp' <("$q7run" --target=emulated libdiv.so store_to xi.npy 0 -o y.npy 2>&1) &&
		fail "store_to 0 without -g: a line"
	# One store into the boot block (its result_fd, 0x6000000c, made 1):
	# the kernel's error, not the boot program's record on the kernel's
	# stdout and a time-out of 60 s.
	"$q7run" --target=emulated libdiv.so store_to xi.npy $((0x6000000c)) -o y.npy > out 2> err &&
		fail "store_to the boot block: ran"
	grep -qE "^q7-run: error: store_to: libdiv(\.packed)?\.so: the boot program stopped: the kernel wrote into the boot block at 0x60000000" err ||
		fail "store_to the boot block: $(cat err)"
	[ ! -s out ] || fail "store_to the boot block: stdout has $(wc -c < out) bytes"
	# new T[n] links and works on the device
	"$q7run" --target=emulated libdiv.so new_array xi.npy -o y.npy 2> err || fail "new_array: $(cat err)"
	got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
	[ "$got" = "9 5 3 2" ] || fail "new_array: gave $got"
fi
# new[] and delete[] on the heap arena on every target (on the host the
# runtime's, hidden in the kernel library, which exports none): one
# element past a new[] block and a second delete[] of it are named; under
# --sanitize the sanitizer's own operator new catches both.
"$q7cc" $tc -c "$here/kernels/divzero.cpp" -o new.o || fail "compile divzero.cpp"
"$q7cc" $tc -shared new.o -o libnew.so || fail "link libnew.so"
if [ "$target" = host ]; then
	! nm -D --defined-only libnew.so | grep -E ' _Z(n[wa]|d[la])' || fail "libnew.so exports new or delete"
	"$q7cc" $tc "${san[@]}" -c "$here/kernels/divzero.cpp" -o newsan.o || fail "compile sanitized"
	"$q7cc" $tc "${san[@]}" -shared newsan.o -o libnewsan.so || fail "link libnewsan.so"
fi
news=("1|the kernel wrote past the end of a heap allocation (16 bytes), at byte offset 16; $rule2"
      "2|operator delete[]: the pointer is not a block of the heap arena in use (deleted twice, or not from new[])"
      "3|operator delete[]: the pointer is not a block of the heap arena in use (deleted twice, or not from new[])"
      "4|operator delete: the pointer is not a block of the heap arena in use (deleted twice, or not from new)")
for mode in "${fmodes[@]}"; do
	[ "$mode" = --sanitize ] && lib=libnewsan.so || lib=libnew.so
	# shellcheck disable=SC2086 # the mode is words
	"$q7run" $mode $lib new_misuse xi.npy 0 -o y.npy 2> err || fail "$mode new_misuse 0: $(cat err)"
	got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
	[ "$got" = "9 5 3 2" ] || fail "$mode new_misuse 0: gave $got"
	for row in "${news[@]}"; do
		line="new_misuse: ${row#*|}"
		[ "$mode" = --sanitize ] && line="new_misuse: a sanitizer stopped the kernel"
		# shellcheck disable=SC2086
		"$q7run" $mode $lib new_misuse xi.npy "${row%%|*}" -o y.npy 2> err && fail "$mode new_misuse ${row%%|*}: ran"
		grep -qF -- "q7-run: error: $line" err || fail "$mode new_misuse ${row%%|*}: no '$line' in: $(cat err)"
		n=$((n + 1))
	done
done
# A fresh output starts as 0xff bytes (a float's quiet NaN) everywhere.
"$q7run" ${fmodes[0]} --out-shape=8 libs.so read_dst x.npy -1 -o y.npy 2> err || fail "read_dst: $(cat err)"
got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
[ "$got" = "nan nan nan nan nan nan nan nan" ] || fail "read_dst: gave $got"
# --check-uninit: the op twice, the fresh output filled with 0xff then
# 0x00 bytes; element 5 read before written is named (flat and by index),
# in every mode; a kernel that writes before it reads (k = 8: no element)
# passes.
ub="the kernel read its output before writing it: element 5 [1, 1] of the destination (byte offset 20) came out different when the fresh output started as 0xff bytes and as 0x00 bytes"
for mode in "${fmodes[@]}"; do
	[ "$mode" = --sanitize ] && lib=libsan.so || lib=libs.so
	rm -f y.npy
	# shellcheck disable=SC2086 # the mode is words
	"$q7run" $mode --check-uninit --out-shape=2,4 $lib read_dst x.npy 5 -o y.npy 2> err &&
		fail "$mode --check-uninit read_dst 5: passed"
	grep -qF -- "q7-run: error: read_dst: $ub" err || fail "$mode --check-uninit: $(cat err)"
	[ ! -e y.npy ] || fail "$mode --check-uninit read_dst 5: an output file was written"
	# shellcheck disable=SC2086
	"$q7run" $mode --check-uninit --out-shape=8 $lib read_dst x.npy 8 -o y.npy 2> err ||
		fail "$mode --check-uninit read_dst 8: $(cat err)"
	got=$(npy "print(*npytool.read(sys.argv[1])[2])" y.npy)
	[ "$got" = "1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0" ] || fail "$mode --check-uninit read_dst 8: gave $got"
	n=$((n + 2))
done
[ "$n" -ge 12 ] || fail "only $n cases ran"
echo "ok: $n cases"
