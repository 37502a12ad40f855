#!/bin/sh
# valgrind.q7cc: a representative set of q7cc invocations under memcheck.
# Any memcheck error or definite leak exits 99 and fails the test; every
# step must also do its job (a step that should fail must fail cleanly).
#   run.sh STAGE_BIN TESTS_SRC WORKDIR [STEP...]
# STEPs (default: all): compile compile_plain schema preprocessed link_host
# pack_single pack_multi loadlib prelink run_host; the later ones use the objects the
# compile step left in WORKDIR (CTest runs them as fixtures, two groups in
# parallel, each writing its own files). The compiles of kernels run libclang
# in-process (Q7CC_ANALYSIS_SERVER=0) so the dlopen'ed plugin is checked
# too; frames inside ld.so/libclang are suppressed by q7cc.supp only.
set -eu
BIN=$1 SRC=$2 W=$3
shift 3
[ $# -gt 0 ] || set -- compile compile_plain schema preprocessed link_host pack_single \
	pack_multi loadlib prelink run_host
PROJ=$SRC/e2e/proj
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v valgrind > /dev/null || fail "valgrind is not installed (scripts/setup-deps)"
command -v xtensa-lx106-elf-g++ > /dev/null || fail "no xtensa-lx106-elf-g++ (scripts/setup-deps)"
mkdir -p "$W"
cd "$W"
unset Q7CC_REAL_CXX Q7CC_ACTIVE Q7_TOOLCHAIN || true

# vg NAME WANT CMD...: runs CMD under memcheck (children are not traced:
# the real compilers are not ours). WANT is 0, or "fail" for a command that
# must refuse its input (any exit but 0 and valgrind's 99).
n=0
vg() {
	name=$1 want=$2
	shift 2
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --suppressions="$SRC/valgrind/q7cc.supp" \
		--log-file="vg.$name.log" "$@" > "out.$name" 2> "err.$name" || rc=$?
	if [ "$rc" -eq 99 ] || [ -s "vg.$name.log" ]; then
		cat "vg.$name.log" >&2
		fail "$name: memcheck errors (exit $rc)"
	fi
	case $want in
	0) [ "$rc" -eq 0 ] || { cat "err.$name" >&2; fail "$name: exit $rc"; } ;;
	fail) [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || { cat "err.$name" >&2; fail "$name: exit $rc, expected a refusal"; } ;;
	esac
	n=$((n + 1))
	echo "ok: $name"
}

Q7CC=$BIN/q7cc
HOST="--q7-toolchain=host"
GNU="--q7-toolchain=gnu"
FLAGS="-O2 -I$PROJ/include"
for step in "$@"; do
	case $step in
	compile) # kernels, host and gnu profiles, libclang in-process
		rm -rf "${W:?}"/*
		Q7CC_ANALYSIS_SERVER=0 vg compile_host 0 $Q7CC $HOST $FLAGS -c "$PROJ/add.cpp" -o add.o
		Q7CC_ANALYSIS_SERVER=0 vg compile_gnu 0 $Q7CC $GNU $FLAGS -c "$PROJ/relu.cpp" -o relu.xo
		;;
	compile_plain) # no kernel: libclang is never loaded
		printf 'int twice(int x) { return 2 * x; }\n' > plain.cpp
		vg compile_plain 0 $Q7CC $HOST -O2 -c plain.cpp -o plain.o
		;;
	schema)
		[ -f add.o ] || fail "schema needs the compile step"
		vg schema 0 $Q7CC --q7-print-schema add.o
		grep -q '^add(Tensor a, Tensor b) -> Tensor$' out.schema || fail "schema: $(cat out.schema)"
		;;
	preprocessed) # q7cc -E's records in the text, compiled from a file, stdin, damaged
		# (the analysis server, when one runs: the compile step checked the plugin)
		vg pre_E 0 $Q7CC $HOST $FLAGS -E "$PROJ/add.cpp" -o add.ii
		vg pre_ii 0 $Q7CC $HOST -O2 -c add.ii -o add_ii.o
		vg pre_stdin 0 $Q7CC $HOST -O2 -c -x c++-cpp-output - -o add_in.o < add.ii
		$Q7CC --q7-print-schema add_in.o | grep -q '^add(Tensor a, Tensor b) -> Tensor$' ||
			fail "pre_stdin lost its record"
		sed '$!{/^[0-9a-f]*$/{s/^\(.\)./\1g/}}' add.ii > bad.ii
		vg pre_damaged fail $Q7CC $HOST -O2 -c bad.ii -o bad_ii.o
		[ ! -e bad_ii.o ] || fail "pre_damaged left bad_ii.o"
		;;
	link_host)
		[ -f add.o ] || fail "link_host needs the compile step"
		vg link_host 0 $Q7CC $HOST -O2 -shared -o libhost.so add.o
		[ -f libhost.so ] || fail "link_host: no libhost.so"
		;;
	pack_single)
		[ -f relu.xo ] || fail "pack_single needs the compile step"
		vg pack_single 0 $Q7CC $GNU -O2 -shared -o libdev.so relu.xo
		[ -f libdev.packed.so ] || fail "pack_single: no libdev.packed.so"
		;;
	pack_multi)
		[ -f relu.xo ] || fail "pack_multi needs the compile step"
		vg pack_multi 0 $Q7CC $GNU -O2 -shared --q7-multicore -o libmc.so relu.xo
		[ -f libmc_cpu7.packed.so ] || fail "pack_multi: no libmc_cpu7.packed.so"
		;;
	loadlib) # the packer alone, on a good and on a damaged image
		[ -f libdev.so ] || fail "loadlib needs the pack_single step"
		vg loadlib_good 0 "$BIN/q7-pkg-loadlib" -o good.o -s good.so libdev.so
		# damage past the ELF header checks too (tests/packer's corpus)
		python3 "$SRC/packer/mkcorpus.py" libdev.so corpus > /dev/null
		head -c 700 libdev.so > corpus/trunc-700.so
		for d in trunc-700 sec-name-out sec-overlap shstrtab-unterminated \
			seg-filesz-gt-memsz sec-size-absurd; do
			vg "loadlib_$d" fail "$BIN/q7-pkg-loadlib" -o bad.o "corpus/$d.so"
			[ ! -e bad.o ] || fail "loadlib_$d left bad.o"
		done
		;;
	prelink)
		[ -f libdev.packed.so ] || fail "prelink needs the pack_single step"
		vg prelink 0 "$BIN/q7-prelink" --core=3 -o dev.q7pl libdev.packed.so
		vg prelink_check 0 "$BIN/q7-prelink" --check dev.q7pl
		;;
	run_host)
		[ -f libhost.so ] || fail "run_host needs the link_host step"
		python3 "$SRC/e2e/npy.py" write in.npy
		vg run_host 0 "$BIN/q7-run" --target=host libhost.so add in.npy in.npy -o out.npy
		[ "$(python3 "$SRC/e2e/npy.py" read out.npy)" = "-2 4 -6 9" ] || fail "run_host: wrong sum"
		;;
	*) fail "unknown step $step" ;;
	esac
done
echo "valgrind: $n invocations clean"
