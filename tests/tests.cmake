# SPDX-License-Identifier: MIT
# The kernel core's CTest suite (included from tests/CMakeLists.txt).
#
#   xpbd-tests [--isa NAME] [PREFIX...]   one runner, tests filtered by name prefix
#
# CTest runs each group once, the cross-check groups once per ISA (an ISA
# the build or CPU lacks exits 77 = skipped), the install + find_package
# consumer test, and builds every public header alone as C11 and C++.

# The reference scenes (report/scenes.h) and xpbd-replay's check
# (report/replay_tool.h, over the installed reader xpbd/replay.h) normally
# come from report/ (targets xpbd_scenes, xpbd_replay_tool); a build without
# the report tools compiles them here. XPBD_TEST_SCENES and
# XPBD_TEST_REPLAY_TOOL name the library to link.
foreach(lib IN ITEMS scenes replay_tool)
  string(TOUPPER ${lib} LIB)
  if(TARGET xpbd_${lib})
    set(XPBD_TEST_${LIB} xpbd_${lib})
  else()
    add_library(xpbd_test_${lib} STATIC ${PROJECT_SOURCE_DIR}/report/${lib}.c)
    target_include_directories(xpbd_test_${lib} PUBLIC ${PROJECT_SOURCE_DIR}/report)
    target_link_libraries(xpbd_test_${lib} PUBLIC xpbd::io xpbd_precision)
    set(XPBD_TEST_${LIB} xpbd_test_${lib})
  endif()
endforeach()

add_executable(xpbd-tests
  test_main.c
  fixture.c
  test_s0.c
  test_cross.c
  test_isa.c
  test_colour.c
  test_chain.c
  test_bad.c
  test_contacts.c
  test_softbody.c
  test_engine_contract.c
  test_engine_tearing.c
  test_engine_split.c
  test_engine_sleeping.c
  test_engine_replay.c
  test_engine_replay_fields.c
  test_engine_counters.c
  test_engine_order.c
  test_engine_owned.c
  test_world.c
  test_contract.c
  test_catalogue.c
  test_mesh_topology.c)
target_link_libraries(xpbd-tests PRIVATE xpbd::xpbd xpbd_precision ${XPBD_TEST_SCENES}
                      ${XPBD_TEST_REPLAY_TOOL})
target_compile_definitions(xpbd-tests PRIVATE XPBD_TEST_PROJECT_VERSION="${PROJECT_VERSION}")
if(XPBD_LIBM)
  target_link_libraries(xpbd-tests PRIVATE ${XPBD_LIBM})
endif()

# --- CTest registration ------------------------------------------------------
# Groups that do not depend on the ISA under test run once (with the AUTO
# path); the ones that compare a path against the scalar reference or prove
# which path ran, once per ISA.
set(XPBD_TEST_GROUPS s0 colour chain bad contacts softbody world contract catalogue
    mesh_topology)
set(XPBD_TEST_ISA_GROUPS cross isa contacts_cross softbody_cross contract_cross)
set(XPBD_TEST_ISAS scalar sse4 avx2 avx512 neon)
# ISAs that must run wherever this build's tests run (the aarch64 preset:
# neon): their groups fail instead of being skipped when the runner reports
# the ISA missing (exit 77), so a build without the path cannot pass unseen
set(XPBD_TEST_REQUIRE_ISAS "" CACHE STRING
    "ISAs whose cross-check groups fail rather than skip if the build or CPU lacks them")

foreach(group IN LISTS XPBD_TEST_GROUPS)
  add_test(NAME ${group} COMMAND xpbd-tests ${group}.)
  set_tests_properties(${group} PROPERTIES TIMEOUT 300 LABELS "unit")
