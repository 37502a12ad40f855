#!/bin/sh
# e2e.lint_style: q7cc's lint follows the diagnostic options of the compiler
# the profile runs. Under gnu, GCC 12's style, checked against the real
# xtensa-lx106-elf-g++ on the same place (an unused parameter, which g++
# -Wextra points at as the lint does): the same line:column, gutter and
# source line, caret and tilde run. -fdiagnostics-format=json: stderr is
# one valid JSON array holding g++'s objects and q7cc's, with the same
# caret and finish; GCC's colours and GCC_COLORS; a value GCC 12 refuses
# is refused. Under host with clang++-14, clang's style, and json is
# clang's own error.
#   lint_style.sh STAGE_BIN CLANGXX WORKDIR
set -eu
bin=$1 clangxx=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE GCC_COLORS || true
gnu="$bin/q7cc-gnu"
isjson() { python3 -c 'import json,sys; json.load(sys.stdin)' < "$1"; }

# Line 12, after a tab: display columns differ from bytes.
{
	printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n'
	printf '\n\n\n\n\n\n\n\n\n'
	printf '\tQ7_KERNEL torch::Tensor k(const torch::Tensor &x, float *scale_ptr) { return x; }\n'
} > k.cpp

# 1. Text: g++'s warning and q7cc's error on the same parameter.
# same_as_gcc FLAGS...: with FLAGS, q7cc's header place (up to the first
# ": "), its source line and its caret line are g++'s.
same_as_gcc() {
	rc=0
	"$gnu" -Wextra -c k.cpp -o k.o "$@" 2> text.err || rc=$?
	[ "$rc" = 1 ] || { cat text.err; fail "text $*: exit $rc, want 1 (the lint's error)"; }
	gcc_at=$(grep -n "^k.cpp:12:[0-9:]* warning: unused parameter .*\[-Wunused-parameter\]$" \
		text.err | cut -d: -f1)
	q7_at=$(grep -n "^k.cpp:12:[0-9:]* error: parameter 'scale_ptr' .* \[-Wq7-unsupported-param\]$" \
		text.err | cut -d: -f1)
	[ -n "$gcc_at" ] && [ -n "$q7_at" ] ||
		{ cat text.err; fail "text $*: g++'s or q7cc's diagnostic missing"; }
	sed -n "$gcc_at,$((gcc_at + 2))p" text.err > gcc.block
	sed -n "$q7_at,$((q7_at + 2))p" text.err > q7.block
	# The place: line and column in the unit and from the origin asked for.
	[ "$(head -1 gcc.block | sed 's/ warning: .*//')" = "$(head -1 q7.block | sed 's/ error: .*//')" ] ||
		{ cat text.err; fail "text $*: another place than g++'s"; }
	# The gutter and the source line, byte for byte.
	[ "$(sed -n 2p gcc.block)" = "$(sed -n 2p q7.block)" ] ||
		{ cat text.err; fail "text $*: the source line differs from g++'s"; }
	# The caret at g++'s column, the tilde run ending where g++'s does.
	caret_col() { sed -n 3p "$1" | awk '{ print index($0, "^") }'; }
	[ "$(caret_col gcc.block)" = "$(caret_col q7.block)" ] ||
		{ cat text.err; fail "text $*: the caret is not under g++'s"; }
	[ "$(sed -n 3p gcc.block | wc -c)" = "$(sed -n 3p q7.block | wc -c)" ] ||
		{ cat text.err; fail "text $*: the tildes do not end where g++'s do"; }
}
same_as_gcc
head -1 q7.block | grep -q '^k.cpp:12:66: ' || { cat text.err; fail "text: not the display column"; }
sed -n 2p q7.block | grep -q '^   12 |         Q7_KERNEL' || { cat text.err; fail "text: no gutter"; }
sed -n 3p q7.block | grep -q '^      | *\^~\{8\}$' || { cat text.err; fail "text: caret line"; }
same_as_gcc -fno-diagnostics-show-line-numbers -fdiagnostics-column-unit=byte \
	-fdiagnostics-column-origin=0
head -1 q7.block | grep -q '^k.cpp:12:58: ' || { cat text.err; fail "text: byte column from 0"; }
sed -n 2p q7.block | grep -q '^         Q7_KERNEL' || { cat text.err; fail "text: a gutter"; }
# No caret, no column: the header alone, as g++ gives it.
"$gnu" -Wextra -c k.cpp -o k.o -fno-diagnostics-show-caret -fno-show-column 2> text.err || true
[ "$(grep -c . text.err)" = 3 ] && grep -q "^k.cpp:12: error: parameter 'scale_ptr'" text.err ||
	{ cat text.err; fail "text: -fno-diagnostics-show-caret -fno-show-column"; }

