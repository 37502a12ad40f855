#!/bin/sh
# e2e.neuron_sample_errors: a NEURON_LIBRARY shape file naming compute
# functions that live in other files, when that goes wrong at link time
# (each error names the m.def's place and no library is left behind), and
# when the compute function comes from an archive member.
#   neuron_sample_errors.sh Q7CC WORKDIR
set -eu
q7cc=$1 work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(dirname "$q7cc")
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7CC_REAL_CXX Q7CC_ACTIVE || true
export Q7_TOOLCHAIN=host

# shape.cpp naming FN (line 6 holds the m.def; "FN" starts at column 37).
shape() { # FILE FN
	cat > "$1" <<EOF
#include <torch/torch.h>
#include "torchneuron/register.h"
torch::Tensor shape_fn(torch::Tensor x) { return x; }
NEURON_LIBRARY(my_ops, m)
{
    m.def("op", &shape_fn, "$2");
}
EOF
}
cc() { "$q7cc" -c "$1" -o "${1%.cpp}.o"; }
# Links that must fail: the message, and no image left.
link_fails() { # NAME PATTERN OBJS...
	name=$1 pattern=$2
	shift 2
	"$q7cc" -shared -o "lib$name.so" "$@" 2> "$name.err" && fail "$name: the link succeeded"
	grep -q -- "$pattern" "$name.err" || { cat "$name.err"; fail "$name: no '$pattern'"; }
	[ ! -e "lib$name.so" ] || fail "$name: lib$name.so left behind"
}

cp "$root/examples/neuron_sample/relu.cpp" relu.cpp
cc relu.cpp

# Named, defined nowhere.
shape missing.cpp relu_missing
cc missing.cpp
link_fails missing \
	"missing.cpp:6:28: error: 'relu_missing' named by NEURON_LIBRARY at missing.cpp:6 is not defined in any object of this link \[-Wq7-undefined-kernel\]" \
	relu.o missing.o

# The same, its sources on the link line: the finding names the source,
# and no note names the temporary object its record was read from.
"$q7cc" -shared -o libmissing_src.so relu.cpp missing.cpp 2> missing_src.err &&
	fail "missing_src: the link succeeded"
grep -q "missing.cpp:6:28: error: 'relu_missing' named by NEURON_LIBRARY" missing_src.err ||
	{ cat missing_src.err; fail "missing_src: no finding at the m.def"; }
! grep -q "recorded in" missing_src.err || { cat missing_src.err; fail "missing_src: a temporary named"; }
"$q7cc" -shared -o libmissing_obj.so relu.o missing.o 2> missing_obj.err && fail "missing_obj: linked"
grep -q "note: this is recorded in missing.o" missing_obj.err ||
	{ cat missing_obj.err; fail "missing_obj: no note naming the object"; }

# Two functions of the name (overloads): both named.
cat > twice.cpp <<'EOF'
#include <torch/torch.h>
torch::Tensor twice(const torch::Tensor &x) { return x; }
torch::Tensor twice(const torch::Tensor &x, float s) { (void)s; return x; }
EOF
cc twice.cpp
shape twice_shape.cpp twice
cc twice_shape.cpp
link_fails twice "twice_shape.cpp:6:28: error: 'twice' named by NEURON_LIBRARY at .* has two definitions in this link" \
	twice.o twice_shape.o
grep -q "twice(const at::Tensor &) ('_Z5twiceRKN2at6TensorE' in twice.o)" twice.err || fail "twice: first definition not named"
grep -q "twice(const at::Tensor &, float) ('_Z5twiceRKN2at6TensorEf' in twice.o)" twice.err || fail "twice: second definition not named"

# A parameter a kernel cannot take: the usual rule, at the m.def.
cat > ptr.cpp <<'EOF'
#include <torch/torch.h>
torch::Tensor scale_ptr(const torch::Tensor &x, float *p) { (void)p; return x; }
EOF
cc ptr.cpp
shape ptr_shape.cpp scale_ptr
cc ptr_shape.cpp
link_fails ptr "ptr_shape.cpp:6:28: error: parameter 2 of kernel 'scale_ptr' (defined in ptr.o) has type 'float \*' (a pointer)" \
	ptr.o ptr_shape.o
grep -q "\[-Wq7-unsupported-param\]" ptr.err || fail "ptr: not the q7-unsupported-param rule"

# static: internal linkage, found but refused.
cat > st.cpp <<'EOF'
#include <torch/torch.h>
static torch::Tensor st_relu(const torch::Tensor &x) { return x; }
torch::Tensor (*keep)(const torch::Tensor &) = st_relu;
EOF
cc st.cpp
shape st_shape.cpp st_relu
cc st_shape.cpp
link_fails st "is defined in st.o with internal linkage" st.o st_shape.o

# The compute function in an archive member, in a namespace, with the
# other kinds: found there, and it runs.
cat > scale.cpp <<'EOF'
#include <torch/torch.h>
namespace ops {
torch::Tensor scale(const torch::Tensor &x, int64_t n, float s, bool neg)
{
    torch::Tensor out = torch::zeros(x.sizes(), torch::kFloat);
    auto a = x.accessor<float, 1>();
    auto o = out.accessor<float, 1>();
    for (int i = 0; i < x.sizes()[0]; i++)
        o[i] = (neg ? -a[i] : a[i]) * s + (float)n;
    return out;
}
}
EOF
cc scale.cpp
ar rcs libk.a scale.o relu.o
cat > both.cpp <<'EOF'
#include <torch/torch.h>
#include "torchneuron/register.h"
torch::Tensor relu_shape(torch::Tensor t_in) { return t_in; }
torch::Tensor scale_shape(torch::Tensor x, int64_t n, float s, bool neg) { return x; }
NEURON_LIBRARY(my_ops, m)
{
    m.def("relu", &relu_shape, "relu_forward");
    m.def("scale", &scale_shape, "ops::scale");
}
EOF
cc both.cpp
"$q7cc" -shared -o libboth.so both.o libk.a 2> both.err || { cat both.err; fail "link with an archive"; }
got=$("$q7cc" --q7-print-schema both.o libk.a)
want='my_ops::relu_forward(Tensor t_in) -> Tensor
my_ops::scale(Tensor x, int n, float s, bool neg) -> Tensor'
[ "$got" = "$want" ] || fail "schemas: '$got'"
python3 "$root/tests/e2e/npy.py" write in.npy
"$bin/q7-run" --target=host libboth.so scale in.npy 3 0.5 true -o out.npy || fail "q7-run scale"
[ "$(python3 "$root/tests/e2e/npy.py" read out.npy)" = "3.5 2 4.5 0.75" ] ||
	fail "scale gave $(python3 "$root/tests/e2e/npy.py" read out.npy)"
echo "ok: neuron_sample errors"