endforeach()
# --- threads ------------------------------------------------------------------
# Tests labelled "threads" run with XPBD_TEST_THREADS_ENV. Under
# XPBD_NUM_THREADS=4: the default executor's pool has 4 workers whatever
# the machine has (test_executor.c), so the threaded paths run on 2 cores.
set(XPBD_TEST_THREADS_ENV "XPBD_NUM_THREADS=4")
if(XPBD_SANITIZE MATCHES "thread")
  list(APPEND XPBD_TEST_THREADS_ENV "TSAN_OPTIONS=halt_on_error=1")
endif()
# The threaded tests run against a test-only static build of the library's
# own sources with the smallest shares a stage hands to another worker
# lowered to one item (step/step.h, contacts.c) and the team's first
# member waiting for the others before the first stage (team.c), so that
# every stage is cut for every member at the tests' sizes (a team can
# still be dismissed in its step: its thresholds are the shipped ones);
# the team's counts (XPBD__TEAM_STATS, exec.h) let the tests require that
# stages did run on several members. The shipped xpbd target keeps its
# measured thresholds, starts without waiting and counts nothing. Its
# runner holds the executor and threads groups only.
get_target_property(XPBD_LIB_SOURCES xpbd SOURCES)
get_target_property(XPBD_LIB_DEFS xpbd COMPILE_DEFINITIONS)
set(XPBD_LIB_SOURCE_PATHS)
foreach(src IN LISTS XPBD_LIB_SOURCES)
  if(src MATCHES "^\\$<")
    list(APPEND XPBD_LIB_SOURCE_PATHS ${src})
  else()
    list(APPEND XPBD_LIB_SOURCE_PATHS ${PROJECT_SOURCE_DIR}/${src})
  endif()
endforeach()
# A second build, xpbd_finegrain_dismiss, differs in team.c only: no wait
# for the whole team (members join mid-step, as in the shipped library) and
# every wait of the driver counted as a stall (XPBD__TEAM_STALL_NS=0), so
# that the team is dismissed in the step and the next steps rest: the
# threads group runs on it too (threads.dismiss).
set(XPBD_FINE_SOURCES ${XPBD_LIB_SOURCE_PATHS})
list(FILTER XPBD_FINE_SOURCES EXCLUDE REGEX "/team\\.c$")
set(XPBD_FINE_OBJECTS ${XPBD_FINE_SOURCES})
list(FILTER XPBD_FINE_OBJECTS INCLUDE REGEX "^\\$<")
list(FILTER XPBD_FINE_SOURCES EXCLUDE REGEX "^\\$<")
set(xpbd_fine_defs ${XPBD_LIB_DEFS} XPBD__MIN_PBLOCKS=1u XPBD__MIN_SBLOCKS=1u
    XPBD__MIN_BATCHES=1u XPBD__MIN_BODIES=1u XPBD__BP_MIN_CHUNKS=1u)
add_library(xpbd_finegrain_objs OBJECT ${XPBD_FINE_SOURCES} ${PROJECT_SOURCE_DIR}/report/scenes.c)
foreach(lib xpbd_finegrain_objs xpbd_finegrain xpbd_finegrain_dismiss)
  if(NOT lib STREQUAL "xpbd_finegrain_objs")
    add_library(${lib} STATIC $<TARGET_OBJECTS:xpbd_finegrain_objs> ${XPBD_FINE_OBJECTS}
                              ${PROJECT_SOURCE_DIR}/kernels/src/team.c)
  endif()
  target_include_directories(${lib} PUBLIC ${PROJECT_SOURCE_DIR}/kernels/include
                                           ${XPBD_GENERATED_INCLUDE}
                                           ${PROJECT_SOURCE_DIR}/report
                                    PRIVATE ${PROJECT_SOURCE_DIR}/kernels/src)
  target_link_libraries(${lib} PUBLIC xpbd_precision Threads::Threads)
  if(XPBD_LIBM)
    target_link_libraries(${lib} PUBLIC ${XPBD_LIBM})
  endif()
