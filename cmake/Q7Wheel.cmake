# The wheel's build (Q7CC_WHEEL, which pyproject.toml sets for
# scikit-build-core): the install's prefix is the Python environment's
# (the wheel's data), so q7cc.torch goes to that environment's
# site-packages, relative to the prefix as this Python lays it out
# (lib/python3.11/site-packages in a venv; docs/torch.md, "With pip").
# What the build needs from Debian is said here, by package: pip shows
# CMake's own errors as one long log, and a wheel without the Xtensa
# cross compiler would silently lack the emulated core's runtime.
option(Q7CC_WHEEL "Build for a wheel (pip install .): q7cc.torch in the Python's site-packages" OFF)
if(NOT Q7CC_WHEEL)
  return()
endif()
# Each build requirement with its Debian package, all missing named at
# once (pip shows only the first error of a build).
set(q7_wheel_debs "")
find_program(Q7CC_XTENSA_GXX xtensa-lx106-elf-g++)
find_program(q7_pkgconfig pkg-config)
find_path(q7_gelf gelf.h)
find_path(q7_jsonc json-c/json.h)
foreach(need "Q7CC_XTENSA_GXX;gcc-xtensa-lx106 binutils-xtensa-lx106 picolibc-xtensa-lx106-elf"
             "q7_pkgconfig;pkg-config" "q7_gelf;libelf-dev" "q7_jsonc;libjson-c-dev")
  list(GET need 0 var)
  list(GET need 1 debs)
  if(NOT ${var})
    list(APPEND q7_wheel_debs ${debs})
  endif()
endforeach()
set(q7_clang_inc /usr/lib/llvm-14/include)
if(Q7CC_LIBCLANG_INCLUDE)
  set(q7_clang_inc ${Q7CC_LIBCLANG_INCLUDE})
endif()
if(NOT EXISTS ${q7_clang_inc}/clang-c/Index.h)
  list(APPEND q7_wheel_debs libclang-14-dev)
endif()
if(q7_wheel_debs)
  list(JOIN q7_wheel_debs " " q7_wheel_list)
  message(FATAL_ERROR "q7cc: pip install needs the Debian packages ${q7_wheel_list} to build q7cc "
                      "(apt-get install ${q7_wheel_list}; scripts/setup-deps installs all)")
endif()
if(NOT Q7CC_PYTHON_DIR)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c
                  "import os, sysconfig; print(os.path.relpath(sysconfig.get_path('platlib'), sysconfig.get_path('data')))"
                  OUTPUT_VARIABLE q7_site OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE q7_rc)
  if(NOT q7_rc EQUAL 0 OR q7_site STREQUAL "" OR q7_site MATCHES "^\\.\\.")
    message(FATAL_ERROR "q7cc: ${Python3_EXECUTABLE}: cannot tell its site-packages relative to its prefix")
  endif()
  set(Q7CC_PYTHON_DIR "${q7_site}" CACHE STRING "q7cc.torch's install folder, relative to the prefix" FORCE)
endif()
