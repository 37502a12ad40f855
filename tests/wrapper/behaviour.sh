#!/bin/bash
# The driver as the user sees it: compiler messages and exit statuses pass
# through unchanged, signals, masquerading as xt-clang++, temp files.
#   behaviour.sh Q7CC WORKDIR CASE
# Fake compilers are shell scripts named by Q7CC_REAL_CXX (tests may use
# shell; q7cc itself never does).
set -u
q7cc=$1 work=$2 case=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SAVE_TEMPS || true

fail() { echo "FAIL: $*" >&2; exit 1; }

fake() { # fake NAME BODY: an executable script
	printf '#!/bin/sh\n%s\n' "$2" > "$1"
	chmod +x "$1"
}

# status_and_err RC WANT PATTERN FLAGS...: the status was WANT and ./err
# matches PATTERN ("" wants it empty).
status_and_err() {
	local rc=$1 want=$2 pat=$3
	shift 3
	[ "$rc" = "$want" ] || fail "$*: status $rc, want $want: $(cat err)"
	if [ -z "$pat" ]; then
		[ ! -s err ] || fail "$*: printed $(cat err)"
	else
		grep -qE -- "$pat" err || fail "$*: stderr lacks /$pat/: $(cat err)"
	fi
}

# Runs q7cc's -### line for the same arguments through the shell, so the
# real compiler runs exactly as q7cc would run it.
direct() {
	local line
	line=$("$q7cc" -### "$@" 2>&1 | grep -v '^#') || return 1
	eval "$line"
}

case $case in
compile_error_gnu | compile_error_host)
	profile=${case#compile_error_}
	# A kernel TU, so analysis runs too: its findings must not show.
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor f(const torch::Tensor &x { return x }' > "bad file.cpp"
	"$q7cc" --q7-toolchain="$profile" -c "bad file.cpp" -o bad.o 2> q7.err
	q7rc=$?
	direct --q7-toolchain="$profile" -c "bad file.cpp" -o bad.o 2> cc.err
	ccrc=$?
	[ "$ccrc" -ne 0 ] || fail "the compiler accepted a bad file"
	[ "$q7rc" = "$ccrc" ] || fail "status $q7rc, the compiler's $ccrc"
	cmp -s q7.err cc.err || { diff q7.err cc.err; fail "stderr differs from the compiler's"; }
	[ ! -e bad.o ] || fail "bad.o left behind"
	;;
compile_object_gnu | compile_object_host)
	profile=${case#compile_object_}
	printf '#include <q7/kernel.h>\nint f(int x) { return x + 1; }\n' > "a b.cpp"
	"$q7cc" --q7-toolchain="$profile" -c "a b.cpp" -o "o'ut.o" || fail "compile failed"
	want='Tensilica Xtensa'
	[ "$profile" = host ] && want='REL (Relocatable'
	readelf -h "o'ut.o" | grep -q "$want" || fail "not an object for $profile"
	;;
exit_status)
	fake cc 'echo "to stdout"; echo "to stderr" >&2; exit 3'
	out=$(Q7CC_REAL_CXX=$PWD/cc "$q7cc" --q7-toolchain=gnu -c a.cpp 2> err)
	rc=$?
	[ $rc = 3 ] || fail "status $rc, want 3"
	[ "$out" = "to stdout" ] || fail "stdout '$out'"
	[ "$(cat err)" = "to stderr" ] || fail "stderr '$(cat err)'"
	;;
signal_exit)
	fake cc 'kill -SEGV $$'
	Q7CC_REAL_CXX=$PWD/cc "$q7cc" --q7-toolchain=gnu -c a.cpp 2> err
	rc=$?
	[ $rc = 139 ] || fail "status $rc, want 139 (128+SIGSEGV)"
	grep -q 'killed by signal SIGSEGV' err || fail "no signal report: $(cat err)"
	;;
sigterm_forward)
	# The compiler of a source on a link line runs while q7cc holds a
	# temp directory; SIGTERM to q7cc reaches it and the directory goes.
	fake cc "trap 'echo got-term > \"$PWD/term\"; exit 143' TERM
echo started > \"$PWD/started\"
while :; do sleep 0.05; done"
	mkdir tmp
	TMPDIR=$PWD/tmp Q7CC_REAL_CXX=$PWD/cc "$q7cc" --q7-toolchain=gnu -shared k.cpp -o libk.so &
	pid=$!
	for _ in $(seq 100); do [ -e started ] && break; sleep 0.05; done
	[ -e started ] || fail "the fake compiler did not start"
	ls tmp | grep -q '^q7cc\.' || fail "no temp directory while running"
	kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc = 143 ] || fail "status $rc, want 143 (died by SIGTERM)"
	[ -e term ] || fail "SIGTERM did not reach the compiler"
	[ -z "$(ls tmp)" ] || fail "temp files left: $(ls -R tmp)"
	;;
compile_tmpdir)
	# The compiler's temporaries (GCC's ccXXXXXX.s) go to q7cc's own
	# folder for its tools, so they go with it, and a SIGKILL of q7cc
	# leaves none in $TMPDIR itself (docs/robustness.md).
	fake cc "echo \"\$TMPDIR\" > \"$PWD/seen\"; : > \"\$TMPDIR/ccFAKE.s\"
[ -e \"$PWD/hang\" ] && { : > \"$PWD/started\"; while :; do sleep 0.05; done; }
echo 'cc: error: stop' >&2; exit 1"
	mkdir tmp
	printf 'int f(int x) { return x; }\n' > a.cpp
	TMPDIR=$PWD/tmp Q7CC_REAL_CXX=$PWD/cc "$q7cc" --q7-toolchain=gnu -c a.cpp -o a.o 2> err
	[ $? = 1 ] || fail "status: $(cat err)"
	case $(cat seen) in "$PWD"/tmp/q7cc.*/tools) ;; *) fail "the compiler's TMPDIR: $(cat seen)" ;; esac
	[ -z "$(ls -A tmp)" ] || fail "left in TMPDIR: $(ls -AR tmp)"
	: > hang
	TMPDIR=$PWD/tmp Q7CC_REAL_CXX=$PWD/cc "$q7cc" --q7-toolchain=gnu -c a.cpp -o a.o 2> err &
	pid=$!
	for _ in $(seq 200); do [ -e started ] && break; sleep 0.05; done
	[ -e started ] || fail "the fake compiler did not start"
	kill -KILL $pid
	wait $pid 2> /dev/null
	for _ in $(seq 100); do pgrep -f "$PWD/cc" > /dev/null || break; sleep 0.05; done
	! pgrep -f "$PWD/cc" > /dev/null || fail "the compiler outlived q7cc"
	[ -z "$(ls tmp | grep -v '^q7cc\.')" ] || fail "left in TMPDIR itself: $(ls -A tmp)"
	;;
masquerade)
	mkdir bin real
	ln -s "$q7cc" bin/xt-clang++
	fake real/xt-clang++ 'echo "REAL xt-clang++ $* LM=$LM_LICENSE_FILE"'
	out=$(unset LM_LICENSE_FILE; PATH=$PWD/bin:$PWD/real:$PATH xt-clang++ --version) ||
		fail "status $?"
	lic=/opt/aws/neuron/gpsimd/tools/licenses/amzn_vq7_us_582883.out
	# The real compiler's line first (CMake reads it), then q7cc's own.
	[ "$(echo "$out" | head -1)" = "REAL xt-clang++ --version LM=$lic" ] || fail "ran '$out'"
	echo "$out" | sed -n 2p | grep -q '^q7cc .* (profile xt)' || fail "no q7cc line: '$out'"
	out=$(PATH=$PWD/bin:$PWD/real:$PATH LM_LICENSE_FILE=/my.lic xt-clang++ -dumpversion)
	[ "$out" = "REAL xt-clang++ -dumpversion LM=/my.lic" ] || fail "license override: '$out'"
	# The vendor's compile command, found on PATH and never q7cc itself.
	out=$(PATH=$PWD/bin:$PWD/real:$PATH NEURON_CUSTOM_OP=/nc xt-clang++ -### -c r.cpp 2>&1)
	case $out in "$PWD/real/xt-clang++ -g -std=c++14 "*) ;; *) fail "-### gave '$out'" ;; esac
	;;
