#!/bin/sh
# fuzz.packer: builds fuzz/fuzz_pack with clang-14 -fsanitize=fuzzer,address
# (the packer, support and model sources, straight from the tree, with
# support's install layout as its build's defaults: the packer never looks
# for q7cc's files) and runs it
# for a bounded time, seeded with the damaged-image corpus and good images
# (one of them with relocations that name symbols, for binding).
# Usage: fuzz.sh STAGE_BIN SRC_DIR LSP_DIR ROOT SECONDS
. "$(dirname "$0")/lib.sh"
ROOT=$4 SECS=${5:-20}
CLANG=$(command -v clang-14 || command -v clang) || { echo "no clang: cannot fuzz"; exit 1; }
$CLANG -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror \
	-fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined \
	-DQ7CC_BINDIR='"bin"' -DQ7CC_LIBDIR='"lib"' -DQ7CC_DATADIR='"share"' -DQ7CC_INCLUDEDIR='"include"' -DQ7CC_VERSION='"fuzz"' \
	-I"$ROOT/packer" -I"$ROOT/support" -I"$ROOT/model" -I"$ROOT/runtime/include" -I"$ROOT/lsp" \
	"$ROOT/fuzz/fuzz_pack.c" "$ROOT"/packer/*.c "$ROOT"/support/*.c "$ROOT"/model/*.c "$ROOT/lsp/memmap.c" \
	-lelf -o fuzz_pack
make_images
make_bind_image
mkdir seeds
$PY "$SRC/mkcorpus.py" xt.so seeds/xt > /dev/null
$PY "$SRC/mkcorpus.py" host.so seeds/host > /dev/null
$PY "$SRC/mkcorpus.py" xtw.so seeds/bind > /dev/null
cp xt.so host.so xtw.so seeds/
mkdir work
# -close_fd_mask=2: the packer's refusals would flood the log; crash
# reports still come out.
./fuzz_pack -max_total_time="$SECS" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
	-close_fd_mask=2 -print_final_stats=1 work seeds seeds/xt seeds/host seeds/bind 2>&1 | tail -12 > log || true
cat log
grep -q 'Done [0-9]* runs' log || fail "the fuzzer stopped early"
echo "fuzz: ok"