# A warning made an error: GCC's option text and closing line.
cat > acc.cpp <<'CPP'
#include <torch/torch.h>
#include <neuron/neuron-utils.hpp>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor k(const torch::Tensor &x) {
    torch::Tensor o = get_dst_tensor();
    auto a = x.accessor<float, 1>();
    o.tcm_accessor().tcm_to_tensor<float>(&a[0], 0, 1);
    return o;
}
CPP
rc=0
"$gnu" --q7-multicore -Werror=q7-multicore-accessor -c acc.cpp -o acc.o 2> werror.err || rc=$?
[ "$rc" = 1 ] || { cat werror.err; fail "-Werror=: exit $rc"; }
grep -q '^acc.cpp:6:[0-9]*: error: .*\[-Werror=q7-multicore-accessor\]$' werror.err &&
	[ "$(tail -1 werror.err)" = "q7cc: some warnings being treated as errors" ] ||
	{ cat werror.err; fail "-Werror=: not GCC's words"; }
rc=0
"$gnu" --q7-multicore -Werror -c acc.cpp -o acc.o 2> werror.err || rc=$?
[ "$(tail -1 werror.err)" = "q7cc: all warnings being treated as errors" ] ||
	{ cat werror.err; fail "-Werror: not GCC's words"; }

# 2. JSON: one array, g++'s object and q7cc's, the same caret and finish.
rc=0
"$gnu" -Wextra -c k.cpp -o k.o -fdiagnostics-format=json -fdiagnostics-column-unit=byte \
	-fdiagnostics-column-origin=0 2> both.json || rc=$?
[ "$rc" = 1 ] || { cat both.json; fail "json: exit $rc"; }
isjson both.json || { cat both.json; fail "json: stderr is not one JSON array"; }
python3 - both.json <<'PY' || fail "json: $(cat both.json)"
import json, sys
d = json.load(open(sys.argv[1]))
opts = [x.get("option") for x in d]
assert opts == ["-Wunused-parameter", "-Wq7-unsupported-param"], opts
g, q = d
assert q["kind"] == "error" and "scale_ptr" in q["message"] and q["children"] == [], q
for key in ("caret", "finish"):
    assert g["locations"][0][key] == q["locations"][0][key], (key, g, q)
assert g["column-origin"] == q["column-origin"], (g, q)
PY
# Only q7cc reports: g++'s empty array and the lint, one array.
"$gnu" -c k.cpp -o k.o -fdiagnostics-format=json 2> lint.json || true
isjson lint.json || { cat lint.json; fail "json: lint alone"; }
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert len(d) == 1 and d[0]["option"] == "-Wq7-unsupported-param", d' lint.json ||
	fail "json: lint alone: $(cat lint.json)"
# Neither: g++'s "[]" as it is.
sed 's/float \*scale_ptr/float scale/' k.cpp > ok.cpp
"$gnu" -c ok.cpp -o ok.o -fdiagnostics-format=json 2> none.json || fail "json: a clean compile failed"
[ "$(cat none.json)" = "[]" ] || { cat none.json; fail "json: not g++'s empty array"; }
# The compile fails: g++'s array, no lint, still JSON.
printf 'int broken(\n' >> k.cpp
"$gnu" -c k.cpp -o k.o -fdiagnostics-format=json 2> broken.json && fail "json: a broken compile passed"
isjson broken.json || { cat broken.json; fail "json: a failed compile"; }
grep -q 'Wq7' broken.json && fail "json: lint after a failed compile"
# --q7-lint runs no compiler: the lint alone, an array; json then text: text.
"$gnu" --q7-lint -fdiagnostics-format=json ok.cpp acc.cpp --q7-multicore 2> lintmode.json ||
	fail "json: --q7-lint"
isjson lintmode.json || { cat lintmode.json; fail "json: --q7-lint"; }
"$gnu" --q7-lint -fdiagnostics-format=json ok.cpp 2> lintnone.json || fail "json: --q7-lint, clean"
[ "$(cat lintnone.json)" = "[]" ] || { cat lintnone.json; fail "json: --q7-lint, clean: not []"; }
"$gnu" --q7-lint -fdiagnostics-format=json -fdiagnostics-format=text acc.cpp --q7-multicore \
	2> lintmode.err || fail "text: --q7-lint"
grep -q '^    6 |' lintmode.err || { cat lintmode.err; fail "text after json: not text"; }
# A link's own finding (a warning, so the wrapper still compiles, in an
# empty cache): one array, not the link's and then the wrapper compile's.
for i in 0 1 2 3 4 5 6 7 8 9 10; do
	echo "Q7_KERNEL torch::Tensor k$i(const torch::Tensor &x) { return x; }"
