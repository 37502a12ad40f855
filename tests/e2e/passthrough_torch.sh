#!/bin/sh
# e2e.passthrough_torch: a PyTorch C++ extension (find_package(Torch),
# Debian's libtorch-dev) builds through CXX=q7cc-host exactly as through
# CXX=c++: its <torch/torch.h> is libtorch's (q7cc adds no include folder
# to a file without kernels; docs/driver.md, "Pass-through"), and its
# object and library are c++'s, byte for byte.
#   passthrough_torch.sh STAGE_BIN WORKDIR
set -eu
bin=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/proj" && cd "$work"
unset Q7_TOOLCHAIN Q7CC_REAL_CXX Q7CC_REAL_CC Q7CC_ACTIVE || true
torch_dir=$(dirname "$(find /usr/lib /usr/share -path '*/Torch/TorchConfig.cmake' 2>/dev/null | head -1)")
[ -f "$torch_dir/TorchConfig.cmake" ] || fail "no TorchConfig.cmake (Debian package libtorch-dev)"
cat > proj/ext.cpp << 'EOF2'
#include <torch/torch.h>
torch::Tensor twice(const torch::Tensor &x) { return x * 2 + torch::ones_like(x); }
EOF2
cat > proj/CMakeLists.txt << 'EOF2'
cmake_minimum_required(VERSION 3.16)
project(ext CXX)
find_package(Torch REQUIRED)
add_library(ext SHARED ext.cpp)
target_link_libraries(ext "${TORCH_LIBRARIES}")
EOF2
for c in c++ "$bin/q7cc-host"; do
	b=$work/build-$(basename "$c")
	CXX=$c cmake -S proj -B "$b" -DTorch_DIR="$torch_dir" -DCMAKE_BUILD_TYPE=Release > "$b.log" 2>&1 ||
		{ cat "$b.log"; fail "configure with $c"; }
	cmake --build "$b" >> "$b.log" 2>&1 || { cat "$b.log"; fail "build with $c"; }
done
cmp -s build-c++/CMakeFiles/ext.dir/ext.cpp.o build-q7cc-host/CMakeFiles/ext.dir/ext.cpp.o ||
	fail "ext.cpp.o differs from c++'s"
cmp -s build-c++/libext.so build-q7cc-host/libext.so || fail "libext.so differs from c++'s"
echo "passthrough torch: ok"
