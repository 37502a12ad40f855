# The user docs: docs/*.md and their images, staged as
# <prefix>/share/doc/q7cc (so the build tree's messages cite pages that are
# there, as an install's do: q7_doc_path) and installed there.
set(Q7CC_STAGE_DOC ${Q7CC_STAGE}/${CMAKE_INSTALL_DATADIR}/doc/q7cc)
file(GLOB q7_doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
file(GLOB q7_doc_images CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/images/*)
foreach(page ${q7_doc_pages} ${q7_doc_images})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/docs ${page})
  configure_file(${page} ${Q7CC_STAGE_DOC}/${rel} COPYONLY)
endforeach()
install(FILES ${q7_doc_pages} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/q7cc)
install(FILES ${q7_doc_images} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/q7cc/images)

# Manual pages (docs/man), gzip -9n, each other name of a program a link
# to its page. A program's page is made from its --help (Q7Man.cmake,
# docs/man/README.md), so it lists every option --help lists.
find_program(Q7CC_GZIP gzip REQUIRED)
set(q7_man_dir ${CMAKE_BINARY_DIR}/man)
file(MAKE_DIRECTORY ${q7_man_dir})
# page:program:its help option (a program of the stage's bin/)
set(q7_man_made q7cc:q7cc:--q7-help q7-run:q7-run:--help q7-prelink:q7-prelink:--help
    q7-pkg-loadlib:q7-pkg-loadlib:--help q7cc-clangd:q7cc-clangd:--help)
set(q7_man_gz)
foreach(made ${q7_man_made})
  string(REPLACE ":" ";" made "${made}")
  list(GET made 0 m)
  list(GET made 1 tool)
  list(GET made 2 help)
  set(src ${PROJECT_SOURCE_DIR}/docs/man/${m}.1)
  add_custom_command(OUTPUT ${q7_man_dir}/${m}.1.gz
    COMMAND ${CMAKE_COMMAND} -DTOOL=${Q7CC_STAGE_BIN}/${tool} -DHELP_ARG=${help}
            -DVERSION=${PROJECT_VERSION} -DPAGE=${src} -DOUT=${q7_man_dir}/${m}.1
            -P ${PROJECT_SOURCE_DIR}/cmake/Q7Man.cmake
    COMMAND ${Q7CC_GZIP} -9nf -k ${q7_man_dir}/${m}.1
    DEPENDS ${src} ${PROJECT_SOURCE_DIR}/cmake/Q7Man.cmake q7cc q7cc-clangd VERBATIM)
  list(APPEND q7_man_gz ${q7_man_dir}/${m}.1.gz)
endforeach()
foreach(m q7cc-icecc-env)
  set(src ${PROJECT_SOURCE_DIR}/docs/man/${m}.1)
  add_custom_command(OUTPUT ${q7_man_dir}/${m}.1.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${src} ${q7_man_dir}/${m}.1
    COMMAND ${Q7CC_GZIP} -9nf -k ${q7_man_dir}/${m}.1
    DEPENDS ${src} VERBATIM)
  list(APPEND q7_man_gz ${q7_man_dir}/${m}.1.gz)
endforeach()
add_custom_target(q7cc_man ALL DEPENDS ${q7_man_gz})
set(q7_man_links)
foreach(pair xt-clang++:q7cc q7cc-xt:q7cc q7cc-gnu:q7cc q7cc-host:q7cc q7cc-gnu-g++:q7cc
             q7cc-host-g++:q7cc q7cc-gnu-gcc:q7cc q7cc-host-gcc:q7cc
             xt-pkg-loadlib:q7-pkg-loadlib)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 page)
  file(CREATE_LINK ${page}.1.gz ${q7_man_dir}/${name}.1.gz SYMBOLIC)
  list(APPEND q7_man_links ${q7_man_dir}/${name}.1.gz)
endforeach()
install(FILES ${q7_man_gz} ${q7_man_links} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
