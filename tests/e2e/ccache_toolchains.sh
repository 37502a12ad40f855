#!/bin/sh
# e2e.ccache_toolchains: Debian's ccache in front of the toolchain-named
# drivers never serves one toolchain's object for another's compile.
#   ccache_toolchains.sh STAGE_BIN WORKDIR
# q7cc-host and q7cc-gnu compile one kernel file through one cache: each
# gets its own object (x86-64, Xtensa), a second round is all hits, each
# still its own toolchain's. Q7_TOOLCHAIN, which a cache cannot see, is
# refused under one (ccache then compiles without caching: the object is
# right, and nothing is stored under a key that another toolchain shares).
set -eu
bin=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v ccache >/dev/null || fail "ccache is not installed (Debian package ccache; scripts/setup-deps)"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE CCACHE_DISABLE CCACHE_RECACHE || true
export CCACHE_DIR="$work/cache" CCACHE_NOHASHDIR=1 CCACHE_LOGFILE="$work/ccache.log"
cat > k.cpp <<'CPP'
#include <torch/torch.h>
#include <q7/kernel.h>
Q7_KERNEL torch::Tensor ident(const torch::Tensor &x) { return x; }
CPP
class_of() { od -An -tx1 -j4 -N1 "$1" | tr -d ' '; } # EI_CLASS: 01 ELF32, 02 ELF64
machine_of() { od -An -tu2 -j18 -N2 "$1" | tr -d ' '; } # e_machine: 62 x86-64, 94 Xtensa
check() { # OBJ PROFILE
	case $2 in
	host) [ "$(class_of "$1")" = 02 ] && [ "$(machine_of "$1")" = 62 ] || fail "$1 is not an x86-64 object" ;;
	gnu) [ "$(class_of "$1")" = 01 ] && [ "$(machine_of "$1")" = 94 ] || fail "$1 is not an Xtensa object" ;;
	esac
	[ "$("$bin/q7cc" --q7-print-schema "$1")" = "ident(Tensor x) -> Tensor" ] || fail "$1 lost its record"
}
hits() { ccache --print-stats | awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ {n += $2} END {print n + 0}'; }
ccache -z >/dev/null
for round in 1 2; do
	for p in host gnu; do
		ccache "$bin/q7cc-$p" -c k.cpp -o "$p$round.o" || fail "round $round, q7cc-$p"
		check "$p$round.o" "$p"
	done
	[ "$round" = 1 ] && [ "$(hits)" != 0 ] && fail "round 1 hit the empty cache"
done
[ "$(hits)" = 2 ] || fail "round 2: $(hits) hits, want 2"
cmp -s host1.o host2.o && cmp -s gnu1.o gnu2.o || fail "a hit differs from its miss"
# The environment: the same name, the same arguments, another toolchain.
before=$(hits)
Q7_TOOLCHAIN=host ccache "$bin/q7cc" -c k.cpp -o env.o || fail "Q7_TOOLCHAIN=host through ccache"
check env.o host
[ "$(hits)" = "$before" ] || fail "Q7_TOOLCHAIN=host was served from the cache"
# ccache logs q7cc's refusal (exit 2, a usage error) of its preprocessing run.
grep -q "Preprocessor gave exit status 2" ccache.log ||
	fail "q7cc did not refuse the environment's toolchain under ccache"
# Without a cache the environment still chooses.
Q7_TOOLCHAIN=host "$bin/q7cc" -c k.cpp -o plain.o || fail "Q7_TOOLCHAIN=host without ccache"
check plain.o host
echo "ccache: ok"
