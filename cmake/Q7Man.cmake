# Makes a manual page from a tool's own --help (docs/man/README.md): the
# hand-written page PAGE with its line `.\" @OPTIONS@` replaced by
# one .TP entry per row under "Options:" of what
#   TOOL HELP_ARG
# prints (support/args.h, q7_args_help), and @VERSION@ by VERSION. So the
# page lists exactly the options --help lists.
#   cmake -DTOOL=... -DHELP_ARG=--help -DVERSION=0.1.1 -DPAGE=docs/man/x.1 -DOUT=x.1
#         -P Q7Man.cmake
cmake_minimum_required(VERSION 3.20) # the policies: "@VERSION@" is text
execute_process(COMMAND ${TOOL} ${HELP_ARG} OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${HELP_ARG}: exit status ${rc}")
endif()
# roff: backslashes and dashes escaped, a leading dot or quote guarded.
function(q7_roff text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE ";" "@SEMICOLON@" help "${help}")
string(REPLACE "\n" ";" lines "${help}")
set(in_options FALSE)
set(roff "")
set(entry "")
set(desc "")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "Options:")
    set(in_options TRUE)
    continue()
  endif()
  if(NOT in_options)
    continue()
  endif()
  if(line MATCHES "^  (-[^ ]*([^ ]| [^ ])*)( +(.*))?$")
    # a new row: its spellings, then (on this line or the next) its help
    if(entry)
      string(APPEND roff ".TP\n.B ${entry}\n${desc}\n")
    endif()
    q7_roff("${CMAKE_MATCH_1}" entry)
    q7_roff("${CMAKE_MATCH_4}" desc)
    math(EXPR count "${count} + 1")
  elseif(line MATCHES "^    +(.*)$" AND entry)
    q7_roff("${CMAKE_MATCH_1}" more)
    string(STRIP "${desc} ${more}" desc)
  else()
    set(in_options FALSE)
  endif()
endforeach()
if(entry)
  string(APPEND roff ".TP\n.B ${entry}\n${desc}\n")
endif()
if(count EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${HELP_ARG}: no \"Options:\" rows to make ${OUT} from")
endif()

file(READ ${PAGE} page)
string(FIND "${page}" ".\\\" @OPTIONS@\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PAGE}: no line .\\\" @OPTIONS@ where the options go")
endif()
string(REPLACE ".\\\" @OPTIONS@\n" "${roff}" page "${page}")
string(REPLACE "@VERSION@" "${VERSION}" page "${page}")
string(REPLACE "@SEMICOLON@" ";" page "${page}")
file(WRITE ${OUT}.tmp "${page}")
file(RENAME ${OUT}.tmp ${OUT})
