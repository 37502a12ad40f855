#!/bin/bash
# Through the real q7cc, in-process and through the analysis server:
# --q7-print-schema --q7-format=json lists each m.def of a NEURON_LIBRARY
# block under "neuron_library" (namespace, op, compute function, shape
# function when one is named and where the block's file defines it, and
# the m.def's own file, line, column), a lambda's too, and still lists
# them when the source has an #include that libclang cannot follow (its
# error said, exit status 1 as before).
#   neuron_library_json.sh Q7CC WORKDIR
set -u
q7cc=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SAVE_TEMPS || true
fail() { echo "FAIL: $*" >&2; exit 1; }
py=/usr/bin/python3

cat > shapes.cpp <<'EOF2'
#include <torch/torch.h>
#include "torchneuron/register.h"
namespace ops { torch::Tensor fwd_shape(torch::Tensor x); }
namespace ops {
torch::Tensor fwd_shape(torch::Tensor x) { return x; }
}
NEURON_LIBRARY(my_ops, m) {
    m.def("relu_forward", &ops::fwd_shape,
          "relu_forward");
    m.def("relu_backward",
          +[](torch::Tensor g, torch::Tensor x) { return x; },
          "relu_backward");
    m.def("not_a_request", &ops::fwd_shape, name_in_a_variable);
}
EOF2
# The same blocks behind a header that is nowhere.
{ echo '#include <no/such/header.h>'; cat shapes.cpp; } > broken.cpp

want() { # FILE LINE_SHIFT: the defs JSON must list (the shape function's
	# definition, not its declaration; a lambda has none)
	cat <<EOF2
my_ops|relu_forward|relu_forward|ops::fwd_shape|$1|$((8 + $2))|5|$1|$((5 + $2))
my_ops|relu_backward|relu_backward||$1|$((10 + $2))|5||0
EOF2
}
defs() { # JSON: its neuron_library, one line each
	$py -c 'import json, os, sys
for d in json.load(sys.stdin)["neuron_library"]:
    print("|".join(str(d[k]) if "file" not in k else os.path.basename(d[k])
                   for k in ("namespace", "op", "compute", "shape", "file", "line", "column",
                             "shape_file", "shape_line")))'
}

for server in 0 1; do
	export Q7CC_ANALYSIS_SERVER=$server
	q="$q7cc --q7-toolchain=host --q7-print-schema --q7-format=json"
	$q shapes.cpp > ok.json 2> ok.err || { cat ok.err; fail "server=$server: shapes.cpp"; }
	defs < ok.json > ok.txt || fail "server=$server: shapes.cpp: no neuron_library: $(cat ok.json)"
	want shapes.cpp 0 | diff -u - ok.txt || fail "server=$server: shapes.cpp's m.defs"

	$q broken.cpp > bad.json 2> bad.err
	rc=$?
	[ $rc = 1 ] || { cat bad.err; fail "server=$server: broken.cpp: exit $rc, not 1"; }
	grep -q "no/such/header.h" bad.err || { cat bad.err; fail "server=$server: the error is not said"; }
	defs < bad.json > bad.txt || fail "server=$server: broken.cpp: no neuron_library: $(cat bad.json)"
	want broken.cpp 1 | diff -u - bad.txt || fail "server=$server: broken.cpp's m.defs"
done
echo ok
