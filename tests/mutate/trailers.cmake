# The trailer mutation harness: crafted q7cc -E trailers
# (findings' and ops' strings, results, profile words, tails) and
# self-referencing response files, each compiled by q7cc -c (host profile).
add_executable(trailmutate trailmutate.c)
target_link_libraries(trailmutate PRIVATE q7wrapper)
add_test(NAME e2e.mutate.trailers
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/trailers.sh ${Q7CC_STAGE_BIN}/q7cc-host
          $<TARGET_FILE:trailmutate> ${CMAKE_CURRENT_BINARY_DIR}/trailers)
set_tests_properties(e2e.mutate.trailers PROPERTIES TIMEOUT 300)
