# SPDX-License-Identifier: MIT
# Cross build for 64-bit ARM Linux (the neon path) with Debian's cross
# compiler, tests run under user-mode QEMU:
#
#   apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu \
#                   libc6-dev-arm64-cross qemu-user
#   cmake --workflow --preset ci-aarch64
#
# The library's threads are POSIX threads (libc6-dev-arm64-cross).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(XPBD_CROSS_TRIPLE aarch64-linux-gnu)
set(XPBD_CROSS_SYSROOT /usr/${XPBD_CROSS_TRIPLE})

set(CMAKE_C_COMPILER ${XPBD_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${XPBD_CROSS_TRIPLE}-g++)

# libraries and packages from the arm64 tree only; programs from the host.
# Headers from both: SIMDe (libsimde-dev) is header-only and lives in the
# host's /usr/include, which the cross gcc searches after its own
# /usr/aarch64-linux-gnu/include.
set(CMAKE_FIND_ROOT_PATH ${XPBD_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)

# CTest runs every test executable (and CMake's try_run) through it; -L
# points the ELF interpreter and the shared libraries at the arm64 tree.
# Cached, so that scripts (.ci/aarch64) run the build's programs the same way.
find_program(XPBD_QEMU_AARCH64 qemu-aarch64)
if(NOT XPBD_QEMU_AARCH64)
  message(FATAL_ERROR "qemu-aarch64 not found (Debian: apt-get install qemu-user)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR "${XPBD_QEMU_AARCH64};-L;${XPBD_CROSS_SYSROOT}" CACHE STRING
    "How the host runs the programs of this build")
