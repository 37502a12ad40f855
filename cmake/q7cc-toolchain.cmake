# CMake toolchain file for cross builds of GPSIMD custom-op libraries with
# q7cc:  cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/q7cc/cmake/q7cc-toolchain.cmake
#
# Without it, CXX=q7cc works too (CMake's probes link plain executables,
# which q7cc passes through). With it, CMake knows it is cross compiling:
# probes build static libraries, nothing tries to run target binaries, and
# find_* looks in the target's places only.
#
# Set Q7CC_TOOLCHAIN (xt, gnu or host) before including this file, or pass
# -DQ7CC_TOOLCHAIN=..., to pick the profile; else q7cc detects it.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR xtensa)

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
# Device images are shared libraries; Generic platforms disable them.
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS TRUE)
set(CMAKE_SHARED_LIBRARY_CREATE_CXX_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_CXX_FLAGS "-fpic")
set(CMAKE_SHARED_LIBRARY_PREFIX "lib")
set(CMAKE_SHARED_LIBRARY_SUFFIX ".so")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
