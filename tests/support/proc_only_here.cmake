# Fails when code outside support/ creates or waits for a process itself:
# support/proc is the one process layer (spawn, fork, wait), and the
# signal forwarding and the tracking of children rely on it.
#   cmake -DSRC=<source dir> -P proc_only_here.cmake
set(dirs wrapper analysis codegen packer prelink lsp runtime python editor run memmap model)
set(found "")
foreach(d ${dirs})
  file(GLOB_RECURSE files ${SRC}/${d}/*.c ${SRC}/${d}/*.cpp ${SRC}/${d}/*.h)
  foreach(f ${files})
    file(STRINGS ${f} hits REGEX "(^|[^A-Za-z0-9_])(posix_spawnp?|fork|vfork|waitpid|wait4|waitid)[ \t]*\\(")
    foreach(h ${hits})
      file(RELATIVE_PATH rel ${SRC} ${f})
      string(APPEND found "  ${rel}: ${h}\n")
    endforeach()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "process calls outside support/proc.c:\n${found}")
endif()
