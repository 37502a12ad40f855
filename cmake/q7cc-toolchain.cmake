# CMake toolchain file for cross builds of GPSIMD custom-op libraries with
# q7cc:  cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/q7cc/cmake/q7cc-toolchain.cmake
#
# Without it, CXX=q7cc works too (CMake's probes link plain executables,
# which q7cc passes through). With it, CMake knows it is cross compiling:
# probes build static libraries, nothing tries to run target binaries, and
# find_* looks in the target's places only. add_library(SHARED) makes
# device images (platform module Platform/Q7CC.cmake beside this file).
#
# -DQ7CC_TOOLCHAIN=xt|gnu|host picks the profile; else q7cc detects it.
set(CMAKE_SYSTEM_NAME Q7CC)
set(CMAKE_SYSTEM_PROCESSOR xtensa)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")

# Installed: <prefix>/share/q7cc/cmake; in the source tree: cmake/.
get_filename_component(_q7cc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(Q7CC_EXECUTABLE q7cc
  HINTS "${_q7cc_prefix}/bin" "${CMAKE_CURRENT_LIST_DIR}/../build/stage/bin"
  REQUIRED)
set(CMAKE_CXX_COMPILER "${Q7CC_EXECUTABLE}")
if(Q7CC_TOOLCHAIN)
  set(CMAKE_CXX_FLAGS_INIT "--q7-toolchain=${Q7CC_TOOLCHAIN}")
endif()

# Probes make static libraries: no executable has to link for the target.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES Q7CC_TOOLCHAIN)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
