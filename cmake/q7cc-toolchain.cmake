# CMake toolchain file for cross builds of GPSIMD custom-op libraries with
# q7cc:  cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/q7cc/cmake/q7cc-toolchain.cmake
#
# Without it, CXX=q7cc (and CC=q7cc for C sources) works too (CMake's
# probes link plain executables, which q7cc passes through). It sets both
# the C and the C++ compiler. With it, CMake knows it is cross compiling:
# probes build static libraries, nothing tries to run target binaries, and
# find_* looks in the target's places only. add_library(SHARED) makes
# device images (platform module Platform/Q7CC.cmake beside this file),
# and `clean` removes every file their links write. q7cc's include folder
# goes on every compile line, so compile_commands.json
# (CMAKE_EXPORT_COMPILE_COMMANDS) is complete for clangd and clang-tidy.
#
# -DQ7CC_TOOLCHAIN=xt|gnu|host picks the profile, by the driver's name
# (q7cc-xt, q7cc-gnu, q7cc-host: compile lines then carry no q7cc option
# that clang-based tools would reject); else q7cc detects it.
set(CMAKE_SYSTEM_NAME Q7CC)
set(CMAKE_SYSTEM_PROCESSOR xtensa)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")

# Installed or staged: <prefix>/share/q7cc/cmake, beside the layout its
# build wrote (q7cc-layout.cmake); in the source tree: cmake/.
set(_q7cc_layout_up ../../..)
set(_q7cc_layout_bindir bin)
set(_q7cc_layout_includedir include)
include("${CMAKE_CURRENT_LIST_DIR}/q7cc-layout.cmake" OPTIONAL)
get_filename_component(_q7cc_prefix "${CMAKE_CURRENT_LIST_DIR}/${_q7cc_layout_up}" ABSOLUTE)
find_program(Q7CC_EXECUTABLE q7cc
  HINTS "${_q7cc_prefix}/${_q7cc_layout_bindir}" "${CMAKE_CURRENT_LIST_DIR}/../build/stage/bin"
  NO_DEFAULT_PATH REQUIRED)
get_filename_component(_q7cc_bin "${Q7CC_EXECUTABLE}" DIRECTORY)
if(Q7CC_TOOLCHAIN)
  if(NOT Q7CC_TOOLCHAIN MATCHES "^(xt|gnu|host)$")
    message(FATAL_ERROR "Q7CC_TOOLCHAIN=${Q7CC_TOOLCHAIN}: use xt, gnu or host")
  endif()
  set(CMAKE_CXX_COMPILER "${_q7cc_bin}/q7cc-${Q7CC_TOOLCHAIN}")
else()
  set(CMAKE_CXX_COMPILER "${Q7CC_EXECUTABLE}")
endif()
# C sources (helpers beside the kernels) go to the same driver, which
# compiles them with the profile's C compiler.
set(CMAKE_C_COMPILER "${CMAKE_CXX_COMPILER}")

# The folder q7cc adds to its own compiles (q7cc-images.cmake).
get_filename_component(_q7cc_real "${Q7CC_EXECUTABLE}" REALPATH)
get_filename_component(_q7cc_include "${_q7cc_real}/.." ABSOLUTE)
string(REGEX REPLACE "[^/]+" ".." _q7cc_bin_up "${_q7cc_layout_bindir}")
get_filename_component(_q7cc_include
  "${_q7cc_include}/${_q7cc_bin_up}/${_q7cc_layout_includedir}/q7cc" ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/q7cc-images.cmake")
_q7cc_standard_include("${_q7cc_include}" CXX)
_q7cc_standard_include("${_q7cc_include}" C)

# Probes make static libraries: no executable has to link for the target.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES Q7CC_TOOLCHAIN)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
