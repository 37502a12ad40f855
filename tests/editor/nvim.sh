#!/bin/sh
# editor.nvim: Neovim (Debian's, headless) with docs/editors.md's init.lua
# (the first lua block under "## Neovim": what a reader copies) against
# q7cc-clangd on a kernel file whose compile command is q7cc-gnu's; then
# nvim.lua drives the editor and checks what it shows.
#   nvim.sh STAGE WORKDIR
set -eu
stage=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v nvim > /dev/null || fail "nvim is not installed (Debian package neovim; scripts/setup-deps)"
rm -rf "$work"
mkdir -p "$work/proj"
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
	XDG_STATE_HOME="$work/state"
cat > "$work/proj/k.cpp" <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>

Q7_KERNEL torch::Tensor scale(const torch::Tensor &x, float *by)
{
	int unused = nope;
	return x;
}
CPP
cat > "$work/proj/compile_commands.json" <<JSON
[{"directory": "$work/proj", "file": "k.cpp",
  "arguments": ["$stage/bin/q7cc-gnu", "-O2", "-c", "k.cpp", "-o", "k.o"]}]
JSON
page=$(dirname "$0")/../../docs/editors.md
awk '/^## Neovim/ { on = 1 } on && /^```lua/ { take = 1; next } take && /^```/ { exit }
	take { print }' "$page" > "$work/init.lua"
grep -q start_client "$work/init.lua" || fail "$page: no Neovim init.lua block under '## Neovim'"
status=0
(cd "$work/proj" && PATH="$stage/bin:$PATH" Q7_FILE="$work/proj/k.cpp" Q7_OUT="$work/result" \
	timeout 120 nvim --headless -u "$work/init.lua" -i NONE \
	-c "luafile $(cd "$(dirname "$0")" && pwd)/nvim.lua" > "$work/nvim.log" 2>&1) || status=$?
cat "$work/result" 2>/dev/null || { cat "$work/nvim.log"; fail "nvim wrote no result (status $status)"; }
[ "$status" = 0 ] && grep -qx ok "$work/result" || { cat "$work/nvim.log"; fail "nvim: status $status"; }
