#!/bin/sh
# e2e.editors_*: clangd and clang-tidy (Debian's, LLVM 14) on the kernel
# files of tests/e2e/proj configured by CMake with
# CMAKE_EXPORT_COMPILE_COMMANDS=ON for one profile, three ways:
#   1. the toolchain file (-DQ7CC_TOOLCHAIN=PROFILE): no extra flags;
#   2. CXX=q7cc-PROFILE and find_package(q7cc) in the project: no extra flags;
#   3. CXX=q7cc-PROFILE alone: clangd --query-driver=<q7cc-PROFILE>, which
#      runs `q7cc-PROFILE -E -x c++ - -v` and takes its target and folders.
# Each file must give clangd --check "0 errors" and no error line, and
# clang-tidy -p (ways 1 and 2) exit 0 with no error.
#   editors.sh PROFILE STAGE WORKDIR     (PROFILE: host, gnu or xt)
# xt: the vendor's xt-clang++ is not on this machine; a stand-in runs
# Debian's Xtensa compiler under its name, without the vendor-only flags
# (as the gnu profile does), and the vendor tree ($NEURON_CUSTOM_OP) has
# its include folders, empty, so that the probe's order can be checked.
# CMake's probes then build static libraries (no vendor libraries to link
# executables with).
set -eu
profile=$1 stage=$2 work=$3
bin=$stage/bin
inc=$stage/include/q7cc
src=$(cd "$(dirname "$0")/proj" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in clangd clang-tidy; do
	command -v $tool > /dev/null ||
		fail "$tool is not installed (Debian package $tool; scripts/setup-deps)"
done
rm -rf "$work"
mkdir -p "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_ACTIVE || true
export XDG_CACHE_HOME="$work/cache"
driver=$bin/q7cc-$profile
extra=
if [ "$profile" = xt ]; then
	mkdir -p "$work/xt/XtensaTools/bin" "$work/neuron/torch/include" "$work/neuron/c10/include"
	cat > "$work/xt/XtensaTools/bin/xt-clang++" <<'EOF'
#!/bin/sh
for a do
	shift
	case $a in
	-stdlib=libc++-e|-mcoproc|--xtensa-core=*|--xtensa-system=*|--xtensa-params=*|-Wno-c99-designator) ;;
	*) set -- "$@" "$a" ;;
	esac
done
exec xtensa-lx106-elf-g++ "$@"
EOF
	chmod +x "$work/xt/XtensaTools/bin/xt-clang++"
	export XTENSA_TOOLS="$work/xt" NEURON_CUSTOM_OP="$work/neuron"
	extra=-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY
fi
files="$src/relu.cpp $src/scale.cpp $src/add.cpp"

configure() { # NAME CMAKE-ARGS...: configures proj into $work/NAME
	name=$1
	shift
	cmake -S "$src" -B "$work/$name" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" \
		> "$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "$name: configure"; }
	[ -f "$work/$name/compile_commands.json" ] || fail "$name: no compile_commands.json"
}

# clangd --check of each kernel file: "0 errors", no E[...] line.
check_clangd() { # NAME [CLANGD-FLAGS]
	name=$1
	shift
	for f in $files; do
		log="$work/$name.clangd.$(basename "$f").log"
		clangd --compile-commands-dir="$work/$name" "$@" --check="$f" > "$log" 2>&1 ||
			{ cat "$log"; fail "$name: clangd --check=$f: status $?"; }
		grep -q 'All checks completed, 0 errors' "$log" && ! grep -q '^E\[' "$log" ||
			{ grep -E '^E\[|errors' "$log"; fail "$name: clangd --check=$f"; }
	done
}

check_tidy() { # NAME
	log="$work/$1.tidy.log"
	# shellcheck disable=SC2086
	clang-tidy -p "$work/$1" $files > "$log" 2>&1 || { cat "$log"; fail "$1: clang-tidy: status $?"; }
	! grep -qE 'error:|Error while' "$log" || { cat "$log"; fail "$1: clang-tidy reported errors"; }
}

# 1. The toolchain file: the profile's driver by name, q7cc's folder as a
# standard include folder on every line.
configure toolchain -DQ7CC_TOOLCHAIN="$profile" $extra \
	-DCMAKE_TOOLCHAIN_FILE="$stage/share/q7cc/cmake/q7cc-toolchain.cmake"
grep -q "\"command\": \"$driver .*-isystem $inc " "$work/toolchain/compile_commands.json" ||
	{ cat "$work/toolchain/compile_commands.json"; fail "toolchain: the lines lack q7cc's folder"; }
! grep -q -- '--q7-' "$work/toolchain/compile_commands.json" ||
	fail "toolchain: a q7cc option on a compile line (clang would reject it)"
check_clangd toolchain
check_tidy toolchain

# 2. A plain CXX=q7cc-PROFILE project that calls find_package(q7cc).
CXX=$driver configure package -DE2E_FIND_PACKAGE=ON -DCMAKE_PREFIX_PATH="$stage" $extra
grep -q "\"command\": \"$driver .*-isystem $inc " "$work/package/compile_commands.json" ||
	{ cat "$work/package/compile_commands.json"; fail "package: the lines lack q7cc's folder"; }
check_clangd package
check_tidy package

# 3. CXX=q7cc-PROFILE alone: its compile lines hold only the project's
# flags; clangd asks the driver.
CXX=$driver configure plain $extra
check_clangd plain --query-driver="$driver" --log=verbose
log="$work/plain.clangd.relu.cpp.log"
want=arm-none-eabi
[ "$profile" = host ] && want=$(uname -m)-pc-linux-gnu
[ "$(uname -m)" = aarch64 ] && [ "$profile" = host ] && want=aarch64-unknown-linux-gnu
grep -q "got target: \"$want\"" "$log" || { cat "$log"; fail "plain: clangd took no target $want"; }
# The folders, in q7cc's order: the vendor's (xt), q7cc's, the compiler's;
# the host's q7cc folder after the compiler's (docs/driver.md,
# "Pass-through").
first=$inc
[ "$profile" = xt ] && first="$NEURON_CUSTOM_OP, $NEURON_CUSTOM_OP/torch/include, $NEURON_CUSTOM_OP/c10/include, $inc"
if [ "$profile" = host ]; then
	grep -q "got includes: \".*, $inc\"" "$log" || { grep 'got includes' "$log"; fail "plain: include order"; }
else
	grep -q "got includes: \"$first, " "$log" || { grep 'got includes' "$log"; fail "plain: include order"; }
fi
echo "ok: editors $profile"
