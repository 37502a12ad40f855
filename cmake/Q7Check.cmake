# q7_check_test(NAME component SOURCES ... LIBS ...): a Check unit test.
function(q7_check_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} PkgConfig::CHECK)
  add_test(NAME unit.${name} COMMAND ${name})
endfunction()
