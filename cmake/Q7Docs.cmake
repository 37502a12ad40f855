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