endforeach()
target_compile_definitions(xpbd_finegrain_objs PRIVATE ${xpbd_fine_defs})
target_compile_definitions(xpbd_finegrain PRIVATE ${xpbd_fine_defs} XPBD__TEAM_WAIT_ALL
                           PUBLIC XPBD__TEAM_STATS)
target_compile_definitions(xpbd_finegrain_dismiss PRIVATE ${xpbd_fine_defs}
                           XPBD__TEAM_STALL_NS=0 PUBLIC XPBD__TEAM_STATS XPBD__TEAM_DISMISS_BUILD)
add_executable(xpbd-threads-tests test_main.c fixture.c test_executor.c test_threads.c)
target_compile_definitions(xpbd-threads-tests PRIVATE XT_THREADS_RUNNER)
target_link_libraries(xpbd-threads-tests PRIVATE xpbd_finegrain Threads::Threads)
target_include_directories(xpbd-threads-tests PRIVATE ${PROJECT_SOURCE_DIR}/kernels/src)
add_executable(xpbd-threads-dismiss-tests test_main.c fixture.c test_executor.c test_threads.c)
target_compile_definitions(xpbd-threads-dismiss-tests PRIVATE XT_THREADS_RUNNER)
target_link_libraries(xpbd-threads-dismiss-tests PRIVATE xpbd_finegrain_dismiss Threads::Threads)
target_include_directories(xpbd-threads-dismiss-tests PRIVATE ${PROJECT_SOURCE_DIR}/kernels/src)
# the default executor on 4 threads whatever the machine has (test_executor.c)
add_test(NAME executor COMMAND xpbd-threads-tests executor.)
set_tests_properties(executor PROPERTIES TIMEOUT 300 LABELS "unit;threads"
                                         ENVIRONMENT "${XPBD_TEST_THREADS_ENV}")
# XPBD_NUM_THREADS malformed ("-1"): the default executor has no workers
# and a threaded step is refused (test_executor.c)
add_test(NAME executor_env.malformed COMMAND xpbd-threads-tests executor_env.)
set_tests_properties(executor_env.malformed PROPERTIES TIMEOUT 60 LABELS "unit;threads"
                                                ENVIRONMENT "XPBD_NUM_THREADS=-1")
# the step at threads 1, 2, 3, 4, 7 on every ISA, default and pthread executors (test_threads.c)
add_test(NAME threads COMMAND xpbd-threads-tests threads.)
set(xpbd_threads_env ${XPBD_TEST_THREADS_ENV})
if(XPBD_SANITIZE MATCHES "thread")
  list(APPEND xpbd_threads_env "XPBD_TEST_THREADS_QUICK=1") # one ISA, threads 2 and 7
endif()
set_tests_properties(threads PROPERTIES TIMEOUT 600 LABELS "unit;threads"
                     ENVIRONMENT "${xpbd_threads_env}")
# the same, one frame, one ISA, threads 2 and 7, on the build whose teams
# are dismissed at their first wait and whose next steps rest
add_test(NAME threads.dismiss COMMAND xpbd-threads-dismiss-tests threads.)
set_tests_properties(threads.dismiss PROPERTIES TIMEOUT 600 LABELS "unit;threads"
                     ENVIRONMENT "${XPBD_TEST_THREADS_ENV};XPBD_TEST_THREADS_QUICK=1")
foreach(group IN LISTS XPBD_TEST_ISA_GROUPS)
  foreach(isa IN LISTS XPBD_TEST_ISAS)
    add_test(NAME ${group}.${isa} COMMAND xpbd-tests --isa ${isa} ${group}.)
    set(xpbd_skip SKIP_RETURN_CODE 77)
    if(isa IN_LIST XPBD_TEST_REQUIRE_ISAS)
      set(xpbd_skip)
    endif()
    set_tests_properties(${group}.${isa} PROPERTIES ${xpbd_skip} TIMEOUT 300
                                                    LABELS "isa;${isa}")
  endforeach()
endforeach()

