# CMake platform module for q7cc cross builds (CMAKE_SYSTEM_NAME Q7CC, set
# by q7cc-toolchain.cmake): a Unix-like target whose shared libraries are
# q7cc's device images, each with the stripped, packed and per-core files
# its link writes registered for `clean` (q7cc-images.cmake).
include(Platform/UnixPaths)
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS TRUE)
set(CMAKE_SHARED_LIBRARY_PREFIX "lib")
set(CMAKE_SHARED_LIBRARY_SUFFIX ".so")
set(CMAKE_SHARED_MODULE_PREFIX "lib")
set(CMAKE_SHARED_MODULE_SUFFIX ".so")
# C and C++ alike: C sources are helpers linked into the same images.
foreach(lang C CXX)
  set(CMAKE_SHARED_LIBRARY_CREATE_${lang}_FLAGS "-shared")
  set(CMAKE_SHARED_MODULE_CREATE_${lang}_FLAGS "-shared")
  set(CMAKE_SHARED_LIBRARY_${lang}_FLAGS "-fpic")
  set(CMAKE_SHARED_LIBRARY_SONAME_${lang}_FLAG "-Wl,-soname,")
endforeach()
set(CMAKE_EXECUTABLE_SUFFIX "")

include("${CMAKE_CURRENT_LIST_DIR}/../q7cc-images.cmake")
_q7cc_clean_images_at_end()
