# q7_add_custom_op and q7_install_custom_op: custom-op device images built
# by q7cc in any CMake project, whatever its own C++ compiler (g++ for a
# project that also builds a PyTorch extension, say). The project's CXX
# never sees the kernels: each source is one custom command that runs
# q7cc-<profile> (with a depfile, so header changes rebuild it), and one
# more links them, declaring every file the link writes, so that CMake
# knows them all (`clean`, dependencies) and installs the right ones.
# Loaded by q7ccConfig.cmake; docs/driver.md, "The CMake package".
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/q7cc-images.cmake")
# Functions keep the policies of their definition: 3.20's whatever the
# calling project asks for (CMP0116: Ninja rewrites the depfiles' paths).
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# The driver for a profile: q7cc-<profile> beside the package's q7cc, or
# q7cc itself (its own choice: Q7_TOOLCHAIN, detection) for "".
function(_q7cc_driver out toolchain)
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/q7cc-layout.cmake")
  get_filename_component(bin
    "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${_q7cc_layout_up}/${_q7cc_layout_bindir}" ABSOLUTE)
  if(toolchain)
    set(${out} "${bin}/q7cc-${toolchain}" PARENT_SCOPE)
  else()
    set(${out} "${bin}/q7cc" PARENT_SCOPE)
  endif()
endfunction()

# True when q7cc's rule for "-g among the flags" (no strip, no pack) holds
# for opts: the last -g option decides, -g0 turns it off, and --q7-pack
# packs anyway.
function(_q7cc_debug out)
  set(debug FALSE)
  set(pack FALSE)
  foreach(opt IN LISTS ARGN)
    if(opt STREQUAL "-g0")
      set(debug FALSE)
    elseif(opt MATCHES "^-g")
      set(debug TRUE)
    elseif(opt STREQUAL "--q7-pack")
      set(pack TRUE)
    endif()
  endforeach()
  if(pack)
    set(debug FALSE)
  endif()
  set(${out} ${debug} PARENT_SCOPE)
endfunction()