done > body
{ printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n'; cat body; } > many.cpp
"$gnu" -c many.cpp -o many.o || fail "compile many.cpp"
XDG_CACHE_HOME=$PWD/cache "$gnu" -shared -o libmany.so many.o -fdiagnostics-format=json \
	-Wno-error=q7-too-many-kernels 2> link.json || { cat link.json; fail "json: the link failed"; }
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert [x["option"] for x in d] == ["-Wq7-too-many-kernels"], d' link.json ||
	{ cat link.json; fail "json: the link's stderr is not one array of its finding"; }
rc=0
"$gnu" --q7-lint -fdiagnostics-format=json-file ok.cpp 2> bad.err || rc=$?
[ "$rc" != 0 ] && grep -q "unrecognized argument in option '-fdiagnostics-format=json-file'" bad.err ||
	{ cat bad.err; fail "json-file: GCC 12 refuses it"; }

# 3. Colours: GCC's codes, GCC_COLORS, and "auto" on a terminal (script).
esc=$(printf '\033')
"$gnu" -c acc.cpp -o acc.o --q7-multicore -fdiagnostics-color=always 2> color.err
grep -q "${esc}\[01;35m${esc}\[Kwarning: ${esc}\[m${esc}\[K" color.err ||
	{ cat -v color.err; fail "colour: not GCC's warning colour"; }
GCC_COLORS='warning=01;33:locus=04' "$gnu" -c acc.cpp -o acc.o --q7-multicore \
	-fdiagnostics-color=always 2> color.err
grep -q "${esc}\[04m${esc}\[Kacc.cpp:6:16:${esc}\[m${esc}\[K ${esc}\[01;33m${esc}\[Kwarning: " color.err ||
	{ cat -v color.err; fail "colour: GCC_COLORS not followed"; }
GCC_COLORS= "$gnu" -c acc.cpp -o acc.o --q7-multicore -fdiagnostics-color=always 2> color.err
grep -q "$esc" color.err && { cat -v color.err; fail "colour: GCC_COLORS= is no colour"; }
"$gnu" -c acc.cpp -o acc.o --q7-multicore 2> color.err
grep -q "$esc" color.err && { cat -v color.err; fail "colour: auto on a file"; }
# On a terminal: g++ and q7cc both colour; with TERM=dumb neither.
{ cat acc.cpp; echo 'int f() { int unused_var; return 0; }'; } > tty.cpp
TERM=xterm script -qec "'$gnu' -Wall -c tty.cpp -o acc.o --q7-multicore" /dev/null > tty.out
grep -q "${esc}\[01;35m${esc}\[Kwarning: ${esc}\[m${esc}\[Kunused variable" tty.out &&
	grep -q "${esc}\[01;35m${esc}\[Kwarning: ${esc}\[m${esc}\[K.*q7-multicore-accessor" tty.out ||
	{ cat -v tty.out; fail "colour: auto on a terminal"; }
TERM=dumb script -qec "'$gnu' -Wall -c tty.cpp -o acc.o --q7-multicore" /dev/null > tty.out
grep -q "$esc" tty.out && { cat -v tty.out; fail "colour: TERM=dumb"; }

# 4. host with clang: clang's style, its colours; json is clang's error.
host=$bin/q7cc-host
sed -i '$d' k.cpp
Q7CC_REAL_CXX=$clangxx "$host" -c k.cpp -o k.o 2> clang.err && fail "clang: the lint passed"
grep -q "^k.cpp:12:59: error: parameter 'scale_ptr' .* \[-Wq7-unsupported-param\]$" clang.err &&
	! grep -q ' | ' clang.err || { cat clang.err; fail "clang: not clang's style"; }
Q7CC_REAL_CXX=$clangxx "$host" -c k.cpp -o k.o -fcolor-diagnostics 2> clang.err || true
grep -q "${esc}\[0;1;31merror: ${esc}\[0m${esc}\[1mparameter" clang.err ||
	{ cat -v clang.err; fail "clang: not clang's colours"; }
Q7CC_REAL_CXX=$clangxx "$host" -c k.cpp -o k.o -fdiagnostics-format=vi 2> clang.err || true
grep -q "^k.cpp +12:59: error: parameter" clang.err || { cat clang.err; fail "clang: vi"; }
Q7CC_REAL_CXX=$clangxx "$host" -c k.cpp -o k.o -fdiagnostics-format=json 2> clang.err &&
	fail "clang: json passed"
grep -q "invalid value 'json' in '-fdiagnostics-format json'" clang.err &&
	! grep -q Wq7 clang.err || { cat clang.err; fail "clang: json"; }
rc=0
Q7CC_REAL_CXX=$clangxx "$host" --q7-lint -fdiagnostics-format=json k.cpp 2> clang.err || rc=$?
[ "$rc" = 2 ] && [ "$(cat clang.err)" = "q7cc: error: invalid value 'json' in '-fdiagnostics-format json'" ] ||
	{ cat clang.err; fail "clang: --q7-lint with json: exit $rc"; }
echo "ok: the lint in GCC's style under gnu (as g++ prints it, JSON merged), clang's under clang"