# --- the same scenes on every ISA and across machines -----------------------
# xpbd-scene-hash (scene_hash.c): a hash of the final state of a few fixed
# scenes per precision and ISA. Here: every ISA the CPU runs (the required
# ones named, so that a missing one fails) must give the scalar hashes;
# .ci/aarch64 compares x86 with arm64 under QEMU.
add_executable(xpbd-scene-hash scene_hash.c)
target_link_libraries(xpbd-scene-hash PRIVATE xpbd::xpbd xpbd_precision ${XPBD_TEST_SCENES})
set(xpbd_hash_isas)
if(XPBD_TEST_REQUIRE_ISAS)
  set(xpbd_hash_isas scalar ${XPBD_TEST_REQUIRE_ISAS})
endif()
add_test(NAME scene_hash.isas COMMAND xpbd-scene-hash --check ${xpbd_hash_isas})
set_tests_properties(scene_hash.isas PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "isa")

# --- no libm function whose result differs between libraries ----------------
# libm_check.sh: the library's objects (kernels on every ISA, the step, the
# engine, the meshes) call nothing of libm but sqrt, fabs, copysign and the
# roundings and conversions to integers; libm.probe shows the check refuses
# an object calling exp (libm_probe.c, compiled with the tests, not linked).
add_library(xpbd_libm_probe OBJECT libm_probe.c)
add_dependencies(xpbd-tests xpbd_libm_probe)
add_test(NAME libm.library
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/libm_check.sh ${CMAKE_NM} ${XPBD_LIBM} $<TARGET_FILE:xpbd>)
add_test(NAME libm.probe
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/libm_check.sh ${CMAKE_NM} ${XPBD_LIBM}
          $<TARGET_OBJECTS:xpbd_libm_probe>)
set_tests_properties(libm.library libm.probe PROPERTIES LABELS "unit")
set_tests_properties(libm.probe PROPERTIES PASS_REGULAR_EXPRESSION "libm_probe[^\n]*: not allowed: exp\n")

# --- the package as its consumers see it (install_tests.cmake) -------------
include(${CMAKE_CURRENT_SOURCE_DIR}/install_tests.cmake)

# --- every public header alone, as C11 and as C++ ------------------------------
# One generated translation unit per header per language, compiled as an
# OBJECT library with the project's warnings (-Werror in the presets): a
# header that needs another include first, or is not valid C++ inside its
# extern "C", breaks the build.
# (the kernels' headers and xpbd::io's xpbd/io.h)
file(GLOB XPBD_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/include/xpbd/*.h
     ${PROJECT_SOURCE_DIR}/kernels/io/include/xpbd/*.h)
set(XPBD_HEADER_TU_C)
set(XPBD_HEADER_TU_CXX)
foreach(header IN LISTS XPBD_PUBLIC_HEADERS)
  get_filename_component(stem ${header} NAME_WE)
  get_filename_component(name ${header} NAME)
  set(rel xpbd/${name})
  # included twice: the include guard must hold; the function keeps the
  # translation unit non-empty and uses a macro every header provides
  set(body "/* generated by tests/tests.cmake: ${rel} compiles alone */\n#include <${rel}>\n#include <${rel}>\n")
  string(APPEND body "int xpbd_header_check_${stem}(void);\nint xpbd_header_check_${stem}(void)\n{\n    return (int)XPBD_VERSION_MAJOR + (int)sizeof(xpbd_status);\n}\n")
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/headers/${stem}_c.c CONTENT "${body}")
  list(APPEND XPBD_HEADER_TU_C ${CMAKE_CURRENT_BINARY_DIR}/headers/${stem}_c.c)
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/headers/${stem}_cxx.cpp CONTENT "${body}")
  list(APPEND XPBD_HEADER_TU_CXX ${CMAKE_CURRENT_BINARY_DIR}/headers/${stem}_cxx.cpp)
endforeach()

