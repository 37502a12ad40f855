# What CMake must be told about a project whose C++ (or C) compiler is q7cc,
# since q7cc cannot tell it through the compiler's interface:
#   - the files a device link writes beside the one named by -o (stripped,
#     packed and per-core images), so that `clean` removes them;
#   - q7cc's include folder, which q7cc adds to its compiles itself, on
#     every compile line, so that compile_commands.json is complete for
#     clangd and clang-tidy.
# Included by Platform/Q7CC.cmake (the toolchain file's platform) and by
# the q7cc package (find_package(q7cc) in a CXX=q7cc project); the list of
# a link's files also serves q7_add_custom_op (q7cc-custom-op.cmake).
# docs/driver.md ("The CMake package", "clangd and clang-tidy") says why
# a plain CXX=q7cc project cannot get either without one of those.
include_guard(GLOBAL)
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# Sets out to the files a q7cc device link of `<base>.so` writes besides
# <base>.so itself: MULTICORE adds the eight <base>_cpuN.so; PACKED adds
# each image's .stripped.so and .packed.so (what a link without -g
# writes). base may be a generator expression.
function(_q7cc_image_files out base)
  cmake_parse_arguments(PARSE_ARGV 2 arg "MULTICORE;PACKED" "" "")
  set(images "${base}")
  set(files "")
  if(arg_MULTICORE)
    set(images "")
    foreach(i RANGE 7)
      list(APPEND images "${base}_cpu${i}")
      list(APPEND files "${base}_cpu${i}.so")
    endforeach()
  endif()
  if(arg_PACKED)
    foreach(image IN LISTS images)
      list(APPEND files "${image}.stripped.so" "${image}.packed.so")
    endforeach()
  endif()
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# Sets out to q7cc's include folder when the project's compiler for lang
# (C or CXX) is q7cc (under any of its names): CMake found it among the
# compiler's implicit include folders, which it reads from the compiler's
# `-v` output (a device profile's), or a toolchain file already put it
# among the standard ones, or the compiler is the q7cc this package found
# (Q7CC_EXECUTABLE, links followed): the host profile names the folder
# only for a file that uses q7cc (docs/driver.md, "Pass-through"), and
# CMake's probe does not. Empty otherwise (a project whose CXX is g++).
function(_q7cc_compiler_include out lang)
  set(found "")
  foreach(dir IN LISTS CMAKE_${lang}_STANDARD_INCLUDE_DIRECTORIES
                       CMAKE_${lang}_IMPLICIT_INCLUDE_DIRECTORIES)
    if(dir MATCHES "/include/q7cc$")
      set(found "${dir}")
      break()
    endif()
  endforeach()
  if(NOT found AND Q7CC_EXECUTABLE AND Q7CC_INCLUDE_DIR AND CMAKE_${lang}_COMPILER)
    get_filename_component(compiler "${CMAKE_${lang}_COMPILER}" REALPATH)
    get_filename_component(mine "${Q7CC_EXECUTABLE}" REALPATH)
    if(compiler STREQUAL mine)
      set(found "${Q7CC_INCLUDE_DIR}")
    endif()
  endif()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Puts dir on every compile line of lang (C or CXX) in the calling scope
# and below: CMake appends standard include folders (as -isystem) after
# the project's own, where q7cc puts the folder itself, so the compile is
# the same and compile_commands.json names the folder.
macro(_q7cc_standard_include dir lang)
  if(NOT "${dir}" IN_LIST CMAKE_${lang}_STANDARD_INCLUDE_DIRECTORIES)
    list(APPEND CMAKE_${lang}_STANDARD_INCLUDE_DIRECTORIES "${dir}")
  endif()
endmacro()

# Registers, once per project, a call at the end of the top-level
# directory that gives every shared and module library the files its
# q7cc link writes beside it as ADDITIONAL_CLEAN_FILES. Whether a link is
# multicore (--q7-multicore may come from any flag variable or target) or
# packed (-g) is only known when it runs, so every name is listed;
# removing a file that is not there costs nothing.
function(_q7cc_clean_images_at_end)
  get_property(done GLOBAL PROPERTY _Q7CC_CLEAN_IMAGES)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _Q7CC_CLEAN_IMAGES 1)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL _q7cc_clean_images_in "${CMAKE_SOURCE_DIR}")
endfunction()

function(_q7cc_clean_images_in dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
      _q7cc_image_files(files
        "$<TARGET_FILE_DIR:${t}>/$<TARGET_FILE_PREFIX:${t}>$<TARGET_FILE_BASE_NAME:${t}>"
        MULTICORE PACKED)
      _q7cc_image_files(single
        "$<TARGET_FILE_DIR:${t}>/$<TARGET_FILE_PREFIX:${t}>$<TARGET_FILE_BASE_NAME:${t}>"
        PACKED)
      set_property(TARGET ${t} APPEND PROPERTY ADDITIONAL_CLEAN_FILES ${single} ${files})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _q7cc_clean_images_in("${sub}")
  endforeach()
endfunction()

# Warns when lang's compiler is q7cc under a name that chooses no profile
# (q7cc, xt-clang++) and CMAKE_<lang>_FLAGS choose one with
# --q7-toolchain=: builds CMake starts from this one keep only the
# compiler (ctest --build-and-test, ExternalProject), so they would build
# for the detected profile (docs/driver.md, "Nested builds").
function(_q7cc_warn_flag_profile lang)
  get_filename_component(name "${CMAKE_${lang}_COMPILER}" NAME)
  if(name MATCHES "^q7cc-" OR NOT " ${CMAKE_${lang}_FLAGS} " MATCHES " --q7-toolchain=([^ ]+) ")
    return()
  endif()
  message(WARNING "q7cc: CMAKE_${lang}_FLAGS choose the ${CMAKE_MATCH_1} profile "
          "(--q7-toolchain=${CMAKE_MATCH_1}), but the compiler, ${name}, names none: builds "
          "that CMake starts from this one (ctest --build-and-test, ExternalProject, "
          "try_compile of a project) keep only the compiler and would build for the detected "
          "profile. Name the profile's compiler instead (CXX=q7cc-${CMAKE_MATCH_1}), or use the "
          "toolchain file with -DQ7CC_TOOLCHAIN=${CMAKE_MATCH_1} (${Q7CC_DOC_DIR}/"
          [=[driver.md, "Nested builds").]=])
endfunction()

cmake_policy(POP)
