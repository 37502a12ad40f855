# q7-run's library (q7_run_main), linked into the q7cc executable.
# runtime/run/emulated.c (the emulated target) replaces the placeholder.
set(q7run_sources run/run.c run/npy.c run/image.c run/host.c)
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/run/emulated.c)
  list(APPEND q7run_sources run/emulated.c)
else()
  list(APPEND q7run_sources run/emulated_placeholder.c)
endif()
add_library(q7run STATIC ${q7run_sources})
target_include_directories(q7run PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/run
                           ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_link_libraries(q7run PUBLIC q7support Threads::Threads ${CMAKE_DL_LIBS} m)