# xpbd/xpbd.h is what an engine embeds: the reference entry points
# (xpbd/reference.h) stay out of it
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/headers/umbrella_without_reference_c.c CONTENT
  "#include <xpbd/xpbd.h>\n#ifdef XPBD_REFERENCE_H\n#error \"xpbd/xpbd.h pulls in xpbd/reference.h\"\n#endif\nint xpbd_header_check_umbrella(void);\nint xpbd_header_check_umbrella(void)\n{\n    return (int)XPBD_VERSION_MAJOR;\n}\n")
list(APPEND XPBD_HEADER_TU_C ${CMAKE_CURRENT_BINARY_DIR}/headers/umbrella_without_reference_c.c)

add_library(xpbd_header_check_c OBJECT ${XPBD_HEADER_TU_C})
target_link_libraries(xpbd_header_check_c PRIVATE xpbd::io)
set_target_properties(xpbd_header_check_c PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                     C_EXTENSIONS OFF)
add_dependencies(xpbd-tests xpbd_header_check_c)

check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_library(xpbd_header_check_cxx OBJECT ${XPBD_HEADER_TU_CXX})
  target_link_libraries(xpbd_header_check_cxx PRIVATE xpbd::io)
  set_target_properties(xpbd_header_check_cxx PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON
                                                         CXX_EXTENSIONS OFF)
  add_dependencies(xpbd-tests xpbd_header_check_cxx)
else()
  message(STATUS "xpbd tests: no C++ compiler, the C++ header check is skipped")
endif()

# --- xpbd-replay refuses a file of another version -------------------------
if(TARGET xpbd-replay)
  add_test(NAME replay.refuse
    COMMAND ${CMAKE_COMMAND} -DREPLAY=$<TARGET_FILE:xpbd-replay>
      -DWORK=${CMAKE_CURRENT_BINARY_DIR}/replay-work
      -DHEADER=${PROJECT_SOURCE_DIR}/kernels/io/include/xpbd/replay.h
      -DPROJECT_HEADER=${PROJECT_SOURCE_DIR}/kernels/include/xpbd/base.h
      -DOLD=${CMAKE_CURRENT_SOURCE_DIR}/data/replay/protocol1_cloth3x2_f64.xpbdr
      -P ${CMAKE_CURRENT_SOURCE_DIR}/replay_refuse.cmake)
  set_tests_properties(replay.refuse PROPERTIES LABELS "unit")
  # --- xpbd-replay --check: a recorded cloth and tet box equal on every path
  # (and, with xpbd-report, the README's sweep of them over ISAs and threads)
  add_executable(replay_record replay_record.c)
  # (the installed reader and recorder only: xpbd::io)
  target_link_libraries(replay_record PRIVATE xpbd::io ${XPBD_TEST_SCENES})
  set(xpbd_replay_check_report)
  if(TARGET xpbd-report)
    set(xpbd_replay_check_report -DREPORT=$<TARGET_FILE:xpbd-report>)
  endif()
  add_test(NAME replay.check
    COMMAND ${CMAKE_COMMAND} -DREPLAY=$<TARGET_FILE:xpbd-replay>
      -DRECORD=$<TARGET_FILE:replay_record> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/replay-check
      ${xpbd_replay_check_report} -P ${CMAKE_CURRENT_SOURCE_DIR}/replay_check.cmake)
  set_tests_properties(replay.check PROPERTIES TIMEOUT 300 LABELS "replay"
)
endif()

# --- instruction counting of the step's validation (not a test) ------------
# tests/tools/step_cost.c: the bench cloth for callgrind (see its header).
add_executable(xpbd-step-cost tools/step_cost.c)
target_link_libraries(xpbd-step-cost PRIVATE xpbd::xpbd ${XPBD_TEST_SCENES})

# --- libFuzzer targets (XPBD_FUZZ, the `fuzz` preset) ------------------------
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz.cmake)

