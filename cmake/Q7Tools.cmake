# The tools the test suite needs, found in one way, so that no test drops
# out of ctest because a tool is missing (before, a test whose tool was absent silently left the suite).
#
#   q7_find_tool(VAR PACKAGE pkg NAMES name... [HINTS dir...])
#       find_program, then q7_need.
#   q7_need(VAR WHAT PACKAGE)
#       VAR (a found program, or a *_FOUND) must be true. When it is not:
#       with CI=true in the environment at configure time, a configure
#       error; otherwise a warning and a registered test missing.WHAT that
#       fails saying what is missing and which Debian package has it, so
#       ctest never passes with tests left out. scripts/setup-deps installs
#       every package named here.
function(q7_need var what package)
  if(${var})
    return()
  endif()
  set(msg "${what} not found: the tests that need it cannot run; install the Debian package ${package} (scripts/setup-deps does)")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "${msg}")
  endif()
  message(WARNING "${msg}")
  if(NOT TEST missing.${what})
    add_test(NAME missing.${what} COMMAND sh -c "echo \"$1\" >&2; exit 1" sh "${msg}")
  endif()
endfunction()

function(q7_find_tool var)
  cmake_parse_arguments(T "" "PACKAGE" "NAMES;HINTS" ${ARGN})
  find_program(${var} NAMES ${T_NAMES} HINTS ${T_HINTS})
  list(GET T_NAMES 0 what)
  q7_need(${var} ${what} ${T_PACKAGE})
endfunction()
