#!/bin/bash
# Of examples/ops built twice (e2e.distcc_build, e2e.icecc_build): the
# objects' records and the packed images of the distributed build must be
# the local build's, byte for byte, and deep_sum keep its stack size.
#   same_as_local.sh STAGE_BIN LOCAL_BUILD_DIR OTHER_BUILD_DIR
set -euo pipefail
bin=$1 local=$2 other=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in $(cd "$local" && find . -name '*.cpp.o'); do
	readelf -x .q7.ops "$local/$o" > "$tmp/a.rec" 2>&1
	readelf -x .q7.ops "$other/$o" > "$tmp/b.rec" 2>&1
	grep -q '^  0x' "$tmp/a.rec" || fail "$local/$o has no records"
	cmp -s "$tmp/a.rec" "$tmp/b.rec" || { diff "$tmp/a.rec" "$tmp/b.rec"; fail "$o: the records differ"; }
done
for img in libops.packed.so libdeep.packed.so; do
	[ -f "$other/$img" ] || fail "$other/$img missing"
	cmp "$local/$img" "$other/$img" || fail "$img differs from the local build's"
done
"$bin/q7cc" --q7-print-schema --q7-format=json "$other/CMakeFiles/deep.dir/deep.cpp.o" > "$tmp/deep.json"
grep -q '"name": "deep_sum"' "$tmp/deep.json" && grep -q '"stack_size": 2097152' "$tmp/deep.json" ||
	fail "deep_sum or its stack size lost: $(cat "$tmp/deep.json")"