recursion_guard)
	mkdir bin real
	ln -s "$q7cc" bin/xt-clang++
	# A "real" compiler that calls xt-clang++ again: back into q7cc.
	fake real/xt-clang++ "PATH=$PWD/bin:\$PATH exec xt-clang++ \"\$@\""
	PATH=$PWD/bin:$PWD/real:$PATH xt-clang++ --version 2> err
	rc=$?
	[ $rc = 69 ] || fail "status $rc, want 69"
	grep -q 'Q7CC_ACTIVE' err || fail "no guard message: $(cat err)"
	;;
save_temps)
	mkdir tmp
	printf '#include <q7/kernel.h>\nint f(int x) { return x; }\n' > k.cpp
	fake cc 'while [ $# -gt 1 ]; do [ "$1" = -o ] && : > "$2"; shift; done'
	TMPDIR=$PWD/tmp Q7CC_SAVE_TEMPS=1 Q7CC_REAL_CXX=$PWD/cc \
		"$q7cc" --q7-toolchain=gnu -shared k.cpp -o libk.so 2> err
	grep -q 'temporary files kept in' err || fail "no note: $(cat err)"
	ls tmp/q7cc.*/1-k.cpp.o > /dev/null || fail "temporaries not kept"
	;;
no_kernels)
	# A shared library without kernels is the compiler's own link, as
	# g++ makes it: no message, no twins (an earlier kernel build's go),
	# the symbols exported; libtool's `$CXX -shared -v` probe shows the
	# compiler's own link line.
	printf 'int f(int x) { return x; }\n' > plain.cpp
	"$q7cc" --q7-toolchain=host -c plain.cpp -o plain.o || fail "compile"
	: > libp.packed.so
	"$q7cc" --q7-toolchain=host -shared plain.o -o libp.so 2> err
	status_and_err $? 0 "" -shared plain.o
	nm -D --defined-only libp.so | grep -q ' T _Z1fi$' || fail "libp.so does not export f"
	[ ! -e libp.packed.so ] && [ ! -e libp.stripped.so ] || fail "twins left beside libp.so"
	"$q7cc" --q7-toolchain=host -shared -v plain.o 2> err
	status_and_err $? 0 'collect2 .*-shared .*crtbeginS\.o .*plain\.o -lstdc\+\+' -shared -v
	[ -f a.out ] || fail "no a.out"
	;;
no_kernels_gnu)
	# On a device profile the same link warns (-Wq7-no-kernels), which
	# -Werror makes an error (which removes the library the link before
	# wrote, as any failed link) and -Wno-q7-no-kernels silences.
	printf 'int f(int x) { return x; }\n' > plain.cpp
	"$q7cc" --q7-toolchain=gnu -c plain.cpp -o plain.o || fail "compile"
	"$q7cc" --q7-toolchain=gnu -shared plain.o -o libp.so 2> err
	status_and_err $? 0 '^libp\.so: warning: no kernels in this shared-library link: .*\[-Wq7-no-kernels\]$' -shared
	[ "$(wc -l < err)" = 1 ] || fail "more than the warning: $(cat err)"
	xtensa-lx106-elf-nm -D --defined-only libp.so | grep -q ' T _Z1fi$' || fail "libp.so does not export f"
	# Not a custom-op image: q7-run says so before the core jumps to 0.
	"$q7cc" --q7-run --target=emulated --list libp.so 2> err
	status_and_err $? 1 'libp\.so: no entry point: not a custom-op image' q7-run --list
	"$q7cc" --q7-toolchain=gnu -Werror -shared plain.o -o libp.so 2> err
	status_and_err $? 1 '^libp\.so: error: no kernels .*\[-Werror=q7-no-kernels\]$' -Werror -shared
	[ ! -e libp.so ] || fail "libp.so left under -Werror (a failed link removes it)"
	"$q7cc" --q7-toolchain=gnu -Werror -Wno-q7-no-kernels -shared plain.o -o libp.so 2> err
	status_and_err $? 0 "" -Wno-q7-no-kernels -shared
	;;
failed_link)
	# The link step fails: no image and no manifest may remain.
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
int undefined_elsewhere(int);
Q7_KERNEL torch::Tensor k(const torch::Tensor &x, int n) { undefined_elsewhere(n); return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile"
	echo stale > libk.so # a manifest from an earlier build
	"$q7cc" --q7-toolchain=host --q7-multicore -shared k.o -Wl,--no-undefined \
		-o libk.so 2> err && fail "link succeeded"
	ls libk*.so 2> /dev/null && fail "outputs left: $(ls libk*)"
	grep -q undefined_elsewhere err || fail "linker message lost: $(cat err)"
	;;
progress)
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile"
	Q7CC_JOBS=3 "$q7cc" --q7-toolchain=host --q7-multicore -v -shared k.o -o libk.so \
		--q7-emit-wrapper="w r.cpp" 2> err || { cat err; fail "link"; }
	grep -q 'get_func_cnt' "w r.cpp" || fail "--q7-emit-wrapper wrote no wrapper"
	# Each progress line is one write of q7cc's; the links' own -v output
	# runs beside it, and may have written part of a line just before.
	for i in 0 1 2 3 4 5 6 7; do
		grep -q "\[$((i + 1))/8\] link libk_cpu$i.so\$" err || fail "no progress line for cpu$i"
	done
	grep -q '^# q7cc: codegen ' err || fail "no codegen step line"
	;;
progress_tty)
	# Without -v: on a terminal (script(1) gives q7cc one) one line
	# written over, "\r...\x1b[K\r", never a newline; with stderr a file,
	# nothing. Q7CC_PROGRESS_AFTER=0: from the start (a host link is
	# quicker than the 2 s it waits for by default).
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile"
	Q7CC_PROGRESS_AFTER=0 TERM=xterm script -q -e -c \
		"'$q7cc' --q7-toolchain=host --q7-multicore -shared k.o -o libk.so" tty.log \
		> /dev/null || { cat tty.log; fail "link on a terminal"; }
	cr=$(printf '\r') esc=$(printf '\033')
	for i in 0 1 2 3 4 5 6 7; do
		grep -q "${cr}q7cc: linking libk.so: \[$((i + 1))/8\] link libk_cpu$i.so ([0-9]* s)${esc}\[K${cr}" tty.log ||
			fail "no progress line for cpu$i: $(cat -v tty.log)"
	done
	# One line: the typescript's own first and last lines, nothing between.
	[ "$(grep -c '' tty.log)" -le 3 ] || fail "the progress line scrolled: $(cat -v tty.log)"
	rm -f libk*.so
	Q7CC_PROGRESS_AFTER=0 TERM=xterm "$q7cc" --q7-toolchain=host --q7-multicore -shared k.o \
		-o libk.so 2> err || { cat err; fail "link"; }
	[ ! -s err ] || fail "stderr a file got: $(cat -v err)"
	;;
