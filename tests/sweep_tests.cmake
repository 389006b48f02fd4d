# SPDX-License-Identifier: MIT
# End-to-end tests of `xpbd-report sweep` and `merge` (included from
# tests/CMakeLists.txt): tests/sweep_check.sh MODE, one CTest test a mode,
# each in its own directory under the build tree. sweep_record makes the
# replay file the replay mode varies.
if(TARGET xpbd-report)
  find_program(XPBD_SH sh REQUIRED)
  add_executable(sweep_record sweep_record.c)
  target_link_libraries(sweep_record PRIVATE xpbd::io)
  foreach(mode closed reference diverge shards replay figure errors mesh list)
    add_test(NAME sweep.${mode}
      COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/sweep_check.sh ${mode}
              $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/sweep-${mode}
              $<TARGET_FILE:sweep_record>)
    set_tests_properties(sweep.${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                         LABELS "report;sweep")
  endforeach()
endif()
