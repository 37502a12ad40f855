#!/bin/sh
# e2e.neuron_sample_*: examples/neuron_sample, unchanged (its kernel file
# has no Q7_KERNEL mark; only shape.cpp's NEURON_LIBRARY block names the
# compute function), configured and built by CMake with CXX=q7cc, then run
# with q7-run and checked against values computed here.
#   neuron_sample.sh Q7CC PROFILE WORKDIR     (PROFILE: host or gnu)
# host runs with --target=host, gnu with --target=emulated.
set -eu
q7cc=$1 profile=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$root/examples/neuron_sample
npytool=$root/tests/runtime
bin=$(dirname "$q7cc")
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
unset Q7CC_REAL_CXX Q7CC_ACTIVE || true
export Q7_TOOLCHAIN="$profile"

# The sample really is unmarked: what makes it work is the shape file.
! grep -q "^[^/]*Q7_KERNEL" "$src"/*.cpp || fail "the sample has a Q7_KERNEL mark"
grep -q 'NEURON_LIBRARY' "$src/shape.cpp" || fail "shape.cpp lacks its NEURON_LIBRARY block"

build=$work/build
CXX="$q7cc" cmake -S "$src" -B "$build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
	> "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
lib=$build/librelu.so
[ -f "$lib" ] || fail "librelu.so missing"
[ -f "$build/librelu.packed.so" ] || fail "librelu.packed.so missing"

# The request travels in shape.cpp's object; the kernel file's has none.
objs=$build/CMakeFiles/relu.dir
"$q7cc" --q7-print-schema --q7-format=json "$objs/shape.cpp.o" > "$work/shape.json"
grep -q '"by_name_only": true' "$work/shape.json" || fail "no request in shape.cpp.o: $(cat "$work/shape.json")"
[ -z "$("$q7cc" --q7-print-schema "$objs/relu.cpp.o")" ] || fail "relu.cpp.o carries records"
# Both objects: the schema, with the shape function's parameter name.
got=$("$q7cc" --q7-print-schema "$objs/shape.cpp.o" "$objs/relu.cpp.o")
[ "$got" = "my_ops::relu_forward(Tensor t_in) -> Tensor" ] || fail "schema: '$got'"

target=host
[ "$profile" = host ] || target=emulated
python3 - "$work/in.npy" <<EOF
import sys
sys.path.insert(0, "$npytool")
import npytool
xs = [(-1) ** i * (i * 0.75 - 3.0) for i in range(37)] + [0.0, -0.0, 1e-30, -1e-30]
npytool.write(sys.argv[1], '<f4', (len(xs),), xs)
EOF
"$bin/q7-run" --target=$target "$lib" relu_forward "$work/in.npy" -o "$work/out.npy" ||
	fail "q7-run --target=$target relu_forward"
python3 - "$work/in.npy" "$work/out.npy" <<EOF
import sys
sys.path.insert(0, "$npytool")
import npytool
_, shape, xs = npytool.read(sys.argv[1])
descr, oshape, ys = npytool.read(sys.argv[2])
assert descr == '<f4' and oshape == shape, (descr, oshape)
want = [x if x > 0 else 0.0 for x in xs]
bad = [(i, x, y, w) for i, (x, y, w) in enumerate(zip(xs, ys, want)) if y != w]
assert not bad, bad[:5]
EOF
# The op list names it, with its TorchScript schema in NEURON_LIBRARY's
# namespace, and that qualified name runs it too (torch.ops.my_ops.relu_forward).
"$bin/q7-run" --target=$target "$lib" no_such_op "$work/in.npy" -o "$work/x.npy" \
	> /dev/null 2> "$work/list.err" && fail "an unknown op ran"
grep -q "its ops: my_ops::relu_forward(Tensor t_in) -> Tensor" "$work/list.err" ||
	fail "the op list lacks my_ops::relu_forward: $(cat "$work/list.err")"
"$bin/q7-run" --target=$target "$lib" my_ops::relu_forward "$work/in.npy" -o "$work/out2.npy" ||
	fail "q7-run --target=$target my_ops::relu_forward"
cmp -s "$work/out.npy" "$work/out2.npy" || fail "my_ops::relu_forward gave another result"
"$bin/q7-run" --target=$target "$lib" other::relu_forward "$work/in.npy" -o "$work/x.npy" \
	> /dev/null 2>&1 && fail "other::relu_forward ran"
echo "ok: neuron_sample $profile ($target)"