lazy_libclang)
	# libclang loads only where analysis runs: a kernel TU's compile.
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	printf 'int plain(int x) { return x; }\n' > plain.cpp
	loads() { LD_DEBUG=libs "$q7cc" --q7-toolchain=host "$@" 2>&1 >/dev/null | grep -c 'find library=libclang'; }
	# In-process analysis (no resident analysis server) for the control.
	[ "$(Q7CC_ANALYSIS_SERVER=0 loads -c k.cpp -o k.o)" -ge 1 ] ||
		fail "no libclang for a kernel TU (the check is blind)"
	[ "$(loads -c plain.cpp -o plain.o)" = 0 ] || fail "libclang loaded for a TU without kernels"
	[ "$(loads -shared k.o -o libk.so)" = 0 ] || fail "libclang loaded for a link"
	[ "$(loads --version)" = 0 ] || fail "libclang loaded for --version"
	[ "$(loads -### -c k.cpp)" = 0 ] || fail "libclang loaded for -###"
	[ "$(loads -E plain.cpp)" = 0 ] || fail "libclang loaded for -E"
	# Nor libstdc++, whose demangler only a profile's names need: linked,
	# it cost every q7cc start about 0.5 ms (memmap/elf_syms.c).
	[ "$(LD_DEBUG=libs "$q7cc" --q7-toolchain=host -c plain.cpp -o plain.o 2>&1 >/dev/null |
		grep -c 'find library=libstdc++')" = 0 ] || fail "libstdc++ loaded for a compile"
	# The first compile starts the server and queues its TU there rather
	# than loading libclang beside it: its findings still show.
	mkdir -m 700 run1 run2
	[ "$(XDG_RUNTIME_DIR=$PWD/run1 Q7CC_ANALYSIS_SERVER_IDLE=1 loads -c k.cpp -o k.o)" = 0 ] ||
		fail "the first compile loaded libclang beside the server it started"
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor bad(const torch::Tensor &x, float *p) { return x; }' > bad.cpp
	XDG_RUNTIME_DIR=$PWD/run2 Q7CC_ANALYSIS_SERVER_IDLE=1 "$q7cc" --q7-toolchain=host -c bad.cpp \
		-o bad.o 2> err && fail "a cold compile passed a kernel its runtime cannot call"
	grep -q 'q7-unsupported-param' err || fail "no finding from the cold compile: $(cat err)"
	;;
lint_error)
	# A kernel the runtime cannot call: the compile itself succeeds, q7cc's
	# lint fails it, in the compiler's format, and removes the object.
	cat > bad.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor bad(const torch::Tensor &x, float *p) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c bad.cpp -o bad.o 2> err
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want 1"
	grep -q '^bad.cpp:3:[0-9]*: error: .*\[-Wq7-unsupported-param\]$' err || fail "message: $(cat err)"
	[ ! -e bad.o ] || fail "bad.o left behind"
	"$q7cc" --q7-toolchain=host --q7-lint --q7-format=json bad.cpp > out.json
	rc=$?
	[ $rc = 1 ] || fail "--q7-lint status $rc, want 1"
	grep -q '"rule": "q7-unsupported-param"' out.json || fail "json: $(cat out.json)"
	;;
sysinfo_cache)
	# The compiler's include dirs and macros are cached per compiler; an
	# unwritable cache costs only the probe.
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	XDG_CACHE_HOME=$PWD/cache "$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile"
	ls cache/q7cc/sysinfo-* > /dev/null 2>&1 || fail "nothing cached"
	grep -q '^I /' cache/q7cc/sysinfo-* || fail "no include directories cached"
	grep -q '^D __x86_64__=1$\|^D __aarch64__=1$' cache/q7cc/sysinfo-* || fail "no target macros cached"
	: > notadir # under a regular file nothing can be created, even by root
	XDG_CACHE_HOME=$PWD/notadir/cache "$q7cc" --q7-toolchain=host -c k.cpp -o k2.o 2> err ||
		fail "compile with an unwritable cache: $(cat err)"
	[ ! -s err ] || fail "noise with an unwritable cache: $(cat err)"
	[ "$("$q7cc" --q7-print-schema k2.o)" = "k(Tensor x) -> Tensor" ] || fail "records"
	;;
memory_map_input)
	# q7cc --q7-memory-map on what is not an image (docs/robustness.md,
	# "The pictures' readers"): its messages are q7cc's.
	"$q7cc" --q7-memory-map missing.so 2> err
	status_and_err $? 1 '^q7cc: error: missing.so: '
	# Special files are refused before they are read: /dev/zero read
	# until memory ran out, a FIFO hung, named directly or by a manifest.
	mkfifo fifo.so
	printf 'q7cc-multicore 1\n/dev/zero\n' > zero_mc.so
	printf 'q7cc-multicore 1\nfifo.so\n' > fifo_mc.so
	for f in /dev/zero fifo.so zero_mc.so fifo_mc.so; do
		(ulimit -v 1000000; timeout 20 "$q7cc" --q7-memory-map "$f") 2> err
		status_and_err $? 1 "^q7cc: error: [^ ]*(zero|fifo.so): cannot read: not a regular file" "$f"
	done
	q7run=$(dirname "$q7cc")/q7-run
	for t in host emulated; do
		timeout 20 "$q7run" --target=$t --list fifo_mc.so 2> err
		status_and_err $? 1 "^q7-run: error: ./fifo.so: cannot read: not a regular file" $t
	done
	# A 2 GB file that is not ELF is refused without being read whole
	# (under a 1 GB address space limit: it was read into memory first).
	truncate -s 2G big.so
	(ulimit -v 1000000; timeout 20 "$q7cc" --q7-memory-map big.so) 2> err
	status_and_err $? 1 '^q7cc: error: big.so: not an Xtensa image' big.so
	# A manifest larger than any q7cc writes.
	{ echo 'q7cc-multicore 1'; head -c 70000 /dev/zero | tr '\0' x; echo; } > long_mc.so
	"$q7cc" --q7-memory-map long_mc.so 2> err
	status_and_err $? 1 'long_mc.so: damaged multicore manifest \(over 65536 bytes\)' long_mc.so
	rm -f big.so
	;;
run_list_names)
	# q7-run --list shows a library's op names as every other string from
	# a file: an ESC planted in the op list reaches no terminal.
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor kzzzzk(const torch::Tensor &x) { return x; }' > k.cpp
	"$q7cc" --q7-toolchain=host -fPIC -c k.cpp -o k.o || fail "compile"
	"$q7cc" --q7-toolchain=host -shared -o libk.so k.o || fail "link"
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d.replace(b"k::kzzzzk(Tensor", b"k::k\x1b[2Jk(Tensor"))' libk.so libe.so
	q7run=$(dirname "$q7cc")/q7-run
	"$q7run" --target=host --list libe.so > out || fail "--list: $(cat out)"
	! LC_ALL=C grep -q "$(printf '\033')" out || fail "an ESC reached the terminal: $(od -c out)"
	grep -qF 'k::k\x1b[2Jk(Tensor x) -> Tensor' out || fail "the name: $(cat out)"
	;;
run_list_not_kernel)
	# A library that is not a kernel library is refused from its ELF,
	# before dlopen runs its constructors (docs/robustness.md).
	printf '#include <stdio.h>\n%s\nint x;\n' \
		'__attribute__((constructor)) static void ran(void) { fclose(fopen("ran", "w")); }' > evil.c
	cc -shared -fPIC -o evil.so evil.c || fail "cc"
	q7run=$(dirname "$q7cc")/q7-run
	for mode in "" --in-process --sanitize; do
		# shellcheck disable=SC2086 # no mode is no word
		"$q7run" --target=host $mode --list evil.so 2> err
		status_and_err $? 1 '^q7-run: error: evil.so: no kernels: not linked by q7cc with a kernel \(it defines no q7_entry\)' $mode
		[ ! -e ran ] || fail "$mode: the library's constructor ran"
	done
	;;
run_output_folder)
	# q7-run refuses a folder named as -o or --profile before any work
	# (docs/robustness.md): the call ran and -o was written first.
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }' > k.cpp
	"$q7cc" --q7-toolchain=gnu -O2 -c k.cpp -o k.o || fail "compile"
	"$q7cc" --q7-toolchain=gnu -shared -o libk.so k.o || fail "link"
	q7run=$(dirname "$q7cc")/q7-run
	python3 -c 'import struct, sys
