# Sourced by the autotools + libtool tests (libtool_build.sh,
# libtool_gnu.sh): expects $work; checks the tools, defines fail() and
# leaves the shell in a fresh $work/p, with no q7cc variables from the
# caller's environment.
fail() { echo "FAIL: $*" >&2; exit 1; }
for t in autoreconf libtoolize automake make; do
	command -v $t > /dev/null ||
		fail "$t is not installed (Debian packages autoconf, automake, libtool; scripts/setup-deps)"
done
rm -rf "$work"
mkdir -p "$work/p"
cd "$work/p" || exit 1
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true
