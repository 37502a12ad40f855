#!/bin/sh
# fuzz.pictures: builds fuzz/fuzz_pictures with clang-14
# -fsanitize=fuzzer,address,undefined (memmap, the profile's writers and
# support, straight from the tree) and runs it for a bounded time, seeded
# with device images with ops and the documented folded profile.
# Usage: fuzz.sh ROOT SEED... -- SECONDS
set -eu
ROOT=$1
shift
fail() { echo "FAIL: $*" >&2; exit 1; }
CLANG=$(command -v clang-14 || command -v clang) || fail "no clang: install clang-14 (scripts/setup-deps)"
T=$(mktemp -d "${TMPDIR:-/tmp}/q7-fuzz-pictures.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/seeds" "$T/work"
while [ "$1" != -- ]; do cp "$1" "$T/seeds/"; shift; done
SECS=$2
cd "$T"
$CLANG -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DQ7CC_BINDIR='"bin"' -DQ7CC_LIBDIR='"lib"' -DQ7CC_DATADIR='"share"' -DQ7CC_INCLUDEDIR='"include"' -DQ7CC_VERSION='"fuzz"' \
	-I"$ROOT/fuzz" -I"$ROOT/memmap" -I"$ROOT/profiler" -I"$ROOT/lsp" -I"$ROOT/support" -I"$ROOT/runtime/include" \
	"$ROOT/fuzz/fuzz_pictures.c" "$ROOT"/memmap/*.c "$ROOT/lsp/memmap.c" \
	"$ROOT/profiler/insn_profile.c" "$ROOT/profiler/flamegraph.c" "$ROOT/profiler/device_view.c" "$ROOT"/support/*.c \
	-lelf -lstdc++ -o fuzz_pictures
# -close_fd_mask=2: the readers' refusals would flood the log; crash
# reports still come out.
./fuzz_pictures -max_total_time="$SECS" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
	-close_fd_mask=2 -print_final_stats=1 work seeds 2>&1 | tail -12 > log || true
cat log
grep -q 'Done [0-9]* runs' log || fail "the fuzzer stopped early"
echo "fuzz: ok"
