#!/bin/sh
# e2e.preprocessed_{gnu,host}: text q7cc -E made, compiled later by
# q7cc -c (as x.ii, with -x c++-cpp-output, from standard input), keeps
# every kernel with its stack size, the lint with the original file:line,
# and gives the records (.q7.ops) and the packed images of a direct
# compile, byte for byte (so does icecream's remote command line). Text
# another preprocessor made gets a warning.
#   preprocessed.sh STAGE_BIN PROFILE OPS_DIR WORKDIR
set -eu
bin=$1 p=$2 ops=$3 work=$4
q7="$bin/q7cc-$p"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work" && cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
mkdir direct ii cppout stdin ice raw

# The records of an object, as a hex dump (readelf reads either machine).
records() { readelf -x .q7.ops "$1" 2>&1 | grep '^  0x' || fail "$1 has no records"; }
same_records() { # A B
	records "$1" > "$1.rec"
	records "$2" > "$2.rec"
	cmp -s "$1.rec" "$2.rec" || { diff "$1.rec" "$2.rec"; fail "$2's records differ from $1's"; }
}

# Every example op (deep.cpp: Q7_KERNEL_STACK(2097152)), four ways.
for src in "$ops"/*.cpp; do
	b=$(basename "$src" .cpp)
	"$q7" -O2 -c "$src" -o "direct/$b.o" || fail "direct compile of $b"
	"$q7" -O2 -E "$src" -o "ii/$b.ii" || fail "q7cc -E of $b"
	"$q7" -O2 -c "ii/$b.ii" -o "ii/$b.o" || fail "compile of $b.ii"
	"$q7" -O2 -E "$src" > "cppout/$b.txt" || fail "q7cc -E of $b to stdout"
	"$q7" -O2 -c -x c++-cpp-output "cppout/$b.txt" -o "cppout/$b.o" || fail "-x c++-cpp-output $b"
	"$q7" -O2 -c -x c++-cpp-output - -o "stdin/$b.o" < "ii/$b.ii" || fail "$b.ii on stdin"
	# icecream's remote compile: -x c++, -fpreprocessed, the text on stdin.
	"$q7" -x c++ -O2 -c -fpreprocessed -pipe - -o "ice/$b.o" < "ii/$b.ii" || fail "$b.ii as icecream sends it"
	for way in ii cppout stdin ice; do
		same_records "direct/$b.o" "$way/$b.o"
	done
done
grep -q '^/\* q7cc-preprocessed 1 '"$p"' analysed$' ii/deep.ii || fail "deep.ii has no q7cc trailer"
"$bin/q7cc" --q7-print-schema --q7-format=json ii/deep.o > deep.json
grep -q '"stack_size": 2097152' deep.json || fail "deep_sum lost its stack size: $(cat deep.json)"
grep -q "\"file\": \"$ops/deep.cpp\", \"line\": 20" deep.json || fail "deep_sum's place: $(cat deep.json)"
# The .ii itself, as a source of schemas.
[ "$("$q7" --q7-print-schema ii/deep.ii)" = "deep_sum(Tensor x, int depth) -> Tensor" ] ||
	fail "--q7-print-schema deep.ii"

# The libraries linked from each set: the same images, byte for byte.
image=so
[ "$p" = gnu ] && image=packed.so
for way in direct ii stdin; do
	(cd "$way" && "$q7" -shared relu.o relu_tcm.o affine.o spmd.o table.o deep.o -o libops.so) ||
		fail "link of the $way objects"
done
for way in ii stdin; do
	cmp "direct/libops.$image" "$way/libops.$image" || fail "the $way image differs from the direct one"
done

# Standard input in raw C++: GCC's "<stdin>" names the place; q7cc -E of
# it gives the same records again.
"$q7" -c -x c++ - -o raw/direct.o < "$ops/deep.cpp" || fail "deep.cpp on stdin"
"$bin/q7cc" --q7-print-schema --q7-format=json raw/direct.o > raw.json
grep -q '"stack_size": 2097152, "defined": true, "file": "<stdin>", "line": 20' raw.json ||
	fail "stdin record: $(cat raw.json)"
"$q7" -E -x c++ - < "$ops/deep.cpp" > raw/deep.ii || fail "q7cc -E of stdin"
"$q7" -c raw/deep.ii -o raw/pp.o || fail "compile of stdin's .ii"
same_records raw/direct.o raw/pp.o

# The lint through a .ii: the same messages (original file and line, a
# header's among them), the same status, no object; the warning policy is
# the compile's.
mkdir lint lint/inc
cat > lint/inc/decl.h <<'H'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor twice(const torch::Tensor &x, float *scale);
H
cat > lint/bad.cpp <<'CPP'
#include "decl.h"

Q7_KERNEL torch::Tensor fine(const torch::Tensor &x) { return x; }
Q7_KERNEL torch::Tensor ptr(const torch::Tensor &x, int *n) { return x; }
CPP
cd lint
set +e
"$q7" -Iinc -c bad.cpp -o direct.o 2> direct.err
drc=$?
"$q7" -Iinc -E bad.cpp -o bad.ii
erc=$?
"$q7" -c bad.ii -o pp.o 2> pp.err
prc=$?
"$q7" -fsyntax-only bad.ii 2> syntax.err
src=$?
set -e
[ "$drc" = 1 ] && [ "$erc" = 0 ] && [ "$prc" = 1 ] && [ "$src" = 1 ] ||
	fail "statuses: direct $drc, -E $erc, .ii $prc, -fsyntax-only $src"
[ ! -e pp.o ] && [ ! -e direct.o ] || fail "an object was kept despite the lint"
grep -q '^inc/decl.h:3:[0-9]*: error: .*scale.* \[-Wq7-unsupported-param\]' pp.err ||
	{ cat pp.err; fail "no header diagnostic at inc/decl.h:3"; }
grep -q '^bad.cpp:4:[0-9]*: error: .*\[-Wq7-unsupported-param\]' pp.err ||
	{ cat pp.err; fail "no diagnostic at bad.cpp:4"; }
# The same findings; the compile of the .ii read no bad.cpp nor decl.h,
# so it shows none of their lines (before: a trailer names any file).
# (A caret line in clang's style, "   ^", or GCC's, "   |   ^~~".)
caret='^ *\(| *\)\?\^~*$'
grep -q "$caret" direct.err || { cat direct.err; fail "the direct compile shows no source line"; }
grep -v "$caret" direct.err | grep ': \(error\|warning\|note\): ' > direct.msgs
cmp -s direct.msgs pp.err || { diff direct.msgs pp.err; fail "the .ii's lint differs from the direct compile's"; }
cmp -s direct.msgs syntax.err || { diff direct.msgs syntax.err; fail "-fsyntax-only of the .ii"; }
# A name the file lacks is an error q7cc -E records; -Wno-error= on the
# compile of the .ii (not on -E) makes it the warning a direct compile gives.
"$q7" -E --q7-kernel=nosuch "$ops/relu.cpp" -o names.ii || fail "-E with --q7-kernel"
"$q7" -c names.ii -o names.o 2> names.err && fail "an unknown --q7-kernel name passed"
grep -q 'error: --q7-kernel=nosuch names no function of this file' names.err || { cat names.err; fail "names.err"; }
"$q7" -c -Wno-error=q7-unknown-kernel names.ii -o names.o 2> names.err || { cat names.err; fail "-Wno-error= on the .ii"; }
grep -q 'warning: --q7-kernel=nosuch' names.err || fail "no warning with -Wno-error="
# Names the q7cc -E was not given cannot be added later.
"$q7" -E "$ops/relu.cpp" -o plain.ii
"$q7" -c --q7-kernel=relu_forward plain.ii -o plain.o || fail "a name the records have"
"$q7" -c --q7-kernel=other plain.ii -o plain.o 2> late.err && fail "a name q7cc -E was not given"
grep -q "plain.ii: --q7-kernel=other was not given to the q7cc -E" late.err || { cat late.err; fail "late.err"; }
cd ..

# Text another preprocessor made: GCC's drops the marks, and says nothing;
# q7cc warns, naming the file and the rule, and compiles it. clang's keeps
# the marks (annotate attributes): no warning, the kernel is found.
mkdir foreign
cc=g++
[ "$p" = gnu ] && cc=xtensa-lx106-elf-g++
inc="$bin/../include/q7cc"
"$cc" -std=c++14 -E -I"$inc" "$ops/deep.cpp" -o foreign/gcc.ii
"$q7" -c foreign/gcc.ii -o foreign/gcc.o 2> foreign/gcc.err || fail "compile of g++ -E's text"
grep -q "^foreign/gcc.ii: warning: not preprocessed by q7cc -E: .*Q7_KERNEL marks.* \[-Wq7-foreign-preprocessed\]" foreign/gcc.err ||
	{ cat foreign/gcc.err; fail "no warning for g++ -E's text"; }
"$q7" -Wno-q7-foreign-preprocessed -c foreign/gcc.ii -o foreign/gcc.o 2> foreign/quiet.err
[ ! -s foreign/quiet.err ] || { cat foreign/quiet.err; fail "-Wno-q7-foreign-preprocessed"; }
if [ "$p" = gnu ]; then
	# --q7-kernel still finds it by name; the stack size is what was lost.
	"$q7" -w -c --q7-kernel=deep_sum foreign/gcc.ii -o foreign/named.o
	"$bin/q7cc" --q7-print-schema --q7-format=json foreign/named.o | grep -q '"stack_size": 0,' ||
		fail "a name found deep_sum in g++ -E's text"
else
	# The host's g++ -E expands glibc's headers to GCC-only attributes that
	# libclang cannot read: the compile stands, q7cc's part is lost, and
	# the warning says so in place of libclang's errors.
	"$q7" -c --q7-kernel=deep_sum foreign/gcc.ii -o foreign/named.o 2> foreign/named.err ||
		{ cat foreign/named.err; fail "compile of g++ -E's text with --q7-kernel"; }
	grep -q "^foreign/gcc.ii: warning: not preprocessed by q7cc -E, and libclang cannot read .*\[-Wq7-foreign-preprocessed\]" foreign/named.err ||
		{ cat foreign/named.err; fail "no warning for text libclang cannot read"; }
	! grep -q "error" foreign/named.err || { cat foreign/named.err; fail "libclang's errors shown"; }
	[ -z "$("$bin/q7cc" --q7-print-schema foreign/named.o)" ] || fail "records from unreadable text"
fi
if [ "$p" = host ] && command -v clang++ > /dev/null; then
	clang++ -std=c++14 -E -I"$inc" "$ops/deep.cpp" -o foreign/clang.ii
	"$q7" -c foreign/clang.ii -o foreign/clang.o 2> foreign/clang.err || fail "compile of clang -E's text"
	! grep -q 'q7-foreign-preprocessed' foreign/clang.err || fail "a warning for clang -E's text"
	"$bin/q7cc" --q7-print-schema --q7-format=json foreign/clang.o > clang.json
	grep -q '"stack_size": 2097152' clang.json || fail "clang -E's text: $(cat clang.json)"
	grep -q "\"file\": \"$ops/deep.cpp\", \"line\": 20" clang.json || fail "clang -E's place: $(cat clang.json)"
fi

# Another profile's text, and damaged records: refused, nothing written.
other=host
[ "$p" = host ] && other=gnu
if [ "$other" = host ] || command -v xtensa-lx106-elf-g++ > /dev/null; then
	"$bin/q7cc-$other" -c ii/relu.ii -o other.o 2> other.err && fail "another profile's .ii compiled"
	grep -q "q7cc -E made this file for the $p profile; this compile is for $other" other.err ||
		{ cat other.err; fail "other.err"; }
	[ ! -e other.o ] || fail "other.o written"
fi
sed '$!{/^[0-9a-f]*$/{s/^\(.\)./\1g/}}' ii/relu.ii > damaged.ii
"$q7" -c damaged.ii -o damaged.o 2> damaged.err && fail "a damaged trailer compiled"
grep -q "damaged.ii: the records q7cc -E left at its end are damaged" damaged.err || { cat damaged.err; fail "damaged.err"; }
[ ! -e damaged.o ] || fail "damaged.o written"
# Text that does not end in a newline still gets a trailer q7cc finds
# (a compiler stand-in writes such text).
printf '#!/bin/sh\nprintf "int x;"\n' > nonl-cc
chmod +x nonl-cc
printf '#include <q7/kernel.h>\nint f(int x) { return x; }\n' > own.cpp
Q7CC_REAL_CXX=$PWD/nonl-cc "$q7" -E own.cpp > nonl.ii || fail "-E through the stand-in"
head -n 1 nonl.ii | grep -q '^int x;$' || fail "nonl.ii: $(head -n 2 nonl.ii)"
"$q7" -### -c nonl.ii 2>&1 | grep -q "^# q7cc: take the records and lint of nonl.ii from q7cc -E$" ||
	fail "the trailer after text without a newline was not found"
# A source that does not use q7cc (no kernels, none of its headers): -E is
# the compiler's text alone, with no trailer (docs/driver.md,
# "Pass-through"); the host profile's command is the compiler's.
printf '#include <cstdio>\nint f(int x) { return x; }\n' > plain.cpp
"$q7" -O2 -E plain.cpp > plain.ii || fail "-E of plain.cpp"
! grep -q 'q7cc-preprocessed' plain.ii || fail "plain.ii has a trailer"
if [ "$p" = host ]; then
	c++ -O2 -E plain.cpp | cmp -s - plain.ii || fail "-E of plain.cpp differs from c++ -E"
fi
# -E into nothing, and -E of dependencies only: no records, no trouble.
"$q7" -E "$ops/relu.cpp" -o /dev/null || fail "-E -o /dev/null"
"$q7" -M "$ops/relu.cpp" > deps.txt || fail "-M"
! grep -q q7cc-preprocessed deps.txt || fail "-M output has a trailer"
echo "preprocessed $p: ok"
