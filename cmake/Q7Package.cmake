# Packages: `cpack -G DEB` and `cpack -G TGZ` in the build folder. The
# package installs to /usr (CPACK_PACKAGING_INSTALL_PREFIX); q7cc finds its
# files from its executable, so the tree works wherever it is unpacked.
# The .deb is a Debian package as a packager ships one: lintian reports no
# error (cmake/debian/lintian-overrides names each rule that cannot apply,
# with the reason), every program has a manual page, q7cc.torch is in
# Debian's python3 path and removing the package leaves nothing
# (e2e.deb_package). Q7PackageFix.cmake finishes the packaged tree.
set(CPACK_PACKAGE_NAME q7cc)
set(CPACK_PACKAGE_VENDOR "q7cc")
set(Q7CC_DEB_MAINTAINER "q7cc maintainers <maintainers@q7cc.invalid>" CACHE STRING
    "The .deb's Maintainer (name <address>; the default names no real address: set it for a release)")
set(CPACK_PACKAGE_CONTACT "${Q7CC_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${Q7CC_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "compiler driver for GPSIMD custom operators (stands in for xt-clang++)")
# The extended description (CPack puts the summary before it and indents
# each line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "q7cc builds AWS Neuron GPSIMD (Xtensa) custom-operator libraries in place
of the vendor's xt-clang++: it finds the kernels and their schemas, writes
the dispatch wrapper, links, strips and packs the device image. With the
free Xtensa toolchain it builds images that run on an emulated core
(QEMU), and it builds the same kernels for the host. q7-run runs a
kernel, and the q7cc.torch Python package loads custom ops into PyTorch.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES OFF) # Q7PackageFix.cmake strips, keeping .note.q7cc
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# What q7cc runs and loads at run time, as Debian 12 names it: libclang for
# the analysis plugin; the gnu profile's toolchain and C library (the image
# link); QEMU for the emulated core; a host C++ compiler for the host
# profile; libelf, libtorch and Python's torch for the PyTorch bridge;
# zlib, which q7cc's own copy of libelf calls.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, zlib1g, libclang1-14, gcc-xtensa-lx106, binutils-xtensa-lx106, picolibc-xtensa-lx106-elf, qemu-system-misc, g++, libelf1, libjson-c5, libtorch1.13, python3, python3-torch")
# clang++ compiles q7cc.torch's shape files from a precompiled torch
# header in about 2 s (GCC's takes a minute to build and 8-10 s a file).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/Q7PackageFix.cmake)
# For Q7PackageFix.cmake, which CPack runs with its own variables.
set(CPACK_Q7_STRIP ${CMAKE_STRIP})
find_program(Q7CC_XTENSA_STRIP xtensa-lx106-elf-strip)
set(CPACK_Q7_XTENSA_STRIP ${Q7CC_XTENSA_STRIP})
set(CPACK_Q7_LIBDIR ${CMAKE_INSTALL_LIBDIR})
set(CPACK_GENERATOR "TGZ;DEB")
include(CPack)

# The Debian files every install carries (share/doc/q7cc: the copyright
# and, gzip -9n as Debian wants it, the changelog; the lintian overrides).
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${CMAKE_BINARY_DIR}/debian/changelog
               @ONLY)
find_program(Q7CC_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.gz
  COMMAND ${Q7CC_GZIP} -9nf -k ${CMAKE_BINARY_DIR}/debian/changelog
  DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog VERBATIM)
add_custom_target(q7cc_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.gz)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${CMAKE_BINARY_DIR}/debian/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/q7cc)
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/lintian-overrides.in
               ${CMAKE_BINARY_DIR}/debian/lintian-overrides @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/debian/lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME q7cc)

# Manual pages and the user docs: Q7Docs.cmake.
