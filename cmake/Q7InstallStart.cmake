# Run first by every install of q7cc's own component (install(CODE) in
# CMakeLists.txt sets the lists): the install is a fresh tree, and its
# uninstall can undo it.
# - Removes the folders only q7cc installs into (<libdir>/q7cc,
#   include/q7cc, share/q7cc, ...; q7cc.torch's is python/CMakeLists.txt's),
#   so that an install over an older one leaves none of the older one's
#   files that this one no longer has.
# - Adds to <build>/install_created_dirs.txt the shared folders
#   (bin, share/man/man1, ...) that did not exist, and so this install
#   creates; the uninstall target removes them again when they are empty
#   (cmake/Q7Uninstall.cmake).
#   Q7_OWNED_DIRS, Q7_SHARED_DIRS: folders relative to the prefix;
#   Q7_CREATED_LIST: the list file.
set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
foreach(d IN LISTS Q7_OWNED_DIRS)
  if(IS_DIRECTORY "${root}/${d}" AND NOT IS_SYMLINK "${root}/${d}")
    file(REMOVE_RECURSE "${root}/${d}")
  endif()
endforeach()
set(created "")
if(EXISTS "${Q7_CREATED_LIST}")
  file(STRINGS "${Q7_CREATED_LIST}" created)
endif()
foreach(d IN ITEMS "" ${Q7_SHARED_DIRS})
  string(REGEX REPLACE "/$" "" path "${root}/${d}")
  if(NOT EXISTS "${path}")
    list(APPEND created "${path}")
  endif()
endforeach()
list(REMOVE_DUPLICATES created)
list(JOIN created "\n" text)
file(WRITE "${Q7_CREATED_LIST}" "${text}\n")
