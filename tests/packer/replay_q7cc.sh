#!/bin/sh
# e2e.packer.replay_q7cc: the replay of docs/vendor-flow.md's "Pack recipe" on images linked by q7cc
# itself: build examples/ops/relu.cpp with q7cc (single core, and the
# multicore cpu0/cpu7 images), then replay the vendor recipe on the .so q7cc
# linked and compare with the .stripped.so / .packed.so q7cc made of it.
# Needs the whole gnu profile (driver, runtime, LSPs) to work.
# Usage: replay_q7cc.sh STAGE_BIN SRC_DIR LSP_DIR ROOT
. "$(dirname "$0")/lib.sh"
ROOT=$4
check() { # IMAGE BASE
	replay "$1" vendor.stripped.so vendor.packed.so
	$UTIL compare "$2.stripped.so" vendor.stripped.so || fail "$1: stripped image differs from the replay"
	$UTIL symbytes "$2.packed.so" lib_func "$2.stripped.so" || fail "$1: packed bytes"
	[ "$($UTIL symbol "$2.packed.so" lib_func)" = "$($UTIL symbol vendor.packed.so lib_func)" ] ||
		fail "$1: lib_func differs from ld -r's"
}
"$STAGE_BIN/q7cc" -shared -o relu.so "$ROOT/examples/ops/relu.cpp" || fail "q7cc could not build relu.so"
check relu.so relu
mkdir mc
"$STAGE_BIN/q7cc" --q7-multicore -shared -o mc/relu.so "$ROOT/examples/ops/relu.cpp" || fail "q7cc multicore"
for i in 0 7; do check mc/relu_cpu$i.so mc/relu_cpu$i; done
echo "replay_q7cc: q7cc's own images equal the vendor recipe"
