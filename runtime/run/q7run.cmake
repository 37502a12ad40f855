# q7-run (q7_run_main) and the run engine (engine.h), linked into the q7cc
# executable and into the PyTorch bridge.
# runtime/run/emulated.c is the emulated target (prelinker + boot protocol).
add_library(q7run STATIC run/run.c run/npy.c run/image.c run/engine.c run/host.c run/host_elf.c run/host_fault.c run/host_iso.c run/emulated.c
            run/emu_session.c run/emu_confine.c run/result.c
            run/u64map.c run/insn_profile.c run/flamegraph.c run/emu_trace.c run/emu_profile.c run/memory_map_main.c)
target_include_directories(q7run PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/run
                           ${CMAKE_CURRENT_SOURCE_DIR}/include
                           PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/boot)
target_link_libraries(q7run PUBLIC q7prelink q7memmap q7support Threads::Threads ${CMAKE_DL_LIBS} m)
