# SPDX-License-Identifier: MIT
# libFuzzer targets (included from tests/tests.cmake). Configure with the
# `fuzz` preset (clang 14, ASan + UBSan, XPBD_SANITIZE carrying
# fuzzer-no-link so the library is coverage-instrumented too), build the
# `xpbd-fuzz` target, run tests/fuzz/run.sh.
option(XPBD_FUZZ "Build the libFuzzer targets of tests/fuzz (clang only)" OFF)
if(XPBD_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "XPBD_FUZZ needs clang (libFuzzer): use the `fuzz` preset")
  endif()
  # the kernels' targets, then xpbd::io's (the replay reader, the mesh loaders)
  set(XPBD_FUZZ_TARGETS build engine step)
  set(XPBD_FUZZ_IO_TARGETS replay obj tetgen gmsh)
  add_custom_target(xpbd-fuzz)
  foreach(t IN LISTS XPBD_FUZZ_TARGETS XPBD_FUZZ_IO_TARGETS)
    add_executable(xpbd-fuzz-${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c)
    if(t IN_LIST XPBD_FUZZ_IO_TARGETS)
      target_link_libraries(xpbd-fuzz-${t} PRIVATE xpbd::io)
    else()
      target_link_libraries(xpbd-fuzz-${t} PRIVATE xpbd::xpbd)
    endif()
    if(XPBD_LIBM)
      target_link_libraries(xpbd-fuzz-${t} PRIVATE ${XPBD_LIBM})
    endif()
    target_link_options(xpbd-fuzz-${t} PRIVATE -fsanitize=fuzzer)
    add_dependencies(xpbd-fuzz xpbd-fuzz-${t})
  endforeach()
endif()