h = b"{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (4,), }"
h += b" " * (63 - 10 - len(h)) + b"\n"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + struct.pack("<4f", 1, 2, 3, 4))' > x.npy
	mkdir d.svg out.npy
	"$q7run" --target=emulated -v --profile=d.svg libk.so k x.npy -o y.npy 2> err
	status_and_err $? 74 '^q7-run: error: d.svg: cannot create: Is a directory$' --profile
	! grep -q 'ok on' err || fail "the call ran: $(cat err)"
	[ ! -e y.npy ] || fail "-o was written before the profile's folder was refused"
	"$q7run" --target=emulated -v libk.so k x.npy -o out.npy 2> err
	status_and_err $? 74 '^q7-run: error: out.npy: cannot create: Is a directory$' -o
	"$q7run" --target=emulated --profile=p.folded libk.so k x.npy -o y.npy 2> err ||
		fail "the same call into files: $(cat err)"
	[ -s y.npy ] && [ -s p.folded ] || fail "no outputs"
	;;
json_hostile)
	# Under GCC's -fdiagnostics-format=json only the compiler's own array
	# is merged with q7cc's: an assembler line a source controls (.error
	# with a newline) that looks like one stays text; and q7cc's JSON is
	# valid UTF-8 with a file name that is not.
	cat > forged.cpp <<'CPP'
int f(int x) { int y; return x; }
asm(".error \"boom\\n[{\\\"kind\\\": \\\"error\\\", \\\"message\\\": \\\"forged\\\"}]\"");
CPP
	cat > brackets.cpp <<'CPP'
int f(int x) { int y; return x; }
asm(".error \"boom\\n[x]\"");
CPP
	for src in forged.cpp brackets.cpp; do
		"$q7cc" --q7-toolchain=gnu -Wall -fdiagnostics-format=json -c $src -o a.o 2> err
		[ $? = 1 ] || fail "$src: the assembler's error did not fail the compile: $(cat err)"
		python3 -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
merged = json.loads(lines[-1])
assert [d.get("message") for d in merged] == ["unused variable '"'"'y'"'"'"], merged
assert any("Assembler messages:" in l for l in lines[:-1]), lines' err ||
			fail "$src: the merged array: $(cat err)"
	done
	name=$(printf 'k\377.cpp')
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\nQ7_KERNEL int bad(int x) { return x; }\n' > "$name"
	"$q7cc" --q7-lint --q7-format=json "$name" > out.json
	python3 -c 'import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert d["diagnostics"][0]["file"] == "k\\xff.cpp", d' out.json || fail "--q7-lint json: $(cat out.json)"
	;;
