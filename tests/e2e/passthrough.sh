#!/bin/sh
# e2e.passthrough_host: a compile without kernels through q7cc-host is the
# real compiler's command, unchanged (docs/driver.md, "Pass-through"): the
# objects of a C++17 source (std::optional, the compiler's default
# standard, a global) and of a C source are byte for byte c++'s and cc's
# over several flag sets; -E gives the compiler's text, with no trailer; a
# one-step `q7cc-host x.cpp -o x` and `-c` build the same language. A
# C++17 CMake project (target_compile_features cxx_std_17) builds through
# CXX=q7cc-host into the objects CXX=c++ gives. A file with kernels gets
# q7cc's headers after the project's, -isystem included: a project's
# torch/torch.h is found before q7cc's.
#   passthrough.sh STAGE_BIN WORKDIR
set -eu
bin=$1 work=$2
ops=$(cd "$(dirname "$0")/../../examples/ops" && pwd)
q7="$bin/q7cc-host"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work" && cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true

cat > opt.cpp << 'EOF'
#include <cstdio>
#include <optional>
int counter = 3;
static std::optional<int> half(int x) { return x % 2 ? std::nullopt : std::optional<int>(x / 2); }
int main() { std::printf("%d\n", half(counter + 1).value_or(-1)); return 0; }
EOF
cat > h.c << 'EOF'
int table[4] = {1, 2, 3, 4};
int pick(int i) { switch (i) { case 0: return table[3]; case 1: return 7; case 2: return 9; case 3: return 11; default: return table[i & 3]; } }
EOF
# The outside projects' flag sets (CMake Release/Debug/RelWithDebInfo, a
# static library's, a shared one's, an explicit standard).
for flags in "" "-O2" "-O3 -DNDEBUG" "-O0 -g" "-O2 -g -DNDEBUG" "-fPIC -O2" "-std=gnu++17 -O2" \
	"-Wall -Wextra -O2 -fno-strict-aliasing"; do
	# shellcheck disable=SC2086
	"$q7" $flags -c opt.cpp -o q.o || fail "q7cc-host $flags -c opt.cpp"
	# shellcheck disable=SC2086
	c++ $flags -c opt.cpp -o g.o
	cmp -s q.o g.o || fail "q7cc-host $flags -c opt.cpp: not c++'s object"
	case $flags in *-std=*) ;; *)
		# shellcheck disable=SC2086
		"$q7" $flags -c h.c -o qc.o || fail "q7cc-host $flags -c h.c"
		# shellcheck disable=SC2086
		cc $flags -c h.c -o gc.o
		cmp -s qc.o gc.o || fail "q7cc-host $flags -c h.c: not cc's object" ;;
	esac
	# shellcheck disable=SC2086
	"$q7" $flags -E opt.cpp > q.ii && c++ $flags -E opt.cpp > g.ii
	cmp -s q.ii g.ii || fail "q7cc-host $flags -E opt.cpp: not c++'s text"
done
"$q7" -### -O2 -c opt.cpp -o q.o 2> line.txt
[ "$(head -1 line.txt)" = "$(command -v c++) -O2 -c -o q.o opt.cpp" ] ||
	fail "the command is not the compiler's: $(cat line.txt)"
# One step and two steps: the same language, the same program.
"$q7" opt.cpp -o one || fail "q7cc-host opt.cpp -o one"
"$q7" -c opt.cpp -o two.o && "$q7" two.o -o two || fail "q7cc-host -c, then the link"
[ "$(./one)" = 2 ] && [ "$(./two)" = 2 ] || fail "the programs print $(./one) and $(./two)"

# A file with kernels: -std=c++14 -fPIC (its library is shared), q7cc's
# headers after the project's -isystem folder, whose torch/torch.h (here
# passing on to the next one, q7cc's stand-in) is found first.
mkdir -p sys/torch
printf '#define PROJECT_TORCH 1\n#include_next <torch/torch.h>\n' > sys/torch/torch.h
{ cat "$ops/relu.cpp"; printf '#ifndef PROJECT_TORCH\n#error the torch.h of q7cc came first\n#endif\n'; } > kernel.cpp
"$q7" -isystem sys -O2 -c kernel.cpp -o kernel.o || fail "the kernel file"
readelf -S kernel.o | grep -q '\.q7\.ops' || fail "kernel.o has no records"
"$q7" -### -isystem sys -O2 -c kernel.cpp -o kernel.o 2> line.txt
inc=$(cd "$bin/../include/q7cc" && pwd)
[ "$(head -1 line.txt)" = "$(command -v c++) -std=c++14 -fPIC -O2 -isystem sys -idirafter $inc -c -o kernel.o kernel.cpp" ] ||
	fail "the kernel file's command: $(head -1 line.txt)"

# A C++17 CMake project, configured and built with c++ and with q7cc-host.
mkdir proj
cp opt.cpp proj/
cat > proj/CMakeLists.txt << 'EOF'
cmake_minimum_required(VERSION 3.16)
project(p17 CXX)
add_library(half STATIC opt.cpp)
target_compile_features(half PUBLIC cxx_std_17)
add_executable(app opt.cpp)
target_compile_features(app PRIVATE cxx_std_17)
EOF
for c in c++ "$q7"; do
	b=$work/build-$(basename "$c")
	CXX=$c cmake -S proj -B "$b" -DCMAKE_BUILD_TYPE=Release > "$b.log" 2>&1 ||
		{ cat "$b.log"; fail "configure with $c"; }
	cmake --build "$b" >> "$b.log" 2>&1 || { cat "$b.log"; fail "build with $c"; }
	[ "$("$b/app")" = 2 ] || fail "the app built with $c"
done
for o in half app; do
	cmp -s "build-c++/CMakeFiles/$o.dir/opt.cpp.o" "build-q7cc-host/CMakeFiles/$o.dir/opt.cpp.o" ||
		fail "the CMake project's $o object differs from c++'s"
done
echo "passthrough: ok"