# --- allocation failure: every allocating entry point, k-th allocation failing
# A test-only static build of the library's own sources with
# tests/alloc_fail.h force-included, so that its allocations go through
# counting hooks; the shipped xpbd target is untouched. (The replay
# recorder and reader are xpbd::io's: xpbd-io-alloc-tests below.)
add_library(xpbd_allocfail STATIC ${XPBD_LIB_SOURCE_PATHS})
target_include_directories(xpbd_allocfail PUBLIC ${PROJECT_SOURCE_DIR}/kernels/include
                                                 ${XPBD_GENERATED_INCLUDE}
                                          PRIVATE ${PROJECT_SOURCE_DIR}/kernels/src)
target_compile_definitions(xpbd_allocfail PRIVATE ${XPBD_LIB_DEFS})
target_compile_options(xpbd_allocfail PRIVATE -include ${CMAKE_CURRENT_SOURCE_DIR}/alloc_fail.h)
if(XPBD_LIBM)
  target_link_libraries(xpbd_allocfail PUBLIC ${XPBD_LIBM})
endif()
add_executable(xpbd-alloc-tests test_alloc.c alloc_fail.c)
target_link_libraries(xpbd-alloc-tests PRIVATE xpbd_allocfail)
add_test(NAME alloc COMMAND xpbd-alloc-tests)
set_tests_properties(alloc PROPERTIES TIMEOUT 300 LABELS "unit")

# --- the mesh loaders (xpbd::io, xpbd/io.h) -----------------------------------
# xpbd-io-tests (test_io.c): each format's features on files it writes into
# its own directory, the malformed-file catalogue (the mesh loaders' and
# xpbd_replay_load's), and (test_io_meshes.c)
# a box, a sphere, a torus and a holed box meshed by the `tetgen` program
# (io.mesher: skipped, 77, when tetgen is not on PATH) and the Gmsh files
# committed in tests/data/gmsh (io.files; gmsh itself is not needed).
# xpbd-io-alloc-tests (test_io_alloc.c): every loader, and the replay
# recorder, loader and writer, with its k-th allocation failing, against a
# build of xpbd::io's sources with the counting hooks of alloc_fail.h (the
# shipped xpbd_io is untouched).
add_executable(xpbd-io-tests test_io.c test_io_meshes.c)
target_link_libraries(xpbd-io-tests PRIVATE xpbd::io)
if(XPBD_LIBM)
  target_link_libraries(xpbd-io-tests PRIVATE ${XPBD_LIBM})
endif()
foreach(group IN ITEMS status obj tetgen gmsh catalogue mesher files export)
  set(xpbd_io_work ${CMAKE_CURRENT_BINARY_DIR}/io-work/${group})
  file(MAKE_DIRECTORY ${xpbd_io_work})
  add_test(NAME io.${group} COMMAND xpbd-io-tests --dir ${xpbd_io_work}
                                    --data ${CMAKE_CURRENT_SOURCE_DIR}/data io.${group})
  set_tests_properties(io.${group} PROPERTIES TIMEOUT 300 LABELS "unit;io" SKIP_RETURN_CODE 77)
endforeach()
get_target_property(XPBD_IO_SOURCES_REL xpbd_io SOURCES)
set(XPBD_IO_SOURCE_PATHS)
foreach(src IN LISTS XPBD_IO_SOURCES_REL)
  if(IS_ABSOLUTE "${src}" OR src MATCHES "^\\$<")
    list(APPEND XPBD_IO_SOURCE_PATHS ${src})
  else()
    list(APPEND XPBD_IO_SOURCE_PATHS ${PROJECT_SOURCE_DIR}/${src})
  endif()
endforeach()
add_library(xpbd_io_allocfail STATIC ${XPBD_IO_SOURCE_PATHS})
target_include_directories(xpbd_io_allocfail PUBLIC ${PROJECT_SOURCE_DIR}/kernels/io/include
                                             PRIVATE ${PROJECT_SOURCE_DIR}/kernels/io)
