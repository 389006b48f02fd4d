# SPDX-License-Identifier: MIT
# End-to-end tests of `xpbd-report sweep` and `merge` (included from
# tests/CMakeLists.txt): tests/sweep_check.sh MODE, one CTest test a mode,
# each in its own directory under the build tree. sweep_record makes the
# replay file the replay mode varies. sweep.readme_parallel runs the
# README's GNU parallel recipe as written (skipped without Debian's
# `parallel`).
if(TARGET xpbd-report)
  find_program(XPBD_SH sh REQUIRED)
  add_executable(sweep_record sweep_record.c)
  target_link_libraries(sweep_record PRIVATE xpbd::io)
  foreach(mode closed reference diverge refused shards stale replay figure errors mesh list)
    add_test(NAME sweep.${mode}
      COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/sweep_check.sh ${mode}
              $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/sweep-${mode}
              $<TARGET_FILE:sweep_record>)
    set_tests_properties(sweep.${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                         LABELS "report;sweep")
  endforeach()
  # The README's recipe: 8 shards of a 32 x 32 cloth's 35 points, each with
  # the reference run, then the unsharded sweep, about 2 CPU-minutes at -O2
  # (8 processes: alone); not in the sanitizer and emulated builds, where
  # it takes many times that
  if(NOT XPBD_SANITIZE AND NOT XPBD_EMULATE)
    add_test(NAME sweep.readme_parallel
      COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/sweep_check.sh readme_parallel
              $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/sweep-readme_parallel)
    set_tests_properties(sweep.readme_parallel PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                         RUN_SERIAL TRUE LABELS "report;sweep")
  endif()
endif()
