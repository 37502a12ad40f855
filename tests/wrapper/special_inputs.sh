#!/bin/bash
# The one reader rule (docs/robustness.md, "Special files"): every reader of
# a file a user, a project, a compile command or an include names, listed
# below, fed /dev/zero, a link to it and a FIFO. Each must end with a status
# of 1 or 74 and an error naming the file (and for an include, the file
# that includes it) and "not a regular file", under a
# 2 GB address-space limit (/dev/zero was read until memory ran out) and
# within 20 s (timeout is the hang detector: a FIFO waited for a writer),
# and write nothing.
#   special_inputs.sh BINDIR WORKDIR
set -u
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SAVE_TEMPS || true
fail() { echo "FAIL: $*" >&2; exit 1; }
q7cc=$bin/q7cc

# Good inputs for the readers' other arguments.
printf '#include <torch/torch.h>\n#include <q7/kernel.h>\n%s\n' \
	'Q7_KERNEL torch::Tensor k(const torch::Tensor &x) { return x; }' > k.cpp
"$q7cc" --q7-toolchain=gnu -c k.cpp -o k.o || fail "compile (gnu)"
"$q7cc" --q7-toolchain=host -fPIC -c k.cpp -o kh.o || fail "compile (host)"
"$q7cc" --q7-toolchain=host -shared -o libkh.so kh.o || fail "link (host)"

# Each reader: the input's extension, then the command; @IN@ is the input
# (inc.cpp and kinc.cpp include it).
# Every output a command names is out.* (none may exist afterwards).
readers=(
	"so|$bin/q7-prelink -o out.q7pl @IN@"
	"so|$bin/q7-prelink --check @IN@"
	"so|$bin/q7-pkg-loadlib @IN@ -o out.packed.so -s out.stripped.so"
	"so|$bin/q7-run --target=host --list @IN@"
	"so|$bin/q7-run --target=emulated --list @IN@"
	"so|$q7cc --q7-memory-map @IN@ -o out.svg"
	"npy|$bin/q7-run --target=host libkh.so k @IN@ -o out.npy"
	"cpp|$q7cc --q7-toolchain=gnu --q7-lint @IN@"
	"cpp|$q7cc --q7-toolchain=gnu -c @IN@ -o out.o"
	"cpp|$q7cc --q7-toolchain=gnu --q7-print-schema @IN@"
	"rsp|$q7cc --q7-toolchain=gnu -c k.cpp -o out.o @@IN@"
	"h|$q7cc --q7-toolchain=gnu -include @IN@ -c k.cpp -o out.o"
	"h|$q7cc --q7-toolchain=gnu -c inc.cpp -o out.o"
	"h|$q7cc --q7-toolchain=gnu --q7-lint inc.cpp"
	"h|$q7cc --q7-toolchain=gnu -c kinc.cpp -o out.o"
	"o|$q7cc --q7-toolchain=gnu --q7-print-schema @IN@"
	"o|$q7cc --q7-toolchain=gnu -shared -o out.so k.o @IN@"
	"schemas|$q7cc --q7-print-schema @IN@"
)

n=0
for r in "${readers[@]}"; do
	ext=${r%%|*} cmd=${r#*|}
	rm -f "fifo.$ext" "zero.$ext"
	mkfifo "fifo.$ext"
	ln -s /dev/zero "zero.$ext"
	ins=(/dev/zero "zero.$ext" "fifo.$ext")
	# Without .cpp, /dev/zero is no source to q7cc (nor to the compiler).
	[ "$ext" = cpp ] && ins=("zero.$ext" "fifo.$ext")
	for in in "${ins[@]}"; do
		# inc.cpp: a source that includes the input; kinc.cpp: a kernel
		# first, then the include (the pre-scan goes on after the mark).
		printf '#include "%s"\n#include <q7/kernel.h>\nint f(int x);\n' "$in" > inc.cpp
		{ cat k.cpp; printf '#include "%s"\n' "$in"; } > kinc.cpp
		line=${cmd//@IN@/$in}
		# shellcheck disable=SC2086 # the command's words
		(ulimit -v 2000000; timeout 20 $line) > /dev/null 2> err
		rc=$?
		[ $rc = 124 ] && fail "$line: no answer within 20 s (it waits on the FIFO)"
		[ $rc = 1 ] || [ $rc = 74 ] || fail "$line: status $rc, want 1 or 74: $(cat err)"
		grep -qE -- "((^|: )(\./)?$in: cannot (read|open)[a-z ]*|inc.cpp: includes (\./)?$in): not a regular file" err ||
			fail "$line: no error naming $in: $(cat err)"
		ls out.* > /dev/null 2>&1 && fail "$line: wrote $(ls out.*)"
		n=$((n + 1))
	done
	rm -f "fifo.$ext"
done
echo "$n refusals, ${#readers[@]} readers"
