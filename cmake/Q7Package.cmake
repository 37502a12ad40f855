# Packages: `cpack -G DEB` and `cpack -G TGZ` in the build folder. The
# package installs to /usr (CPACK_PACKAGING_INSTALL_PREFIX); q7cc finds its
# files from its executable, so the tree works wherever it is unpacked.
set(CPACK_PACKAGE_NAME q7cc)
set(CPACK_PACKAGE_VENDOR "q7cc")
set(CPACK_PACKAGE_CONTACT "q7cc maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "compiler driver for GPSIMD custom operators (stands in for xt-clang++)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES OFF)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What q7cc runs and loads at run time, as Debian 12 names it: libclang for
# the analysis plugin; the gnu profile's toolchain and C library (the image
# link); QEMU for the emulated core; a host C++ compiler for the host
# profile; libelf, libtorch and Python's torch for the PyTorch bridge.
# (libelf and zlib are linked into q7cc itself.)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libclang1-14, gcc-xtensa-lx106, binutils-xtensa-lx106, picolibc-xtensa-lx106-elf, qemu-system-misc, g++, libelf1, libjson-c5, libtorch1.13, python3, python3-torch")
set(CPACK_GENERATOR "TGZ;DEB")
include(CPack)