kernel_cap)
	# 11 kernels: over the device runtime's 10. On gnu an error that
	# -Wno-error=, -Wno- and -w lower; the library then links
	# and holds all 11.
	for i in 0 1 2 3 4 5 6 7 8 9 10; do
		echo "Q7_KERNEL torch::Tensor k$i(const torch::Tensor &x) { return x; }"
	done > body
	{ printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n'; cat body; } > k.cpp
	"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o || fail "compile"
	cap() { # cap STATUS STDERR-PATTERN FLAGS...
		local want=$1 pat=$2
		shift 2
		rm -f libk.so
		"$q7cc" --q7-toolchain=gnu -shared -o libk.so k.o "$@" 2> err
		status_and_err $? "$want" "$pat" "$@"
		if [ "$want" = 0 ]; then
			[ "$(xtensa-lx106-elf-nm -D libk.so | grep -c ' T _Z[0-9]*k[0-9]*_stack_switchv$')" = 11 ] ||
				fail "$*: the library lacks kernels"
		else
			[ ! -e libk.so ] || fail "$*: libk.so left behind"
		fi
	}
	cap 1 'k.cpp:12:[0-9]*: error: the library has 11 kernels.*\[-Wq7-too-many-kernels\]$'
	cap 0 'k.cpp:12:[0-9]*: warning: the library has 11 kernels.*\[-Wq7-too-many-kernels\]$' \
		-Wno-error=q7-too-many-kernels
	cap 0 '' -Wno-q7-too-many-kernels
	cap 0 '' -w
	cap 1 'error: the library has 11' -Wno-q7-too-many-kernels -Wq7-too-many-kernels
	cap 0 'warning: the library has 11' -Werror -Wno-error=q7-too-many-kernels
	;;
wrapper_cache)
	# The wrapper's object comes from q7cc's cache when its text, its
	# compile command and the headers it read are unchanged: a
	# kernel-body edit relinks without compiling it, and the images are
	# the ones a compile gives. Anything else compiles it again.
	export XDG_CACHE_HOME=$PWD/cache
	body() { # body N: a kernel file whose body adds N
		printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
			"Q7_KERNEL torch::Tensor add(const torch::Tensor &x, float a) { (void)(a + $1); return x; }" > k.cpp
		"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o || fail "compile"
	}
	inc=$(dirname "$q7cc")/../include/q7cc
	mkdir -p inc/neuron
	cp "$inc/neuron/wrapper_api.h" inc/neuron/
	relink() { # relink HIT|MISS DIR FLAGS...: links DIR/libops.so (the
		# library's name is in the wrapper's text)
		local want=$1 out=$2/libops.so
		mkdir -p "$2"
		shift 2
		"$q7cc" --q7-toolchain=gnu -shared -v -Iinc -o "$out" k.o "$@" 2> err ||
			{ cat err; fail "link $out"; }
		if grep -q 'wrapper.o from the cache' err; then
			[ "$want" = HIT ] || fail "$out: cached where it must compile: $(cat err)"
			! grep -q ' -c -o [^ ]*/wrapper.o ' err || fail "$out: compiled and cached"
		else
			[ "$want" = MISS ] || fail "$out: compiled where the cache holds it: $(cat err)"
		fi
	}
	body 1
	relink MISS l1
	entry=$(ls cache/q7cc/wrapper/*.o) || fail "no cache entry"
	[ "$(echo "$entry" | wc -l)" = 1 ] || fail "entries: $entry"
	body 2
	relink HIT l2
	Q7CC_WRAPPER_CACHE=0 relink MISS l2-compiled
	cmp l2/libops.so l2-compiled/libops.so || fail "a cached wrapper.o gives another image"
	relink MISS l3 -DOTHER_FLAGS
	relink HIT l3b -DOTHER_FLAGS
	echo '/* edited */' >> inc/neuron/wrapper_api.h
	relink MISS l4
	relink HIT l4b
	# A damaged entry is a miss, and the compile writes it whole again.
	for e in cache/q7cc/wrapper/*.o; do head -c 2000 "$e" > t && cat t > "$e"; done
	relink MISS l5
	relink HIT l5b
	# Links at once into an empty cache: each succeeds, the entry is whole.
	rm -rf cache
	for i in 1 2 3 4; do
		mkdir "m$i"
		"$q7cc" --q7-toolchain=gnu -shared --q7-multicore -v -Iinc -o "m$i/libops.so" k.o \
			2> "err$i" &
	done
	for i in 1 2 3 4; do wait %$i || { cat "err$i"; fail "concurrent link $i"; }; done
	[ "$(ls cache/q7cc/wrapper | wc -l)" = 1 ] || fail "entries: $(ls -a cache/q7cc/wrapper)"
	relink HIT l6 --q7-multicore
	;;
cache_trust)
	# q7cc's cache as ccache keeps its own (docs/robustness.md, "Caches"):
	# an entry edited, extended or replaced by a link is a miss, and a
	# folder someone else owns or may write is not used, with one note.
	export XDG_CACHE_HOME=$PWD/cache
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
#ifdef PLANTED
Q7_KERNEL torch::Tensor planted(const torch::Tensor &x) { return x; }
#endif
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o || fail "compile"
	si=$(ls cache/q7cc/sysinfo-*) || fail "no sysinfo entry"
	echo 'D PLANTED=1' >> "$si"
	"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o 2> err || fail "compile: $(cat err)"
	[ "$("$q7cc" --q7-print-schema k.o)" = "k(Tensor x) -> Tensor" ] ||
		fail "an appended sysinfo line was used: $("$q7cc" --q7-print-schema k.o)"
	! grep -q PLANTED "$si" || fail "the damaged sysinfo entry was not written again"
	link() { # link HIT|MISS DIR: DIR/libk.so (its name is in the wrapper's text)
		mkdir -p "$2"
		"$q7cc" --q7-toolchain=gnu -shared -v -o "$2/libk.so" k.o 2> err || { cat err; fail "link $2"; }
		if grep -q 'wrapper.o from the cache' err; then
			[ "$1" = HIT ] || fail "$2: a damaged entry was used: $(cat err)"
		else
			[ "$1" = MISS ] || fail "$2: compiled where the cache holds it: $(cat err)"
		fi
	}
	link MISS l1
	link HIT l2
	entry=$(ls cache/q7cc/wrapper/*.o) || fail "no wrapper entry"
	# A store killed outright leaves its temporary: the next store
	# removes it once it is an hour old (a fresh one may be a live store's).
	: > cache/q7cc/wrapper/.entry.killed
	: > cache/q7cc/wrapper/.entry.living
	touch -d '2 hours ago' cache/q7cc/wrapper/.entry.killed
	# The object part edited, its mtime kept.
	cp "$entry" saved
	LC_ALL=C sed -i 's/k(Tensor x) -> Tensor/k(Tensor y) -> Tensor/' "$entry"
	cmp -s saved "$entry" && fail "the edit did not take"
	touch -r saved "$entry"
	link MISS l3
	[ ! -e cache/q7cc/wrapper/.entry.killed ] || fail "a killed store's temporary stays"
	[ -e cache/q7cc/wrapper/.entry.living ] || fail "a fresh temporary was removed"
	"$q7cc" --q7-print-schema l3/libk.so 2>&1 | grep -q 'Tensor y' && fail "the planted schema was linked"
	# The entry replaced by a link to another file: never written through.
	echo 'export SAFE=1' > victim
	rm "$entry" && ln -s "$PWD/victim" "$entry"
	link MISS l4
	[ "$(cat victim)" = 'export SAFE=1' ] || fail "the link's target was written"
	[ -f "$entry" ] && [ ! -L "$entry" ] || fail "the link was not replaced by an entry"
	link HIT l5
	# A folder writable by others, then one owned by someone else: not used.
	chmod 0777 cache/q7cc
	link MISS l6
	[ "$(grep -c 'not used as a cache' err)" = 1 ] || fail "not one note: $(cat err)"
	grep -q "cache/q7cc: not used as a cache: .*cache/q7cc: writable by others (mode 0777)" err ||
		fail "the note: $(cat err)"
	chmod 0700 cache/q7cc
	chmod 0777 cache
	link MISS l7
	grep -q "/cache: writable by others (mode 0777)" err || fail "a folder above: $(cat err)"
	chmod 0700 cache
	link HIT l8
	# Group write of the user's own group (a user private group, umask
	# 002) is the user's; of another group it is others'.
	chmod 0770 cache/q7cc
	link HIT l8b
	if chgrp nogroup cache/q7cc 2> /dev/null; then
		link MISS l8c
		grep -q "cache/q7cc: writable by others (mode 0770)" err || fail "group: $(cat err)"
		chgrp "$(id -g)" cache/q7cc
	fi
	chmod 0700 cache/q7cc
	if [ "$(id -u)" = 0 ]; then
		rm -rf cache/q7cc/wrapper
		chown nobody cache/q7cc
		link MISS l9
		grep -q "cache/q7cc: owned by uid [0-9]*, not by you" err || fail "owner: $(cat err)"
		# Nothing is made in it (an empty wrapper/ folder was).
		[ ! -e cache/q7cc/wrapper ] || fail "q7cc made cache/q7cc/wrapper in another user's cache"
	fi
	;;
wrapper_cache_prune)
	# Past 128 entries a store keeps the newest half (docs/driver.md, "The
	# wrapper object cache"): 131 entries a minute apart and the one a
	# link stores leave that one and the 63 newest; a store's temporary
	# goes once an hour old, a younger one (a live store's) stays.
	export XDG_CACHE_HOME=$PWD/cache
	w=cache/q7cc/wrapper
	mkdir -p cache cache/q7cc "$w"
	now=$(date +%s)
	for i in $(seq 1 131); do
		printf 'x' > "$w/$(printf '%032x' "$i").o"
		touch -d "@$((now - 600 - i * 60))" "$w/$(printf '%032x' "$i").o"
	done
	: > "$w/.entry.old"
	: > "$w/.entry.young"
	touch -d "@$((now - 3660))" "$w/.entry.old"
	touch -d "@$((now - 3000))" "$w/.entry.young"
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }' > k.cpp
	"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o || fail "compile"
	"$q7cc" --q7-toolchain=gnu -shared -o libk.so k.o 2> err || fail "link: $(cat err)"
	[ "$(ls "$w" | wc -l)" = 64 ] || fail "$(ls "$w" | wc -l) entries, want 64"
	for i in 1 63; do
		[ -e "$w/$(printf '%032x' "$i").o" ] || fail "entry $i of the newest was removed"
	done
	for i in 64 131; do
		[ ! -e "$w/$(printf '%032x' "$i").o" ] || fail "entry $i of the oldest stays"
	done
	[ "$(find "$w" -name '*.o' -size +1k | wc -l)" = 1 ] || fail "the stored entry is gone"
	[ ! -e "$w/.entry.old" ] || fail "an hour-old temporary stays"
	[ -e "$w/.entry.young" ] || fail "a younger temporary was removed"
	;;
cache_folders_above)
	# A folder above the cache that others may write (docs/robustness.md,
	# "Caches"), two and three levels up, is named in the one note and the
	# cache is not used; a sticky one (/tmp's 1777, HOME=/tmp) is fine.
	# XDG_CACHE_HOME first, then HOME's ~/.cache/q7cc.
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
		'Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }' > k.cpp
	top=$(pwd -P)
	mkdir -p a/b/c h
	compile() { # compile WANT-NOTE-FOLDER|"": one kernel compile
		"$q7cc" --q7-toolchain=host -c k.cpp -o k.o 2> err || fail "compile: $(cat err)"
		if [ -z "$1" ]; then
			[ ! -s err ] || fail "a note with safe folders: $(cat err)"
		else
			[ "$(grep -c 'not used as a cache' err)" = 1 ] || fail "not one note: $(cat err)"
			grep -qF ": not used as a cache: $1: writable by others (mode 0777)" err ||
				fail "$1 is not named: $(cat err)"
		fi
	}
	export XDG_CACHE_HOME=$top/a/b/c
	compile ""
	ls a/b/c/q7cc/sysinfo-* > /dev/null 2>&1 || fail "nothing cached"
	for d in a/b a; do
		chmod 0777 "$d"
		rm -rf a/b/c/q7cc
		compile "$top/$d"
		! ls a/b/c/q7cc/sysinfo-* > /dev/null 2>&1 || fail "$d 0777: cached anyway"
		chmod 1777 "$d"
		compile ""
		chmod 0700 "$d"
	done
	unset XDG_CACHE_HOME
	mkdir -p h/.cache
	export HOME=$top/h
	chmod 0777 h
	compile "$top/h"
	chmod 1777 h
	compile ""
	ls h/.cache/q7cc/sysinfo-* > /dev/null 2>&1 || fail "nothing cached under HOME"
	;;
split_link)
	# gnu --q7-multicore: one relocatable link, then eight ld image links.
	# The images export what the eight full links' images export; user
	# linker options land in the right stage; an archive pulled in whole
	# still brings its kernel.
	cat > a.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor twice(const torch::Tensor &x, float k) { return x; }
CPP
	cat > b.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor from_archive(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=gnu -c a.cpp -o a.o || fail "compile a"
	"$q7cc" --q7-toolchain=gnu -c b.cpp -o b.o || fail "compile b"
	xtensa-lx106-elf-ar rcs libb.a b.o || fail "ar"
	link() { # link DIR: the multicore link into DIR
		mkdir -p "$1"
		"$q7cc" --q7-toolchain=gnu --q7-multicore -shared -v -Wl,-soname,libops.so \
			-Wl,--gc-sections,-Map="$1/ops.map" -o "$1/libops.so" a.o \
			-Wl,--whole-archive libb.a -Wl,--no-whole-archive 2> "$1/err" ||
			{ cat "$1/err"; fail "link into $1"; }
	}
	link split
	Q7CC_LINK_SPLIT=0 link full
	grep -q -- ' -r -nostdlib ' split/err || fail "no relocatable link: $(cat split/err)"
	[ "$(grep -c -- '-ld -shared .* -soname libops.so --gc-sections -Map=split/ops.map ' split/err)" = 8 ] ||
		fail "the image links lack the user's options: $(cat split/err)"
	grep -q 'eight full links: Q7CC_LINK_SPLIT=0' full/err || fail "the switch did not hold"
	[ -s split/ops.map ] || fail "no link map"
	for i in 0 1 2 3 4 5 6 7; do
		for d in split full; do
			xtensa-lx106-elf-readelf -W --dyn-syms "$d/libops_cpu$i.so" |
				awk '$7 != "UND" && $5 == "GLOBAL" { print $8 }' | sort > "$d/syms$i"
		done
		grep -q 'from_archive_wrapper' split/syms$i || fail "cpu$i: the archive's kernel is missing"
		cmp -s split/syms$i full/syms$i ||
			fail "cpu$i exports differ: $(diff split/syms$i full/syms$i)"
		xtensa-lx106-elf-readelf -d "split/libops_cpu$i.so" | grep -q 'SONAME.*libops.so' ||
			fail "cpu$i: no soname"
	done
	# Objects only: the relocatable link runs beside the wrapper's compile,
	# asking for the runtime symbols the wrapper calls, for every kind of
	# parameter; if the list missed one, q7cc would say so and link again.
	cat > kinds.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor all_kinds(const torch::Tensor &x, const at::Scalar &s, int i,
                                  int64_t l, float f, double d, bool b) { return x; }
CPP
	"$q7cc" --q7-toolchain=gnu -c kinds.cpp -o kinds.o || fail "compile kinds"
	mkdir -p early
	"$q7cc" --q7-toolchain=gnu --q7-multicore -shared -v a.o kinds.o -o early/libk.so \
		2> early/err || { cat early/err; fail "objects-only link"; }
	grep -- ' -r -nostdlib ' early/err | grep -q -- '-Wl,-u,_Z20customop_next_scalarv' ||
		fail "the relocatable link does not ask for the runtime: $(cat early/err)"
	grep -- ' -r -nostdlib ' early/err | grep -q 'wrapper\.o' &&
		fail "the relocatable link waited for wrapper.o: $(cat early/err)"
	grep -q 'relocatable link again' early/err && fail "the runtime list missed a symbol: $(cat early/err)"
	[ "$(grep -c -- '-ld -shared .*resolved\.o .*wrapper\.o$' early/err)" = 8 ] ||
		fail "the image links lack wrapper.o: $(cat early/err)"
	Q7CC_LINK_SPLIT=0 "$q7cc" --q7-toolchain=gnu --q7-multicore -shared a.o kinds.o \
		-o early/libfull.so || fail "full links"
	for i in 0 7; do
		for f in libk libfull; do
			xtensa-lx106-elf-readelf -W --dyn-syms "early/${f}_cpu$i.so" |
				awk '$7 != "UND" && $5 == "GLOBAL" { print $8 }' | sort > "early/$f.syms$i"
		done
		cmp -s early/libk.syms$i early/libfull.syms$i ||
			fail "cpu$i exports differ: $(diff early/libk.syms$i early/libfull.syms$i)"
	done
	# A symbol nobody defines: the full links report it, with the object.
	cat > u.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
int nowhere_defined(int);
Q7_KERNEL torch::Tensor k(const torch::Tensor &x, int n) { nowhere_defined(n); return x; }
CPP
	"$q7cc" --q7-toolchain=gnu -c u.cpp -o u.o || fail "compile u"
	"$q7cc" --q7-toolchain=gnu --q7-multicore -shared u.o -o libu.so 2> err &&
		fail "a link with an undefined symbol succeeded"
	grep -q "u.o.*undefined reference to .nowhere_defined" err || fail "message: $(cat err)"
	[ "$(grep -c 'undefined reference' err)" = 1 ] || fail "reported more than once: $(cat err)"
	ls libu* 2> /dev/null && fail "outputs left: $(ls libu*)"
	# A flag the compiler rejects: said once, by the wrapper's compile.
	"$q7cc" --q7-toolchain=gnu --q7-multicore -shared -fno-such-flag a.o -o libx.so 2> err &&
		fail "a link with a bad flag succeeded"
	[ "$(grep -c "fno-such-flag" err)" = 1 ] || fail "not said once: $(cat err)"
	# A linker option the split does not know: the full links run.
	"$q7cc" --q7-toolchain=gnu --q7-multicore -shared -v a.o -Wl,--wrap=nothing \
		-o libw.so 2> err || { cat err; fail "link with --wrap"; }
	grep -q 'eight full links: linker option --wrap=nothing' err || fail "no fallback: $(cat err)"
	[ -f libw_cpu7.packed.so ] || fail "no cpu7 image"
	;;
gnu_executable)
	# A plain executable link (what CMake's probes and check_cxx_source_*
	# do) links for the device with the gnu profile.
	cat > m.cpp <<'CPP'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) { printf("%d %d\n", argc, (int)strlen(argv[0]) / argc); return 0; }
CPP
	"$q7cc" --q7-toolchain=gnu m.cpp -o "m x" || fail "link"
	readelf -h "m x" | grep -q 'EXEC (Executable' || fail "not an executable"
	readelf -h "m x" | grep -q 'Tensilica Xtensa' || fail "not for Xtensa"
	;;
no_toolchain)
	# Neither xt-clang++ nor xtensa-lx106-elf-g++: say what to install.
	PATH=$PWD/empty XTENSA_TOOLS=$PWD/none "$q7cc" -c a.cpp 2> err
	rc=$?
	[ $rc = 69 ] || fail "status $rc, want 69"
	grep -q 'gcc-xtensa-lx106 binutils-xtensa-lx106 picolibc-xtensa-lx106-elf' err ||
		fail "message: $(cat err)"
	;;
warning_policy)
	# -W[no-][error=]q7-RULE, -Werror, -w steer q7cc's lint (here a
	# warning: xt's runtime cannot pass a double), never the compiler; GCC's
	# habits hold: -w wins over -Werror, an unknown name is GCC's error (or,
	# as -Wno-, its note when there are other diagnostics).
	cat > w.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor w(const torch::Tensor &x, double d) { return x; }
CPP
	lint() { # lint STATUS STDERR-PATTERN FLAGS...: "" wants an empty stderr
		local want=$1 pat=$2
		shift 2
		XTENSA_TOOLS=$PWD/none "$q7cc" --q7-toolchain=xt --q7-lint w.cpp "$@" 2> err
		status_and_err $? "$want" "$pat" "$@"
	}
	kind='^w.cpp:3:[0-9]*: warning: .*\[-Wq7-profile-kind\]$'
	lint 0 "$kind"
	lint 0 '' -Wno-q7-profile-kind
	lint 0 '' -w
	lint 1 'error: .*\[-Werror,-Wq7-profile-kind\]$' -Werror=q7-profile-kind
	lint 1 'error: .*\[-Werror,-Wq7-profile-kind\]$' -Werror
	lint 0 "$kind" -Werror -Wno-error=q7-profile-kind
	lint 0 '' -Werror -w
	lint 0 '' -w -Werror=q7-profile-kind
	lint 1 "^q7cc: error: unrecognized command-line option '-Wq7-bogus'$" -Wq7-bogus
	lint 1 "^q7cc: error: '-Werror=q7-bogus': no option '-Wq7-bogus'$" -Werror=q7-bogus
	lint 1 "^q7cc: error: '-Wno-error=q7-bogus': no option '-Wq7-bogus'$" -Wno-error=q7-bogus
	lint 0 "^q7cc: note: unrecognized command-line option '-Wno-q7-bogus' may have been intended to silence earlier diagnostics$" -Wno-q7-bogus
	lint 0 '' -Wno-q7-bogus -Wno-q7-profile-kind
	# The same words and statuses as GCC's for an unknown -W name.
	printf 'int f() { return 0; }\n' > x.cpp
	for flag in -Wbogus -Werror=bogus -Wno-error=bogus -Wno-bogus; do
		LC_ALL=C c++ "$flag" -c x.cpp -o x.o 2> gcc.err
		gccrc=$?
		q7flag=$(echo "$flag" | sed 's/bogus/q7-bogus/')
		LC_ALL=C "$q7cc" --q7-toolchain=host "$q7flag" -c x.cpp -o x.o 2> q7.err
		q7rc=$?
		[ "$q7rc" = "$gccrc" ] || fail "$q7flag: status $q7rc, GCC's $gccrc for $flag"
		sed 's/^[^:]*: /q7cc: /; s/bogus/q7-bogus/g' gcc.err > want.err
		cmp -s q7.err want.err || fail "$q7flag: '$(cat q7.err)', GCC: '$(cat gcc.err)'"
	done
	# The real compiler never sees them (GCC rejects -Werror=q7-...).
	"$q7cc" --q7-toolchain=host -c w.cpp -o w.o -Werror=q7-profile-kind -Wno-q7-inline \
		-Wq7-template || fail "q7 warning flags reached the compiler"
	;;
toolchain_names)
	# q7cc-xt, q7cc-gnu, q7cc-host: argv[0] picks the toolchain (staged
	# beside q7cc, and as links of the user's own); --q7-toolchain= still
	# wins, and the name wins over Q7_TOOLCHAIN.
	bin=$(dirname "$q7cc")
	mkdir mine
	for p in xt gnu host; do
		[ -x "$bin/q7cc-$p" ] || fail "q7cc-$p is not staged"
		ln -s "$q7cc" "mine/q7cc-$p"
		for d in "$bin" "$PWD/mine"; do
			"$d/q7cc-$p" --version > out 2>&1
			grep -q "(profile $p)" out || fail "$d/q7cc-$p --version: $(cat out)"
		done
	done
	"$bin/q7cc-host" --q7-toolchain=gnu -### -c a.cpp 2> out
	grep -q 'xtensa-lx106-elf-g++' out || fail "--q7-toolchain=gnu lost to the name: $(cat out)"
	Q7_TOOLCHAIN=gnu "$bin/q7cc-host" -### -c a.cpp 2> out
	grep -q 'xtensa-lx106-elf-g++' out && fail "Q7_TOOLCHAIN won over the name: $(cat out)"
	grep -q '^[^ ]*c++ -c -o a.o a.cpp$' out || fail "q7cc-host did not compile for the host: $(cat out)"
	# q7cc-gnu-g++, q7cc-host-g++, and the C names q7cc-gnu-gcc,
	# q7cc-host-gcc: the names icecream distributes.
	for p in gnu host; do
		for d in g++ gcc; do
			[ -x "$bin/q7cc-$p-$d" ] || fail "q7cc-$p-$d is not staged"
			Q7_TOOLCHAIN=xt "$bin/q7cc-$p-$d" --version > out 2>&1
			grep -q "(profile $p)" out || fail "q7cc-$p-$d --version: $(cat out)"
		done
	done
	ln -s "$q7cc" mine/q7cc-xt-g++
	Q7_TOOLCHAIN=host mine/q7cc-xt-g++ --version > out 2>&1
	grep -q "(profile host)" out || fail "q7cc-xt-g++ took a profile from its name: $(cat out)"
	"$bin/q7cc-bogus" --version > out 2>&1 && fail "a name that is no profile ran"
	ln -s "$q7cc" mine/q7cc-bogus
	Q7_TOOLCHAIN=host mine/q7cc-bogus --version > out 2>&1 || fail "q7cc-bogus: $(cat out)"
	grep -q "(profile host)" out || fail "an unknown suffix is the plain driver: $(cat out)"
	;;
editor_probe)
	# `-E -x c++ - -v`, clangd --query-driver's probe: first a Target line
	# that clang knows (the host's; for the device profiles arm-none-eabi,
	# since clang has no Xtensa), then the compiler's own -v output, whose
	# search list holds q7cc's include folder: for a device profile ahead
	# of the compiler's, for the host after every other (standard input
	# may have kernels; docs/driver.md, "Pass-through").
	# Plain -E prints neither; -v without -E names no second target.
	inc=$(cd "$(dirname "$q7cc")/../include/q7cc" && pwd)
	profiles=host
	command -v xtensa-lx106-elf-g++ > /dev/null && profiles="host gnu"
	for p in $profiles; do
		want=arm-none-eabi
		[ "$p" = host ] && want=$(uname -m)-pc-linux-gnu
		[ "$(uname -m)" = aarch64 ] && [ "$p" = host ] && want=aarch64-unknown-linux-gnu
		"$q7cc" --q7-toolchain=$p -E -x c++ - -v < /dev/null > out 2> err || fail "$p: status $?"
		[ "$(grep '^Target: ' err | head -1)" = "Target: $want" ] ||
			fail "$p: first Target line: $(grep '^Target: ' err)"
		[ "$(grep -c '^Target: ' err)" = 2 ] || fail "$p: the compiler's Target line is gone"
		grep -q "# q7cc: profile $p;" err || fail "$p: no note before the Target line"
		sed -n '/^#include <...> search starts here:/,/^End of search list/p' err > list
		if [ "$p" = host ]; then
			tail -2 list | head -1 > first
		else
			sed -n 2p list > first
		fi
		[ "$(cat first)" = " $inc" ] || fail "$p: q7cc's folder is not where it belongs: $(cat list)"
		[ -s out ] || fail "$p: nothing preprocessed on stdout"
		echo 'int x;' | "$q7cc" --q7-toolchain=$p -E -x c++ - > out 2> err || fail "$p -E"
		grep -q '^Target' err && fail "$p: -E without -v printed a target"
		grep -q 'int x;' out || fail "$p: -E lost the text"
	done
	;;
version_help)
	# --version: the compiler's own lines first (CMake reads the first),
	# then q7cc's; --help points to --q7-help. Other info passes through.
	"$q7cc" --q7-toolchain=host --version > out || fail "--version: status $?"
	c++ --version > want
	[ "$(head -1 out)" = "$(head -1 want)" ] || fail "first line '$(head -1 out)'"
	head -n "$(wc -l < want)" out | cmp -s - want || fail "the compiler's lines changed"
	grep -qE '^q7cc [0-9]+\.[0-9]+\.[0-9]+ \(profile host\)' out || fail "no q7cc line: $(cat out)"
	"$q7cc" --q7-toolchain=host --help > out || fail "--help: status $?"
	grep -q -- '--q7-help' out || fail "--help does not mention --q7-help"
	[ "$("$q7cc" --q7-toolchain=host -dumpversion)" = "$(c++ -dumpversion)" ] ||
		fail "-dumpversion changed"
	;;
syntax_lint)
	# -fsyntax-only runs q7cc's lint beside the compiler's check, writes
	# nothing; the compiler's own errors pass through alone.
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	sed 's/const torch::Tensor &x)/const torch::Tensor \&x, float *p)/' k.cpp > bad.cpp
	"$q7cc" --q7-toolchain=host -fsyntax-only k.cpp 2> err || fail "a good file: $(cat err)"
	[ ! -s err ] || fail "noise: $(cat err)"
	"$q7cc" --q7-toolchain=host -fsyntax-only k.cpp bad.cpp 2> err
	rc=$?
	[ $rc = 1 ] || fail "status $rc, want 1"
	grep -q '^bad.cpp:3:[0-9]*: error: .*\[-Wq7-unsupported-param\]$' err || fail "message: $(cat err)"
	[ -z "$(ls | grep -v '\.cpp$\|^err$')" ] || fail "files written: $(ls)"
	echo 'int broken(' >> bad.cpp
	"$q7cc" --q7-toolchain=host -fsyntax-only bad.cpp 2> err
	rc=$?
	direct --q7-toolchain=host -fsyntax-only bad.cpp 2> cc.err
	[ "$rc" = $? ] || fail "status $rc, not the compiler's"
	cmp -s err cc.err || fail "stderr differs from the compiler's: $(diff err cc.err)"
	;;
kernel_names)
	# --q7-kernel: comma lists; a name the file lacks is an error naming
	# what it defines; on a link without sources, a warning.
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
torch::Tensor one(const torch::Tensor &x) { return x; }
torch::Tensor two(const torch::Tensor &x, int n) { return x; }
static int helper(int x) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=one,two -o k.o || fail "comma list"
	[ "$("$q7cc" --q7-print-schema k.o | sort | tr '\n' ' ')" = \
		"one(Tensor x) -> Tensor two(Tensor x, int n) -> Tensor " ] ||
		fail "records: $("$q7cc" --q7-print-schema k.o)"
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=one --q7-kernel=three -o bad.o 2> err
	rc=$?
	[ $rc = 1 ] || fail "unknown name: status $rc, want 1"
	grep -qx 'k.cpp: error: --q7-kernel=three names no function of this file; it defines: one, two, helper \[-Wq7-unknown-kernel\]' err ||
		fail "message: $(cat err)"
	[ ! -e bad.o ] || fail "bad.o left behind"
	# A target that gives every file the same names may demote it.
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=one --q7-kernel=three \
		-Wno-error=q7-unknown-kernel -o demoted.o 2> err || fail "-Wno-error=q7-unknown-kernel: $(cat err)"
	grep -q 'k.cpp: warning: --q7-kernel=three names no function' err || fail "demoted: $(cat err)"
	[ "$("$q7cc" --q7-print-schema demoted.o)" = "one(Tensor x) -> Tensor" ] || fail "demoted records"
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=three -Wno-error=q7-unknown-kernel -w \
		-o quiet.o 2> err || fail "-w after demotion"
	[ ! -s err ] || fail "-w left: $(cat err)"
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=three -Wno-q7-unknown-kernel -o still.o 2> err &&
		fail "-Wno-q7-unknown-kernel alone turned off an error"
	printf 'int plain(int x) { return x; }\n' > plain.cpp
	"$q7cc" --q7-toolchain=host -c plain.cpp --q7-kernel=one -o p.o 2> err &&
		fail "a file without the name (no parse needed to know) passed"
	grep -q 'names no function of this file; it defines: plain \[-Wq7-unknown-kernel\]$' err || fail "message: $(cat err)"
	"$q7cc" --q7-toolchain=host -c k.cpp --q7-kernel=one,,two -o x.o 2> err
	[ $? = 2 ] || fail "an empty name in the list: $(cat err)"
	"$q7cc" --q7-toolchain=host -shared k.o --q7-kernel=one -o libk.so 2> err ||
		fail "link: $(cat err)"
	grep -qx 'q7cc: warning: --q7-kernel=one: unused on a link without sources: .*' err ||
		fail "no warning on a link-only line: $(cat err)"
	"$q7cc" --q7-toolchain=host -shared k.cpp --q7-kernel=one,two -o libk2.so 2> err ||
		fail "a link with a source: $(cat err)"
	[ ! -s err ] || fail "warned with a source on the line: $(cat err)"
	;;
schema_sources)
	# --q7-print-schema on sources: a NEURON_LIBRARY shape file's request
	# is answered by the sources given with it, as by objects.
	ex=$(cd "$(dirname "$0")/../../examples" && pwd)
	out=$("$q7cc" --q7-toolchain=host --q7-print-schema "$ex/neuron_sample/relu.cpp" 2> err) ||
		fail "relu.cpp alone: $(cat err)"
	[ -z "$out" ] || fail "relu.cpp alone printed '$out'"
	grep -q 'relu.cpp: no kernels: nothing marks' err || fail "no note: $(cat err)"
	for order in "shape relu" "relu shape"; do
		set -- $order
		out=$("$q7cc" --q7-toolchain=host --q7-print-schema "$ex/neuron_sample/$1.cpp" \
			"$ex/neuron_sample/$2.cpp" 2> err) || fail "$order: $(cat err)"
		[ "$out" = "my_ops::relu_forward(Tensor t_in) -> Tensor" ] || fail "$order: '$out' $(cat err)"
		[ ! -s err ] || fail "$order: $(cat err)"
	done
	"$q7cc" --q7-toolchain=host --q7-print-schema "$ex/neuron_sample/shape.cpp" > out 2> err ||
		fail "shape.cpp alone"
	[ ! -s out ] && grep -q "'relu_forward' is named by NEURON_LIBRARY" err ||
		fail "shape.cpp alone: $(cat out err)"
	n=$(ls "$ex"/ops/*.cpp | wc -l)
	"$q7cc" --q7-toolchain=host --q7-print-schema "$ex"/ops/*.cpp > out 2> err ||
		fail "examples/ops: $(cat err)"
	[ "$(grep -c ' -> Tensor$' out)" = "$n" ] || fail "examples/ops: $(cat out err)"
	;;
special_output)
	# -o naming a device, like /dev/null (here a private twin made with
	# mknod, so a failure cannot harm the machine's): no records renamed
	# over it, never removed. Needs root for mknod.
	mknod null c 1 3 || fail "mknod (the suite runs as root)"
	cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }
CPP
	"$q7cc" --q7-toolchain=host -c k.cpp -o null || fail "compile into a device"
	[ -c null ] || fail "records were renamed over the device"
	echo 'Q7_KERNEL torch::Tensor bad(const torch::Tensor &x, int *p) { return x; }' >> k.cpp
	"$q7cc" --q7-toolchain=host -c k.cpp -o null 2> err && fail "the lint error passed"
	grep -q 'q7-unsupported-param' err || fail "message: $(cat err)"
	[ -c null ] || fail "the device was removed"
	sed -i '/bad/d' k.cpp
	"$q7cc" --q7-toolchain=host -c k.cpp -o k.o || fail "compile"
	"$q7cc" --q7-toolchain=host -shared k.o -o libk.so --q7-emit-wrapper=null || fail "link"
	[ -c null ] || fail "--q7-emit-wrapper replaced the device"
	out=$("$q7cc" --q7-toolchain=host -shared k.o -o libk.so --q7-emit-wrapper=/dev/stdout)
	case $out in *get_func_cnt*) ;; *) fail "--q7-emit-wrapper=/dev/stdout: $out" ;; esac
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "ok: $case"
