#!/bin/bash
# e2e.outputs.*: what every tool does with an -o that is not a plain new
# file, and on a full disk (docs/robustness.md).
#
#   outputs.sh STAGE_BIN SRC_ROOT WORKDIR CASE
#
# CASE special: a table of tool x target. Each tool writes into a device
#   node (mknod c 1 3 as root; a link to /dev/null otherwise) and a FIFO
#   (with a reader) and leaves them what they were; refuses a directory;
#   reports /dev/full ("No space left on device") and a file size limit
#   (ulimit -f: "File too large") naming the file, exit non-zero, and
#   leaves nothing behind, not even a temporary.
# CASE signal: a tool stopped by SIGTERM or SIGHUP while its
#   temporary exists removes it and dies by the signal.
# CASE target: q7-run refuses a host library for --target=emulated and an
#   Xtensa image for --target=host, naming the file the user gave and the
#   target to use (not the .packed.so beside it).
set -u
bin=$1 root=$2 work=$3 case=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
export Q7CC_ANALYSIS_SERVER=0 TMPDIR=$work/tmp
mkdir tmp
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
fail() { echo "FAIL: $*" >&2; exit 1; }

# A device image and its packed form (gnu), a host library (with a
# .packed.so beside it, as a host build leaves), and a 32x32 float input
# (4 KiB: past a 1 KiB file size limit once written back).
mkdir dev host
src=$root/examples/ops/relu.cpp
"$bin/q7cc" -O2 -shared "$src" -o dev/librelu.so || fail "device build"
"$bin/q7cc" --q7-toolchain=host -O2 -fPIC -shared "$src" -o host/librelu.so || fail "host build"
"$bin/q7cc" --q7-toolchain=host -c "$src" -o relu.o || fail "host compile"
$PY - <<'PY' || fail "x.npy"
import struct
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 32), }"
h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
data = b''.join(struct.pack('<f', (i % 7) - 3.0) for i in range(32 * 32))
open('x.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + data)
PY

# The tools, with OUT where the output goes (-s for pack-s; pack-s also
# writes its -o into w/, which must stay empty when -s fails).
tool() { # tool NAME OUT
	case $1 in
	pack) "$bin/q7-pkg-loadlib" -o "$2" dev/librelu.so ;;
	pack-s) "$bin/q7-pkg-loadlib" -s "$2" -o w/p.so dev/librelu.so ;;
	prelink) "$bin/q7-prelink" -o "$2" dev/librelu.packed.so ;;
	run) "$bin/q7-run" --target=host host/librelu.so relu_forward x.npy -o "$2" ;;
	compile) "$bin/q7cc" --q7-toolchain=host -c "$src" -o "$2" ;;
	wrapper) "$bin/q7cc" --q7-toolchain=host -shared relu.o -o w/lib.so --q7-emit-wrapper="$2" ;;
	esac
}
# q7cc's own messages name the file; the compiler's and the linker's are
# theirs, and only their failure is checked (a link past the file size
# limit fails in the compiler first). The assembler seeks in its
# output, so q7cc -c into a FIFO fails as the compiler alone does (and the
# FIFO stays a FIFO).
own_message() { case $t/$k in compile/* | wrapper/limit) return 1 ;; *) return 0 ;; esac; }
seeks() { [ "$1" = compile ]; }

left() { # nothing but the names given may be in w/ and tmp/
	local got want
	got=$(cd w && ls -A | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$t/$k: w/ holds '$got', expected '$want'"
	[ -z "$(ls -A tmp)" ] || fail "$t/$k: left in \$TMPDIR: $(ls -A tmp)"
}

case_special() {
	local root_user=0 n=0
	[ "$(id -u)" = 0 ] && root_user=1
	for t in pack pack-s prelink run compile wrapper; do
		for k in node fifo full dir limit; do
			rm -rf w && mkdir w
			rc=0
			case $k in
			node)
				if [ $root_user = 1 ]; then mknod w/n c 1 3; else ln -s /dev/null w/n; fi
				tool $t w/n > out 2> err || rc=$?
				[ $rc = 0 ] || { cat err; fail "$t/$k: exit $rc"; }
				[ -c w/n ] || fail "$t/$k: the device node was replaced"
				if [ $root_user = 0 ]; then [ -L w/n ] || fail "$t/$k: the link was replaced"; fi
				case $t in pack-s) left n p.so ;; wrapper) left n lib.so lib.stripped.so lib.packed.so ;; *) left n ;; esac
				;;
			fifo)
				mkfifo w/f
				cat w/f > got &
				reader=$!
				tool $t w/f > out 2> err || rc=$?
				wait $reader
				[ -p w/f ] || fail "$t/$k: the FIFO was replaced"
				if seeks $t; then
					[ $rc != 0 ] || fail "$t/$k: the assembler wrote into a FIFO?"
					grep -q "Illegal seek" err || { cat err; fail "$t/$k: message"; }
					left f
					n=$((n + 1))
					continue
				fi
				[ $rc = 0 ] || { cat err; fail "$t/$k: exit $rc"; }
				[ -s got ] || fail "$t/$k: nothing came through the FIFO"
				case $t in pack-s) left f p.so ;; wrapper) left f lib.so lib.stripped.so lib.packed.so ;; *) left f ;; esac
				;;
			full)
				tool $t /dev/full > out 2> err && fail "$t/$k: writing to /dev/full succeeded"
				[ -c /dev/full ] || fail "$t/$k: /dev/full is no longer a device"
				if own_message; then
					grep -q "/dev/full: .*No space left on device" err || { cat err; fail "$t/$k: message"; }
				fi
				left
				;;
			dir)
				mkdir w/d
				tool $t w/d > out 2> err && fail "$t/$k: writing over a directory succeeded"
				[ -d w/d ] && [ -z "$(ls -A w/d)" ] || fail "$t/$k: the directory changed"
				if own_message; then
					grep -q "w/d: .*Is a directory" err || { cat err; fail "$t/$k: message"; }
				fi
				left d
				;;
			limit)
				# 1 KiB; the tools ignore SIGXFSZ, so a write fails with
				# EFBIG instead of killing them.
				(ulimit -f 1; tool $t w/o > out 2> err) && fail "$t/$k: past the limit, succeeded"
				if own_message; then
					grep -q "w/.*File too large" err || { cat err; fail "$t/$k: message"; }
				fi
				grep -q "Killed\|File size limit" err && { cat err; fail "$t/$k: killed"; }
				# The wrapper (under 1 KiB) was written whole before the
				# link failed; it stays, for looking into the failure.
				case $t in wrapper) left o ;; *) left ;; esac
				;;
			esac
			n=$((n + 1))
		done
	done
	[ $n = 30 ] || fail "ran $n of the 30 cases"
	echo "special outputs: $n cases"
}

case_target() {
	# --target=emulated with a host library: the message names the file
	# the user gave and --target=host; never the .packed.so beside it.
	[ -e host/librelu.packed.so ] || fail "the host build left no .packed.so to be misled by"
	mkdir w
	"$bin/q7-run" --target=emulated host/librelu.so relu_forward x.npy -o w/y.npy 2> err &&
		fail "a host library ran emulated"
	grep -q "^q7-run: error: host/librelu.so: a host library (x86-64, ELF64).*--target=host" err ||
		{ cat err; fail "host library, emulated: message"; }
	grep -q "packed\|class" err && { cat err; fail "host library, emulated: names the packed file"; }
	# The reverse: an Xtensa image for the host.
	"$bin/q7-run" --target=host dev/librelu.so relu_forward x.npy -o w/y.npy 2> err &&
		fail "a device image ran on the host"
	grep -q "^q7-run: error: dev/librelu.so: an Xtensa device image.*--target=emulated" err ||
		{ cat err; fail "device image, host: message"; }
	# Through a multicore manifest: the image it names.
	printf 'q7cc-multicore 1\nlibrelu.so\nlibrelu.so\n' > host/mc.so
	"$bin/q7-run" --target=emulated --cores=2 host/mc.so relu_forward x.npy -o w/y.npy 2> err &&
		fail "a host manifest ran emulated"
	grep -q "host/librelu.so: a host library" err || { cat err; fail "manifest: message"; }
	[ -z "$(ls -A w)" ] || fail "an output was left: $(ls -A w)"
	# The right targets still run (not blind).
	"$bin/q7-run" --target=host host/librelu.so relu_forward x.npy -o w/y.npy || fail "host run"
	# The emulated run's own files (the prelinked image QEMU loads) past a
	# file size limit: named, status 1, nothing left in its temporary folder.
	mkdir tmp
	(ulimit -f 1; TMPDIR=$PWD/tmp "$bin/q7-run" --target=emulated dev/librelu.so relu_forward \
		x.npy -o w/e.npy) 2> err && fail "an emulated run past the file size limit succeeded"
	grep -q "^q7-run: error: $PWD/tmp/q7cc\..*/image0.bin: cannot write: File too large" err ||
		{ cat err; fail "emulated run past the limit: message"; }
	[ -z "$(ls -A tmp)" ] || fail "the emulated run left $(ls -AR tmp)"
	[ ! -e w/e.npy ] || fail "the emulated run left its output"
	echo "wrong targets refused"
}

case_signal() {
	# A tool stopped by a signal removes its temporaries: q7-pkg-loadlib
	# has its -s temporary when it waits for the reader of its -o FIFO.
	# (Not SIGINT or SIGQUIT: a shell starts background commands with them
	# ignored, and an ignored signal stays ignored.)
	for sig in TERM HUP; do
		rm -rf w && mkdir w
		mkfifo w/f
		"$bin/q7-pkg-loadlib" -s w/s.so -o w/f dev/librelu.so 2> err &
		pid=$!
		for i in $(seq 100); do [ -n "$(ls -A w | grep '^\.s\.so\.')" ] && break; sleep 0.05; done
		[ -n "$(ls -A w | grep '^\.s\.so\.')" ] || fail "SIG$sig: no temporary to remove"
		kill -$sig $pid
		for i in $(seq 100); do kill -0 $pid 2> /dev/null || break; sleep 0.05; done
		kill -0 $pid 2> /dev/null && { kill -KILL $pid; fail "SIG$sig: still running"; }
		rc=0
		wait $pid || rc=$?
		[ $rc -gt 128 ] || { cat err; fail "SIG$sig: exit $rc, not death by the signal"; }
		left f
	done
	echo "signals: temporaries removed"
}

case_$case
