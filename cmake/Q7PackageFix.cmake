# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the installed tree of each
# package before it is packed:
# - strips the host programs and libraries as Debian does
#   (--strip-unneeded, no .comment; the .note.q7cc section by which a
#   q7cc knows another stays), and the debug sections of the Xtensa boot
#   program (its symbol table names its frames in profiles);
# - in the .deb, moves q7cc.torch to Debian's python3 path,
#   lib/python3/dist-packages, and says so in q7cc/_layout.py, when the
#   build was told to install it elsewhere (Q7CC_PYTHON_DIR).
# One tree, or (the .debs: one package per install component) one per
# component, <tmp>/<component>/usr.
set(roots "")
foreach(c IN ITEMS "" /q7cc /python)
  set(r "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${c}${CPACK_PACKAGING_INSTALL_PREFIX}")
  if(IS_DIRECTORY "${r}")
    list(APPEND roots "${r}")
  endif()
endforeach()
set(globs "")
foreach(r IN LISTS roots)
  list(APPEND globs "${r}/bin/*" "${r}/lib/*")
endforeach()
file(GLOB_RECURSE files LIST_DIRECTORIES false ${globs})
foreach(f ${files})
  if(IS_SYMLINK "${f}" OR f MATCHES "\\.(a|o)$")
    continue()
  endif()
  file(READ "${f}" magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "7f454c46")
    continue()
  endif()
  file(READ "${f}" machine OFFSET 18 LIMIT 2 HEX)
  if(machine STREQUAL "5e00") # EM_XTENSA
    set(cmd "${CPACK_Q7_XTENSA_STRIP}" --strip-debug)
  else()
    set(cmd "${CPACK_Q7_STRIP}" --strip-unneeded --remove-section=.comment)
  endif()
  execute_process(COMMAND ${cmd} "${f}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${f}: ${cmd} failed")
  endif()
endforeach()

# A build configured with Q7CC_PYTHON_DIR=lib/python installs q7cc.torch
# off Debian's path: the .deb moves it (the install otherwise puts it in
# Debian's folder itself: python/CMakeLists.txt).
foreach(root IN LISTS roots)
set(from "${root}/lib/python/q7cc")
if(CPACK_GENERATOR STREQUAL "DEB" AND IS_DIRECTORY "${from}")
  set(to "${root}/lib/python3/dist-packages")
  file(MAKE_DIRECTORY "${to}")
  file(RENAME "${from}" "${to}/q7cc")
  file(REMOVE_RECURSE "${root}/lib/python")
  file(READ "${to}/q7cc/_layout.py" layout)
  string(REPLACE "PYTHONDIR = \"lib/python\"" "PYTHONDIR = \"lib/python3/dist-packages\""
         layout "${layout}")
  file(WRITE "${to}/q7cc/_layout.py" "${layout}")
endif()
endforeach()