target_compile_definitions(xpbd_io_allocfail PRIVATE XPBD_IO_BUILDING)
target_compile_options(xpbd_io_allocfail PRIVATE -include ${CMAKE_CURRENT_SOURCE_DIR}/alloc_fail.h)
target_link_libraries(xpbd_io_allocfail PUBLIC xpbd::xpbd PRIVATE xpbd_precision)
add_executable(xpbd-io-alloc-tests test_io_alloc.c alloc_fail.c)
target_link_libraries(xpbd-io-alloc-tests PRIVATE xpbd_io_allocfail)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/io-work/alloc)
add_test(NAME io.alloc
  COMMAND xpbd-io-alloc-tests ${CMAKE_CURRENT_BINARY_DIR}/io-work/alloc)
set_tests_properties(io.alloc PROPERTIES TIMEOUT 300 LABELS "unit;io")

# --- the license line in every source file ------------------------------------
add_test(NAME license.spdx
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/spdx_check.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(license.spdx PROPERTIES LABELS "unit")

# --- no function in kernels/ longer than 100 lines ----------------------------
# (tests/function_length_check.sh: Universal Ctags' end lines; skipped
# without ctags)
add_test(NAME kernels.function_length
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/function_length_check.sh ${PROJECT_SOURCE_DIR} 100
          kernels)
set_tests_properties(kernels.function_length PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77)

# --- every exported function written out where it is defined ------------------
# grep -rnw NAME kernels/src must find each exported function's definition
# (not a name pasted together by a macro).
add_test(NAME names.written_out
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/names_check.sh $<TARGET_FILE:xpbd>
          ${PROJECT_SOURCE_DIR}/kernels/src)
# The internal functions of the step, the set-kind rows and the kernels keep
# names that grep and ctags follow (tests/internal_names_check.sh: object by
# object, so on the static library only).
if(NOT BUILD_SHARED_LIBS)
  add_test(NAME names.internal
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/internal_names_check.sh $<TARGET_FILE:xpbd>
            ${PROJECT_SOURCE_DIR}/kernels)
  set_tests_properties(names.internal PROPERTIES LABELS "unit")
endif()
# The step, its validators, the reference side and the engine files that
# loop over the set-kind table name no kind (tests/kinds_unnamed_check.sh).
add_test(NAME kinds.unnamed
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/kinds_unnamed_check.sh ${PROJECT_SOURCE_DIR}/kernels/src
          step/step.h step/driver.c step/stages.c step/validate.c step/snapshot.c
          reference_step.c engine/counters.c engine/lifecycle.c engine/tearing.c
          engine/split_move.c engine/order.c engine/sleeping.c engine/step.c)
set_tests_properties(kinds.unnamed PROPERTIES LABELS "unit")
# the same of xpbd::io's functions, in kernels/io (a handful: at least 6)
add_test(NAME names.written_out.io
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/names_check.sh $<TARGET_FILE:xpbd_io>
          ${PROJECT_SOURCE_DIR}/kernels/io 6)
set_tests_properties(names.written_out.io PROPERTIES LABELS "unit;io")

# --- every name the public headers and README.md mention is a real one --------
# Exported by the libraries (xpbd and xpbd::io), defined in a public header
# (every xpbd/*.h under their include directories, the generated one too),
# or a configuration name; wildcards must match one
# (tests/header_names_check.sh).
add_test(NAME names.in_docs
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/header_names_check.sh
          "$<TARGET_FILE:xpbd>:$<TARGET_FILE:xpbd_io>"
          ${PROJECT_SOURCE_DIR}/README.md
          "$<TARGET_PROPERTY:xpbd,INTERFACE_INCLUDE_DIRECTORIES>"
          "$<TARGET_PROPERTY:xpbd_io,INTERFACE_INCLUDE_DIRECTORIES>"
  COMMAND_EXPAND_LISTS)
set_tests_properties(names.in_docs PROPERTIES LABELS "unit;docs")
