# SPDX-License-Identifier: MIT
# Run at build time (cmake -P) by report/CMakeLists.txt: writes OUT, a header
# holding the commit the source tree SOURCE_DIR is at and whether its tracked
# files differ from it, so a report names the sources its binary was built
# from (the binary keeps no path to the tree). OUT is rewritten only when
# its text changes, so an unchanged commit recompiles nothing.
set(commit "")
set(modified 0)
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse HEAD
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(commit "")
  else()
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" status --porcelain
                            --untracked-files=no
      OUTPUT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT status STREQUAL "")
      set(modified 1)
    endif()
  endif()
endif()
set(text "/* generated at build time by cmake/source_commit.cmake */\n#define XPBD_GIT_COMMIT \"${commit}\"\n#define XPBD_GIT_MODIFIED ${modified}\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
