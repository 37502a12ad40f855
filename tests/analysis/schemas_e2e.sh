#!/bin/bash
# Through the real q7cc: the schema set comes out the same from the source
# and from the object q7cc compiled it to (records carried by the object),
# with the ctypes of the profile's data model; a duplicate kernel across two
# files stops the link naming both places.
#   schemas_e2e.sh Q7CC FIXTURES WORKDIR PROFILE
set -u
q7cc=$1 fixtures=$2 work=$3 profile=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE Q7CC_SAVE_TEMPS || true
fail() { echo "FAIL: $*" >&2; exit 1; }
cp -r "$fixtures"/. .
q="$q7cc --q7-toolchain=$profile"

$q -c kernels.cpp -o k.o 2> cc.err || { cat cc.err; fail "compile"; }
$q --q7-print-schema kernels.cpp | LC_ALL=C sort > from_source.txt || fail "print-schema source"
$q --q7-print-schema k.o | LC_ALL=C sort > from_object.txt || fail "print-schema object"
diff -u kernels.schemas from_source.txt || fail "schemas from the source"
diff -u kernels.schemas from_object.txt || fail "schemas from the object"

# The wrapper's declarations must mangle like the definitions: int64_t is
# long long on the ILP32 device, long on x86-64.
want=long
[ "$profile" = host ] || want="long long"
$q --q7-print-schema --q7-format=json k.o > k.json || fail "json"
grep -q "\"name\": \"n\", \"type\": \"int\", \"kind\": \"long long\", \"ctype\": \"$want\"" k.json ||
	fail "from_header's int64_t is not '$want': $(grep -o '"name": "n"[^}]*' k.json)"

# A kernel in an inline namespace links: its symbol has the namespace, so
# the wrapper's declaration must name it (ops::v1::scale).
grep -q '"qualname": "ops::v1::scale"' k.json || fail "scale's qualname: $(grep -o '"name": "scale", "qualname": "[^"]*"' k.json)"
cat > inline.cpp <<'EOF2'
#include <torch/torch.h>
#include <q7/kernel.h>
namespace ops { inline namespace v1 {
Q7_KERNEL at::Tensor scale(at::Tensor x, bool flag) { return x; }
} }
EOF2
$q -c inline.cpp -o inline.o || fail "compile inline.cpp"
$q -shared inline.o -o libinline.so 2> inline.err || fail "link inline.o: $(cat inline.err)"

# Schema text (the vendor's grammar) reads and prints as TorchScript; the
# printed form reads back to itself; a bad line is an error at its place.
$q --q7-print-schema vendor.schemas > vendor.txt || fail "print-schema vendor.schemas"
diff -u vendor.expected vendor.txt || fail "vendor.schemas as TorchScript"
cp vendor.txt again.schemas
$q --q7-print-schema again.schemas | diff -u vendor.expected - || fail "TorchScript read back"
printf 'ok(Tensor x) -> Tensor\nbad(Tensor x, long y) -> Tensor\n' > bad.schemas
$q --q7-print-schema bad.schemas > bad.out 2> bad.err && fail "bad.schemas was taken"
grep -q "^bad.schemas:2:15: error: expected a type" bad.err || fail "bad.schemas: $(cat bad.err)"
[ "$(cat bad.out)" = "ok(Tensor x) -> Tensor" ] || fail "bad.schemas printed '$(cat bad.out)'"

# The same op name from two files: the link stops and names both.
$q -c dup/one.cpp -o one.o || fail "compile one"
$q -c dup/two.cpp -o two.o || fail "compile two"
$q -shared one.o two.o -o libdup.so 2> link.err && fail "the link took two kernels named relu"
grep -q "two.cpp:5:.*q7-duplicate-kernel" link.err || fail "no duplicate error at two.cpp:5: $(cat link.err)"
grep -q "one.cpp:4" link.err || fail "the other place (one.cpp:4) is not named: $(cat link.err)"
[ -e libdup.so ] && fail "a library was left"
exit 0
