# Sourced by the small host-profile tests (response_files.sh,
# preprocess_stream.sh): expects $work; leaves the shell in a fresh $work
# holding k.cpp, one kernel k(Tensor x) -> Tensor, with fail() defined and
# the analysis in-process (no server to outlive the test).
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
export Q7CC_ANALYSIS_SERVER=0
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL at::Tensor k(const at::Tensor &x) { return x; }
CPP
