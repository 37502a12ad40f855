#!/bin/sh
# e2e.kernel_stack: the kernel's stack at the build (docs/driver.md, "The
# kernel's stack at the build"). On the gnu profile a kernel with a 96 KiB
# local array, one whose helper in another file has an 80 KiB frame and
# one that takes more than its Q7_KERNEL_STACK are errors at the link,
# naming the kernel's line, the bytes and the core's (or its declared)
# stack; -Wno-error=q7-stack lowers them. Recursion and a variable-length
# array are warnings naming the function. The host profile says the same
# as warnings and links. A normal kernel builds with no new word, and no
# GCC stack file is left anywhere in the build folder. A damaged or
# hand-made figures section fails the link naming the object.
#   kernel_stack.sh Q7CC WORKDIR SRCDIR
set -eu
q7cc=$1
src=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$2" && mkdir -p "$2" && cd "$2"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true
cp "$src"/tests/e2e/stack/*.cpp "$src"/examples/ops/relu.cpp .
core='; the core has 65536 \[-Wq7-stack\]$'
for profile in gnu host; do
	if [ $profile = gnu ]; then sev=error; host=; else sev=warning; host=' \(measured on the host: the device.s frames differ\)'; fi
	# The 96 KiB array: the kernel's own frame.
	"$q7cc" --q7-toolchain=$profile -shared big.cpp -o libbig.so 2> err && [ $sev = error ] &&
		fail "$profile: big linked"
	grep -qE "^big\.cpp:4:25: $sev: kernel 'big_local' needs at least 9[0-9]{4} bytes of stack; the core has 65536$host \[-Wq7-stack\]$" err ||
		{ cat err; fail "$profile: big's message"; }
	grep -qE "^big\.cpp:4:25: note: the deepest calls: 'at::Tensor big_local\(const at::Tensor&\)' \(9[0-9]{4} bytes\)" err ||
		{ cat err; fail "$profile: big's note"; }
	[ $sev = error ] || [ -e libbig.so ] || fail "$profile: big did not link"
	# The declared stack.
	"$q7cc" --q7-toolchain=$profile -shared budget.cpp -o libbudget.so 2> err && [ $sev = error ] &&
		fail "$profile: budget linked"
	grep -qE "^budget\.cpp:4:37: $sev: kernel 'tight' needs at least 16[0-9]{3} bytes of stack; its declared stack is 8192$host \[-Wq7-stack\]$" err ||
		{ cat err; fail "$profile: budget's message"; }
	# Recursion and a dynamic frame: warnings that name the function; it links.
	"$q7cc" --q7-toolchain=$profile -shared deep.cpp -o libdeep.so 2> err || { cat err; fail "$profile: deep"; }
	grep -qE "^deep\.cpp:11:25: warning: the stack of kernel 'deep_down' has no bound: 'float down\(const float\*, int, volatile char\*\)' \(deep\.cpp:4\) is recursive \[-Wq7-stack\]$" err ||
		{ cat err; fail "$profile: deep's message"; }
	"$q7cc" --q7-toolchain=$profile -shared vla.cpp -o libvla.so 2> err || { cat err; fail "$profile: vla"; }
	grep -qE "^vla\.cpp:4:25: warning: the stack of kernel 'scratch_vla' has no bound: .* has a frame of dynamic size \(a variable-length array or alloca\) \[-Wq7-stack\]$" err ||
		{ cat err; fail "$profile: vla's message"; }
	# A normal kernel: not a word.
	"$q7cc" --q7-toolchain=$profile -shared relu.cpp -o librelu.so 2> err || { cat err; fail "$profile: relu"; }
	[ ! -s err ] || { cat err; fail "$profile: relu said something"; }
done
# Across files, from the objects: the helper's frame is counted (gnu: every
# file is measured; host: only files that use q7cc, so the helper is not).
"$q7cc" --q7-toolchain=gnu -c helper.cpp -o helper.o
"$q7cc" --q7-toolchain=gnu -c calls_helper.cpp -o calls_helper.o
"$q7cc" --q7-toolchain=gnu -shared calls_helper.o helper.o -o libsmooth.so 2> err && fail "smooth linked"
grep -qE "^calls_helper\.cpp:4:25: error: kernel 'smoothed' needs at least 8[0-9]{4} bytes of stack$core" err ||
	{ cat err; fail "smooth's message"; }
grep -qE "note: the deepest calls: 'at::Tensor smoothed\(const at::Tensor&\)' \([0-9]+ bytes\) -> 'float smooth\(const float\*, int64_t\)' \(8[0-9]{4} bytes\)" err ||
	{ cat err; fail "smooth's note"; }
[ ! -e libsmooth.so ] || fail "libsmooth.so written"
# Lowered: a warning, and the library links.
"$q7cc" --q7-toolchain=gnu -Wno-error=q7-stack -shared calls_helper.o helper.o -o libsmooth.so 2> err ||
	{ cat err; fail "-Wno-error=q7-stack"; }
grep -q "warning: kernel 'smoothed' needs at least" err || { cat err; fail "not a warning"; }
"$q7cc" --q7-toolchain=gnu -Wno-q7-stack -shared big.cpp -o libbig.so 2> err || { cat err; fail "-Wno-q7-stack"; }
[ ! -s err ] || { cat err; fail "-Wno-q7-stack said something"; }
# A GCC before 10 has no -fcallgraph-info: its compiles are not measured
# (it says __GNUC__ 9 and refuses the flag), and build as before.
cat > old-g++ <<'SH'
#!/bin/sh
for a; do
	case $a in -fcallgraph-info*) echo "old-g++: error: unrecognized command-line option '$a'" >&2; exit 1;; esac
done
for a; do
	[ "$a" = -dM ] && { c++ "$@" | sed 's/^#define __GNUC__ .*/#define __GNUC__ 9/'; exit; }
done
exec c++ "$@"
SH
chmod +x old-g++
Q7CC_REAL_CXX=$PWD/old-g++ "$q7cc" --q7-toolchain=host -shared big.cpp -o libold.so 2> err ||
	{ cat err; fail "GCC 9: did not build"; }
[ ! -s err ] || { cat err; fail "GCC 9: a message"; }
# A damaged figures section (not text) fails the link naming the object.
printf 'F\tx\000' > bad.bin
xtensa-lx106-elf-objcopy --update-section .q7.stack=bad.bin calls_helper.o bad.o
"$q7cc" --q7-toolchain=gnu -shared bad.o helper.o -o libbad.so 2> err && fail "bad linked"
grep -qx "q7cc: error: bad.o: .q7.stack: damaged section (not text)" err || { cat err; fail "bad: message"; }
# A figure no compile writes (a prebuilt object's hand-made text) fails
# the link naming the object and the line, not the kernel.
printf 'C\ta\tb\nF\tx\t99999999999999999999\ts\tk.cpp:4\tk\n' > huge.bin
xtensa-lx106-elf-objcopy --update-section .q7.stack=huge.bin calls_helper.o huge.o
"$q7cc" --q7-toolchain=gnu -shared huge.o helper.o -o libhuge.so 2> err && fail "huge linked"
grep -qx "q7cc: error: huge.o: .q7.stack: line 2: a frame's bytes are not a number up to 4 GiB" err ||
	{ cat err; fail "huge: message"; }
[ ! -e libhuge.so ] || fail "libhuge.so written"
# GCC's stack files went to q7cc's temporary folder only.
left=$(find . -name '*.su' -o -name '*.ci')
[ -z "$left" ] || fail "stack files left: $left"
echo "kernel_stack: ok"
