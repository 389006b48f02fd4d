# SPDX-License-Identifier: MIT
# End-to-end test of xpbd-report (included from tests/CMakeLists.txt).
#
#   report.quick    runs `xpbd-report --quick --out <build>/tests/report-quick`
#                   and checks exit status, every table named by --list (columns
#                   and rows), every check PASS (data/checks.tsv), report.md
#   report.figures  every figure as PNG and PDF, and report.pdf: no groff or
#                   tbl warning, A4 only, bookmarks, the summary, contents
#                   with the right page numbers, each line a link to its
#                   section; skipped (77) where gnuplot is missing
#   report.parallel sections run side by side (--jobs 2) write the same
#                   report.md and tables as run one by one (--jobs 1)
#   report.self_test `xpbd-report --self-test --quick`: every check's measured
#                   value moved just past its tolerance must fail
#   report.cli      refused command lines: an --only naming no section or an
#                   unknown one, exit 2 and nothing written
#   report.function_length no function in report/ longer than 150 lines
#                   (tests/function_length_check.sh, Universal Ctags; skipped
#                   without it)
#
# Both run tests/report_check.sh (POSIX sh + awk); the second reuses the
# first one's output through a fixture.
if(TARGET xpbd-report)
  find_program(XPBD_SH sh REQUIRED)
  set(XPBD_REPORT_TEST_OUT ${CMAKE_CURRENT_BINARY_DIR}/report-quick)
  add_test(NAME report.quick
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_check.sh data
            $<TARGET_FILE:xpbd-report> ${XPBD_REPORT_TEST_OUT})
  # the quick run takes seconds; sanitizer and emulated builds, several times that
  set_tests_properties(report.quick PROPERTIES
    FIXTURES_SETUP xpbd_report_out TIMEOUT 900 LABELS "report" RUN_SERIAL TRUE)
  add_test(NAME report.figures
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_check.sh figures
            $<TARGET_FILE:xpbd-report> ${XPBD_REPORT_TEST_OUT})
  set_tests_properties(report.figures PROPERTIES
    FIXTURES_REQUIRED xpbd_report_out SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "report")
  add_test(NAME report.parallel
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_check.sh parallel
            $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/report-parallel)
  set_tests_properties(report.parallel PROPERTIES TIMEOUT 300 LABELS "report")
  add_test(NAME report.self_test
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_check.sh self_test
            $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/report-self-test)
  set_tests_properties(report.self_test PROPERTIES TIMEOUT 900 LABELS "report" RUN_SERIAL TRUE)
  add_test(NAME report.cli
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_check.sh cli
            $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/report-cli)
  set_tests_properties(report.cli PROPERTIES TIMEOUT 60 LABELS "report")
  add_test(NAME report.function_length
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/function_length_check.sh ${PROJECT_SOURCE_DIR} 150 report)
  set_tests_properties(report.function_length PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "report")
endif()

# The installed tools, relocated, with the source and build trees hidden
# (tests/install_tools.sh): xpbd-report finds its scripts beside itself
if(TARGET xpbd-report)
  add_test(NAME install.tools
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/install_tools.sh ${CMAKE_COMMAND}
            ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} $<CONFIG>)
  set_tests_properties(install.tools PROPERTIES TIMEOUT 900 LABELS "install;report")
endif()

# Figures drawn for the page (tests/figure_layout_check.sh): every script's
# key outside the data area, a unit in every axis label, no plotted point
# outside the axis ranges, no text off the canvas, on the quick report's
# data; report.figure_layout_bad runs the same checks on a script made to
# break each rule once and requires every one reported
if(TARGET xpbd-report)
  add_test(NAME report.figure_layout
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/figure_layout_check.sh
            $<TARGET_FILE_DIR:xpbd-report>/../share/xpbd/plots ${XPBD_REPORT_TEST_OUT}/data
            ${CMAKE_CURRENT_BINARY_DIR}/figure-layout)
  set_tests_properties(report.figure_layout PROPERTIES
    FIXTURES_REQUIRED xpbd_report_out SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "report")
  add_test(NAME report.figure_layout_bad
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/figure_layout_check.sh --expect-fail
            $<TARGET_FILE_DIR:xpbd-report>/../share/xpbd/plots ${XPBD_REPORT_TEST_OUT}/data
            ${CMAKE_CURRENT_BINARY_DIR}/figure-layout-bad
            ${CMAKE_CURRENT_SOURCE_DIR}/data/figures/layout_bad.gp)
  set_tests_properties(report.figure_layout_bad PROPERTIES
    FIXTURES_REQUIRED xpbd_report_out SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "report")
endif()
# a data table cut short by a write error fails its section and the report
# and leaves no truncated table or .part (tests/report_write_error.sh)
if(TARGET xpbd-report)
  add_test(NAME report.write_error
    COMMAND ${XPBD_SH} ${CMAKE_CURRENT_SOURCE_DIR}/report_write_error.sh
            $<TARGET_FILE:xpbd-report> ${CMAKE_CURRENT_BINARY_DIR}/report-write-error)
  set_tests_properties(report.write_error PROPERTIES TIMEOUT 120 LABELS "report")
endif()