# Sets out to the paths given, made absolute from the current source folder.
function(_q7cc_absolute out)
  set(paths "")
  foreach(path IN LISTS ARGN)
    get_filename_component(path "${path}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND paths "${path}")
  endforeach()
  set(${out} "${paths}" PARENT_SCOPE)
endfunction()

# The object of src in objdir: its path below the current source folder,
# with each ".." made "__" so that sources from elsewhere stay apart.
function(_q7cc_object out objdir src)
  file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${src}")
  string(REPLACE "../" "__/" rel "${rel}")
  string(REPLACE ":" "_" rel "${rel}")
  set(${out} "${objdir}/${rel}.o" PARENT_SCOPE)
endfunction()

# lib<name>.shape.so from the shape sources (out: its path), built by
# q7cc.torch as custom_op.load() builds it.
function(_q7cc_shape_library out name shapes)
  if(NOT shapes)
    message(FATAL_ERROR "q7_add_custom_op(${name}): TORCH_SHAPE_LIBRARY without SHAPE_SOURCES")
  endif()
  set(python "${Q7CC_TORCH_PYTHON}")
  if(NOT python)
    set(python /usr/bin/python3)
  endif()
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/q7cc-layout.cmake")
  get_filename_component(pydir
    "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${_q7cc_layout_up}/lib/python" ABSOLUTE)
  set(lib "${CMAKE_CURRENT_BINARY_DIR}/lib${name}.shape.so")
  file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${lib}")
  add_custom_command(OUTPUT "${lib}"
    COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${pydir}"
            "${python}" -m q7cc.torch.shape_library -o "${lib}" ${ARGN} ${shapes}
    DEPENDS ${shapes}
    COMMENT "Building the shape library ${shown}"
    VERBATIM COMMAND_EXPAND_LISTS)
  set(${out} "${lib}" PARENT_SCOPE)
endfunction()

#[=[
q7_add_custom_op(<name> SOURCES <src>... [SHAPE_SOURCES <src>...] [MULTICORE]
                 [TOOLCHAIN xt|gnu|host] [INCLUDE_DIRECTORIES <dir>...]
                 [COMPILE_OPTIONS <opt>...] [TORCH_SHAPE_LIBRARY])

Builds lib<name>.so in the current binary folder with q7cc, and the files
its link writes: lib<name>.stripped.so and lib<name>.packed.so; with
MULTICORE, lib<name>.so is the manifest and each lib<name>_cpuN.so (N 0..7)
has its own. COMPILE_OPTIONS containing -g: no stripped or packed files
(q7cc's rule), unless --q7-pack is among them too. SHAPE_SOURCES are the vendor's shape files, whose
NEURON_LIBRARY blocks name the compute functions; they are compiled and
linked with the sources, as in examples/neuron_sample. TOOLCHAIN picks
q7cc-<profile>; else the variable Q7CC_TOOLCHAIN; else q7cc chooses.
COMPILE_OPTIONS go to every compile and to the link (which compiles the
generated wrapper). Relative paths are from the current source folder.
TORCH_SHAPE_LIBRARY also builds lib<name>.shape.so from the SHAPE_SOURCES,
against the torch of the Python Q7CC_TORCH_PYTHON names (default
/usr/bin/python3), as custom_op.load() builds it: q7cc.torch's
load_library() of lib<name>.so then takes the ops' shape functions from
it (python3 -m q7cc.torch.shape_library; docs/torch.md).
The target <name> (built by `all`) has properties Q7CC_IMAGE, Q7CC_OUTPUTS,
Q7CC_MULTICORE, Q7CC_TOOLCHAIN, Q7CC_SOURCES and Q7CC_SHAPE_SOURCES.
#]=]
function(q7_add_custom_op name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "MULTICORE;TORCH_SHAPE_LIBRARY" "TOOLCHAIN"
    "SOURCES;SHAPE_SOURCES;INCLUDE_DIRECTORIES;COMPILE_OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "q7_add_custom_op(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "q7_add_custom_op(${name}): no SOURCES")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "q7_add_custom_op(${name}): a target ${name} exists already")
  endif()
  set(toolchain "${arg_TOOLCHAIN}")
  if(NOT toolchain AND Q7CC_TOOLCHAIN)
    set(toolchain "${Q7CC_TOOLCHAIN}")
  endif()
  if(toolchain AND NOT toolchain MATCHES "^(xt|gnu|host)$")
    message(FATAL_ERROR "q7_add_custom_op(${name}): TOOLCHAIN ${toolchain}: use xt, gnu or host")
  endif()
  _q7cc_driver(driver "${toolchain}")

  _q7cc_absolute(sources ${arg_SOURCES})
  _q7cc_absolute(shapes ${arg_SHAPE_SOURCES})
  _q7cc_absolute(includes ${arg_INCLUDE_DIRECTORIES})
  list(TRANSFORM includes PREPEND "-I")
  set(opts ${arg_COMPILE_OPTIONS})
  set(objdir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.q7cc")

  set(objects "")
  set(compiled "")
  foreach(src IN LISTS sources shapes)
    if(src IN_LIST compiled)
      continue()
    endif()
    list(APPEND compiled "${src}")
    _q7cc_object(obj "${objdir}" "${src}")
    # Make does not create an output's folder (the compiler writes the
    # depfile there first).
    get_filename_component(dir "${obj}" DIRECTORY)
    file(MAKE_DIRECTORY "${dir}")
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${obj}")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${driver}" ${opts} ${includes} -MD -MT "${obj}" -MF "${obj}.d"
              -c "${src}" -o "${obj}"
      DEPENDS "${src}"
      DEPFILE "${obj}.d"
      COMMENT "Building q7cc object ${shown}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND objects "${obj}")
  endforeach()

  set(image "${CMAKE_CURRENT_BINARY_DIR}/lib${name}.so")
  set(base "${CMAKE_CURRENT_BINARY_DIR}/lib${name}")
  set(mc "")
  set(flags "")
  if(arg_MULTICORE)
    set(mc MULTICORE)
    set(flags --q7-multicore)
  endif()
  _q7cc_debug(debug ${opts})
  set(packed PACKED)
  if(debug)
    set(packed "")
  endif()
  _q7cc_image_files(more "${base}" ${mc} ${packed})
  file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${image}")
  add_custom_command(OUTPUT "${image}" ${more}
    COMMAND "${driver}" -shared ${flags} ${opts} -o "${image}" ${objects}
    DEPENDS ${objects}
    COMMENT "Linking q7cc custom op ${shown}"
    VERBATIM COMMAND_EXPAND_LISTS)
  if(arg_TORCH_SHAPE_LIBRARY)
    _q7cc_shape_library(shape_lib "${name}" "${shapes}" ${includes})
    list(APPEND more "${shape_lib}")
  endif()
  add_custom_target(${name} ALL DEPENDS "${image}" ${more})
  # The depfiles too (Ninja drops them itself; Make keeps them).
  list(TRANSFORM objects APPEND ".d" OUTPUT_VARIABLE depfiles)
  set_property(TARGET ${name} PROPERTY ADDITIONAL_CLEAN_FILES ${depfiles})
  set_target_properties(${name} PROPERTIES
    Q7CC_IMAGE "${image}"
    Q7CC_OUTPUTS "${image};${more}"
    Q7CC_MULTICORE "${arg_MULTICORE}"
    Q7CC_PACKED "${packed}"
    Q7CC_TOOLCHAIN "${toolchain}"
    Q7CC_SOURCES "${sources}"
    Q7CC_SHAPE_SOURCES "${shapes}")
endfunction()

#[=[
q7_install_custom_op(<name> DESTINATION <dir> [COMPONENT <component>])

Installs what a loader takes of the custom op <name> (q7_add_custom_op):
the packed image lib<name>.packed.so, or with MULTICORE the eight
lib<name>_cpuN.packed.so and a manifest lib<name>.so that names them. A
host op (TOOLCHAIN host) or one built with -g is not loaded packed: its
image(s) lib<name>.so (lib<name>_cpuN.so and the manifest) are installed.
install(TARGETS) cannot do this: it knows only the file CMake linked.
#]=]
function(q7_install_custom_op name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESTINATION;COMPONENT" "")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_DESTINATION)
    message(FATAL_ERROR "q7_install_custom_op(${name} DESTINATION <dir> [COMPONENT <c>])")
  endif()
  if(NOT TARGET ${name})
    message(FATAL_ERROR "q7_install_custom_op(${name}): no target ${name}")
  endif()
  get_target_property(image ${name} Q7CC_IMAGE)
  if(NOT image)
    message(FATAL_ERROR "q7_install_custom_op(${name}): ${name} was not made by q7_add_custom_op")
  endif()
  get_target_property(multicore ${name} Q7CC_MULTICORE)
  get_target_property(packed ${name} Q7CC_PACKED)
  get_target_property(toolchain ${name} Q7CC_TOOLCHAIN)
  set(component "")
  if(arg_COMPONENT)
    set(component COMPONENT "${arg_COMPONENT}")
  endif()
  string(REGEX REPLACE "\\.so$" "" base "${image}")
  get_filename_component(stem "${base}" NAME)
  # What loads: a packed image on the device (and the emulated core); on
  # the host q7-run and the run engine dlopen the image itself.
  set(suffix ".packed.so")
  if(NOT packed OR toolchain STREQUAL "host")
    set(suffix ".so")
  endif()
  if(NOT multicore)
    install(FILES "${base}${suffix}" DESTINATION "${arg_DESTINATION}" ${component})
    return()
  endif()
  set(files "")
  set(manifest "q7cc-multicore 1\n")
  foreach(i RANGE 7)
    list(APPEND files "${base}_cpu${i}${suffix}")
    string(APPEND manifest "${stem}_cpu${i}${suffix}\n")
  endforeach()
  install(FILES ${files} DESTINATION "${arg_DESTINATION}" ${component})
  if(suffix STREQUAL ".so")
    install(FILES "${image}" DESTINATION "${arg_DESTINATION}" ${component})
  else()
    # The built manifest names the unpacked images; the installed one
    # names the packed images installed beside it.
    set(installed "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.q7cc/${stem}.installed-manifest")
    file(CONFIGURE OUTPUT "${installed}" CONTENT "${manifest}" @ONLY)
    install(FILES "${installed}" DESTINATION "${arg_DESTINATION}" RENAME "${stem}.so" ${component})
  endif()
endfunction()

cmake_policy(POP)
