# Packages: `cpack -G DEB` and `cpack -G TGZ` in the build folder. The
# package installs to /usr (CPACK_PACKAGING_INSTALL_PREFIX); q7cc finds its
# files from its executable, so the tree works wherever it is unpacked.
# The .debs (q7cc and python3-q7cc) are Debian packages as a packager
# ships them: lintian reports no error (cmake/debian/lintian-overrides
# names each rule that cannot apply, with the reason), every program has a
# manual page, q7cc.torch is in Debian's python3 path and removing the
# packages leaves nothing (e2e.deb_package). Q7PackageFix.cmake finishes
# the packaged trees.
set(CPACK_PACKAGE_NAME q7cc)
set(CPACK_PACKAGE_VENDOR "q7cc")
set(Q7CC_DEB_MAINTAINER "q7cc maintainers <maintainers@q7cc.invalid>" CACHE STRING
    "The .deb's Maintainer (name <address>; the default names no real address: set it for a release)")
set(CPACK_PACKAGE_CONTACT "${Q7CC_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${Q7CC_DEB_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES OFF) # Q7PackageFix.cmake strips, keeping .note.q7cc
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SOURCE q7cc)
# Two .debs, one per install component: q7cc (the compiler driver, the
# runtime, q7-run, the language server) and python3-q7cc (q7cc.torch,
# the PyTorch bridge and its kit: the PyTorch half), so a compiler-only
# install pulls in no PyTorch. The .tar.gz holds both.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL q7cc python)
set(CPACK_DEBIAN_Q7CC_PACKAGE_NAME q7cc)
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-q7cc)
set(CPACK_DEBIAN_Q7CC_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PYTHON_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
# Each package's description, its first line the synopsis (CPack indents
# the others). CPACK_PACKAGE_DESCRIPTION_SUMMARY stays CPack's default: any
# other would be put before both packages' descriptions.
set(CPACK_DEBIAN_Q7CC_DESCRIPTION "compiler driver for GPSIMD custom operators (stands in for xt-clang++)
q7cc builds AWS Neuron GPSIMD (Xtensa) custom-operator libraries in place
of the vendor's xt-clang++: it finds the kernels and their schemas, writes
the dispatch wrapper, links, strips and packs the device image. With the
free Xtensa toolchain it builds images that run on an emulated core
(QEMU), and it builds the same kernels for the host. q7-run runs a
kernel; q7cc-clangd is its language server.")
set(CPACK_DEBIAN_PYTHON_DESCRIPTION "PyTorch bridge for q7cc custom operators
The q7cc.torch Python package loads custom operators that q7cc built
into PyTorch, builds them from a Python script and runs them on the host
or on the emulated GPSIMD core, through the bridge library libq7torch.so.")
# Run-time dependencies: what the programs and libraries link, versioned,
# from dpkg-shlibdeps (libc6, libstdc++6, libgcc-s1, zlib1g, libclang1-14
# through the analysis plugin, libjson-c5; libtorch and libelf for the
# bridge), and what q7cc runs: the gnu profile's toolchain and C library
# (the image link), QEMU for the emulated core, a host C++ compiler for
# the host profile; Python's torch for q7cc.torch; libdw1, which
# memmap/elf_lines.c loads for an emulated fault's source line (dlopen:
# dpkg-shlibdeps does not see it).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_Q7CC_PACKAGE_DEPENDS
    "gcc-xtensa-lx106, binutils-xtensa-lx106, picolibc-xtensa-lx106-elf, qemu-system-misc, g++, libdw1")
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "q7cc (= ${PROJECT_VERSION}), python3, python3-torch")
# q7cc-clangd runs clangd; clang++ compiles q7cc.torch's shape files from
# a precompiled torch header in about 2 s (GCC's takes a minute to build
# and 8-10 s a file).
set(CPACK_DEBIAN_Q7CC_PACKAGE_RECOMMENDS "clangd")
set(CPACK_DEBIAN_Q7CC_PACKAGE_SUGGESTS "python3-q7cc")
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "clang")
# Up to 0.1.0 one package, q7cc, held q7cc.torch too: python3-q7cc takes
# those files over from it (Replaces), and an older q7cc must be upgraded
# with it (Breaks; Debian policy 7.6.1), so an upgrade from the single
# package installs (e2e.deb_package installs over a q7cc 0.1.0 that owns
# a file of q7cc.torch). The split came with 0.1.1.
set(CPACK_DEBIAN_PYTHON_PACKAGE_REPLACES "q7cc (<< 0.1.1~)")
set(CPACK_DEBIAN_PYTHON_PACKAGE_BREAKS "q7cc (<< 0.1.1~)")
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/Q7PackageFix.cmake)
# For Q7PackageFix.cmake, which CPack runs with its own variables.
set(CPACK_Q7_STRIP ${CMAKE_STRIP})
find_program(Q7CC_XTENSA_STRIP xtensa-lx106-elf-strip)
set(CPACK_Q7_XTENSA_STRIP ${Q7CC_XTENSA_STRIP})
set(CPACK_Q7_LIBDIR ${CMAKE_INSTALL_LIBDIR})
set(CPACK_GENERATOR "TGZ;DEB")
include(CPack)

# The Debian files every install carries (share/doc/<package>: the
# copyright and, gzip -9n as Debian wants it, the changelog; the lintian
# overrides).
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${CMAKE_BINARY_DIR}/debian/changelog
               @ONLY)
find_program(Q7CC_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.gz
  COMMAND ${Q7CC_GZIP} -9nf -k ${CMAKE_BINARY_DIR}/debian/changelog
  DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog VERBATIM)
add_custom_target(q7cc_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.gz)
foreach(pair q7cc:q7cc python3-q7cc:python)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 pkg)
  list(GET pair 1 component)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${CMAKE_BINARY_DIR}/debian/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg} COMPONENT ${component})
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/lintian-overrides.in
               ${CMAKE_BINARY_DIR}/debian/lintian-overrides @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/debian/lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME q7cc)

# Manual pages and the user docs: Q7Docs.cmake.
