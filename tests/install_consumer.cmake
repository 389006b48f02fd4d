# SPDX-License-Identifier: MIT
# The package as its consumers see it, run as `cmake -P` by CTest
# (tests/install_tests.cmake), one STEP per test:
#
#   prefix        cmake --install BUILD_DIR --prefix WORK_DIR/prefix (the
#                 prefix every other step but relocated uses); every public
#                 header and nothing internal; the exported targets and the
#                 package files name no absolute path (no /usr/lib, no build,
#                 source or install directory): libm as $<LINK_ONLY:m> in a
#                 static library's target (and Threads::Threads, found
#                 again by xpbdConfig.cmake), nothing in a shared one's;
#                 pkg-config --modversion xpbd = the project's version
#   c             tests/consumers/c, project(c C): find_package(xpbd X.Y
#                 REQUIRED) finds the installed version, X.(Y-1) and X.(Y+1)
#                 are considered and refused (SameMinorVersion); builds,
#                 runs (the S0 number, the default executor)
#   cxx           tests/consumers/cxx, project(cxx CXX): a C++ translation
#                 unit stepping the library (S0, free fall, pendulum, the
#                 default executor) in a project with no C enabled
#   pkg_config    cc main.c $(pkg-config --cflags --libs xpbd): the flags
#                 point into the prefix, the program links and runs; the
#                 same with xpbd-io (-lxpbd_io and, by Requires, -lxpbd),
#                 main.c loading an OBJ through xpbd::io
#   relocated     a prefix of its own, installed, moved elsewhere (the
#                 original gone): tests/consumers/c as a mixed C and C++
#                 project (both programs) and the pkg-config link against
#                 the moved copy
#   subdir        tests/consumers/subdir, a C++-only parent project that
#                 add_subdirectory()s the source tree: builds and runs
#   fetchcontent  the same parent with FetchContent_Declare(SOURCE_DIR):
#                 configured (the build is the subdir step's)
#   example       examples/EXAMPLE against the prefix: configured, built
#                 with warnings as errors, run (exit 0); mesh_record_export
#                 runs on tests/data/gmsh/cube_v41.msh pinned by its group
#                 "top": its .pvd lists 60 frames, each .vtu exists, and the
#                 installed xpbd-replay --check passes its recording (when the
#                 build has the tool, REPLAY_TOOL); a malformed .msh exits 1
#                 naming the file's line
#
# Every consumer is configured with the build's compilers, build type and
# sanitizer flags (it links a sanitized library), warnings as errors, and
# checked to have used the installed package; none is compiled with
# -fopenmp (compile_commands.json). A cross build's consumers get its
# toolchain file and run under its emulator.
#
# Inputs (-D): STEP, BUILD_DIR, WORK_DIR, SOURCE_DIR, LIBDIR, GENERATOR,
# C_COMPILER, CXX_COMPILER, BUILD_TYPE, SANITIZE, SHARED (ON/OFF), OPENMP
# (ON/OFF), LIBM (libm's file or empty), VERSION, TOOLCHAIN_FILE, EMULATOR
# ('|'-separated), EXAMPLE (step example), REPLAY_TOOL (1: xpbd-replay is
# installed).
cmake_minimum_required(VERSION 3.25)

foreach(var STEP BUILD_DIR WORK_DIR SOURCE_DIR LIBDIR GENERATOR C_COMPILER VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(flags "")
if(SANITIZE)
  set(flags "-fsanitize=${SANITIZE} -fno-sanitize-recover=all")
endif()
set(config_args)
if(BUILD_TYPE)
  set(config_args --config ${BUILD_TYPE})
endif()
string(REPLACE "|" ";" emulator "${EMULATOR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${what} failed (${rc}):\n${command}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# cmake --install BUILD_DIR into dir (fresh)
function(install_to dir)
  file(REMOVE_RECURSE "${dir}")
  run("cmake --install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${dir}" ${config_args})
endfunction()

# Configures project src into bin against the package in pkg_prefix (or,
# with pkg_prefix empty, on its own), builds it and runs exe (with the
# caller's run_args, when set); checks that
# find_package used pkg_prefix and that nothing was compiled with -fopenmp.
function(consumer name src bin pkg_prefix exe)
  file(REMOVE_RECURSE "${bin}")
  set(args -G "${GENERATOR}" "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
      "-DCMAKE_C_FLAGS=${flags}" "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_EXE_LINKER_FLAGS=${flags}"
      -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  if(CXX_COMPILER)
    list(APPEND args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  if(TOOLCHAIN_FILE AND pkg_prefix)
    # a cross toolchain searches its find roots only (the sysroot): the
    # prefix becomes one more root, searched as "/"
    set(toolchain "${bin}-toolchain.cmake")
    file(WRITE "${toolchain}" "include(\"${TOOLCHAIN_FILE}\")\n"
                              "list(APPEND CMAKE_FIND_ROOT_PATH \"${pkg_prefix}\")\n")
    list(APPEND args "-DCMAKE_TOOLCHAIN_FILE=${toolchain}" "-DCMAKE_PREFIX_PATH=/")
  elseif(TOOLCHAIN_FILE)
    list(APPEND args "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}")
  elseif(pkg_prefix)
    list(APPEND args "-DCMAKE_PREFIX_PATH=${pkg_prefix}")
  endif()
  run("${name} configure" ${CMAKE_COMMAND} -S "${src}" -B "${bin}" ${args} ${ARGN})
  string(REGEX MATCHALL "-- (find_package|xpbd [^\n]* by)[^\n]*" found "${run_output}")
  foreach(line IN LISTS found)
    message(STATUS "${name}: ${line}")
  endforeach()
  if(pkg_prefix)
    file(STRINGS "${bin}/CMakeCache.txt" dir_line REGEX "^xpbd_DIR:")
    string(FIND "${dir_line}" "${pkg_prefix}/${LIBDIR}/cmake/xpbd" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: find_package used '${dir_line}', not ${pkg_prefix}")
    endif()
  endif()
  if(exe STREQUAL "")
    return() # configured only
  endif()
  run("${name} build" ${CMAKE_COMMAND} --build "${bin}" -j 2 ${config_args})
  if(EXISTS "${bin}/compile_commands.json")
    # the consumer's own sources (not a source tree's own library:
    # kernels/src)
    file(STRINGS "${bin}/compile_commands.json" commands REGEX "\"command\"")
    list(FILTER commands EXCLUDE REGEX "/kernels/src/")
    if(NOT commands)
      message(FATAL_ERROR "${name}: no compile command of its own in compile_commands.json")
    endif()
    foreach(command IN LISTS commands)
      if(command MATCHES "-fopenmp")
        message(FATAL_ERROR "${name} was compiled with -fopenmp: ${command}")
      endif()
    endforeach()
  endif()
  set(env)
  if(pkg_prefix)
    set(env "LD_LIBRARY_PATH=${pkg_prefix}/${LIBDIR}")
  endif()
  foreach(program IN LISTS exe)
    find_program(exe_path ${program} PATHS "${bin}" "${bin}/${BUILD_TYPE}" NO_DEFAULT_PATH
                 NO_CACHE)
    if(NOT exe_path)
      message(FATAL_ERROR "${name} built no ${program}")
    endif()
    run("${name} run" ${CMAKE_COMMAND} -E env ${env} ${emulator} "${exe_path}" ${run_args})
    message(STATUS "${name}: ${run_output}")
    unset(exe_path)
  endforeach()
endfunction()

# cc main.c $(pkg-config --cflags --libs xpbd) against the package in
# pkg_prefix, then the same with xpbd-io (main.c with XPBD_CONSUMER_IO: an
# OBJ loaded), whose Requires: xpbd brings the kernels' flags along
function(pkg_config_consumer pkg_prefix)
  find_program(PKG_CONFIG_EXE NAMES pkg-config pkgconf)
  if(NOT PKG_CONFIG_EXE)
    # a test that passes without running is no test: say what is missing
    message(FATAL_ERROR "pkg-config not found: the pkg-config consumer cannot run "
                        "(Debian: apt-get install pkg-config)")
  endif()
  set(pc_env "PKG_CONFIG_PATH=${pkg_prefix}/${LIBDIR}/pkgconfig"
             "PKG_CONFIG_LIBDIR=${pkg_prefix}/${LIBDIR}/pkgconfig")
  find_program(SH_EXE sh)
  if(NOT SH_EXE)
    message(FATAL_ERROR "install_consumer.cmake: no sh for the pkg-config command line")
  endif()
  foreach(module IN ITEMS xpbd xpbd-io)
    run("pkg-config --modversion ${module}" ${CMAKE_COMMAND} -E env ${pc_env}
        "${PKG_CONFIG_EXE}" --modversion ${module})
    string(STRIP "${run_output}" pc_version)
    if(NOT pc_version STREQUAL VERSION)
      message(FATAL_ERROR "pkg-config --modversion ${module}: '${pc_version}', want '${VERSION}'")
    endif()
    run("pkg-config --cflags --libs ${module}" ${CMAKE_COMMAND} -E env ${pc_env}
        "${PKG_CONFIG_EXE}" --cflags --libs ${module})
    string(STRIP "${run_output}" pc_flags)
    message(STATUS "pkg-config --cflags --libs ${module}: ${pc_flags} (version ${pc_version})")
    # the -I and -L directories resolve into the prefix (the .pc file finds
    # its prefix from its own directory); xpbd-io names both libraries
    separate_arguments(pc_tokens UNIX_COMMAND "${pc_flags}")
    get_filename_component(want_inc "${pkg_prefix}/include" REALPATH)
    get_filename_component(want_lib "${pkg_prefix}/${LIBDIR}" REALPATH)
    set(found_inc OFF)
    set(found_lib OFF)
    set(found_l OFF)
    set(found_io OFF)
    foreach(tok IN LISTS pc_tokens)
      if(tok MATCHES "^-I(.+)$")
        get_filename_component(dir "${CMAKE_MATCH_1}" REALPATH)
        if(dir STREQUAL want_inc)
          set(found_inc ON)
        endif()
      elseif(tok MATCHES "^-L(.+)$")
        get_filename_component(dir "${CMAKE_MATCH_1}" REALPATH)
        if(dir STREQUAL want_lib)
          set(found_lib ON)
        endif()
      elseif(tok STREQUAL "-lxpbd")
        set(found_l ON)
      elseif(tok STREQUAL "-lxpbd_io")
        set(found_io ON)
      endif()
    endforeach()
    if(module STREQUAL "xpbd")
      set(found_io ON) # not asked for
      set(define "")
    else()
      set(define "-DXPBD_CONSUMER_IO")
    endif()
    if(NOT found_inc OR NOT found_lib OR NOT found_l OR NOT found_io)
      message(FATAL_ERROR "pkg-config ${module} does not point into ${pkg_prefix}: ${pc_flags}")
    endif()
    # linked exactly as a user types it, with no --static: a static install
    # names libm and the threads library in Libs
    set(out "${pkg_prefix}/../${module}-consumer-pc")
    set(pc_command "\"${C_COMPILER}\" ${flags} ${define} \
\"${SOURCE_DIR}/tests/consumers/c/main.c\" \
$(\"${PKG_CONFIG_EXE}\" --cflags --libs ${module}) -o \"${out}\"")
    message(STATUS "pkg-config consumer: ${pc_command}")
    run("cc main.c $(pkg-config --cflags --libs ${module})" ${CMAKE_COMMAND} -E env ${pc_env}
        "${SH_EXE}" -c "${pc_command}")
    run("pkg-config consumer run" ${CMAKE_COMMAND} -E env
        "LD_LIBRARY_PATH=${pkg_prefix}/${LIBDIR}" ${emulator} "${out}")
    message(STATUS "pkg-config consumer (${module}): ${run_output}")
    if(module STREQUAL "xpbd-io" AND NOT run_output MATCHES "xpbd::io loaded an OBJ triangle")
      message(FATAL_ERROR "the xpbd-io consumer did not load its OBJ: ${run_output}")
    endif()
  endforeach()
endfunction()

# --- the steps ---------------------------------------------------------------
if(STEP STREQUAL "prefix")
  install_to("${prefix}")
  set(pkgdir "${prefix}/${LIBDIR}/cmake/xpbd")
  foreach(f include/xpbd/xpbd.h include/xpbd/version.h ${LIBDIR}/cmake/xpbd/xpbdConfig.cmake
            ${LIBDIR}/cmake/xpbd/xpbdConfigVersion.cmake ${LIBDIR}/cmake/xpbd/xpbdTargets.cmake
            ${LIBDIR}/pkgconfig/xpbd.pc ${LIBDIR}/pkgconfig/xpbd-io.pc)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "install: ${prefix}/${f} is missing")
    endif()
  endforeach()
  # exactly the public headers are installed: every one, nothing internal
  # (the kernels' and xpbd::io's)
  file(GLOB public_headers RELATIVE "${SOURCE_DIR}/kernels/include/xpbd"
       "${SOURCE_DIR}/kernels/include/xpbd/*")
  file(GLOB io_headers RELATIVE "${SOURCE_DIR}/kernels/io/include/xpbd"
       "${SOURCE_DIR}/kernels/io/include/xpbd/*")
  list(APPEND public_headers ${io_headers})
  list(APPEND public_headers version.h) # generated from project(VERSION)
  file(GLOB installed_headers RELATIVE "${prefix}/include/xpbd" "${prefix}/include/xpbd/*")
  list(SORT public_headers)
  list(SORT installed_headers)
  if(NOT public_headers STREQUAL installed_headers)
    message(FATAL_ERROR "install: headers ${installed_headers}, want ${public_headers}")
  endif()
  # no absolute path in the package: the exported targets locate the
  # library from their own directory (${_IMPORT_PREFIX}), libm goes by name
  # (xpbd.pc may name a runtime's system directory: clang's libomp)
  file(GLOB package_files "${pkgdir}/*.cmake")
  foreach(f IN LISTS package_files ITEMS "${prefix}/${LIBDIR}/pkgconfig/xpbd.pc"
                                          "${prefix}/${LIBDIR}/pkgconfig/xpbd-io.pc")
    file(READ "${f}" text)
    set(paths "${prefix}" "${BUILD_DIR}" "${SOURCE_DIR}")
    if(f MATCHES "[.]cmake$")
      list(APPEND paths /usr/lib)
      file(STRINGS "${f}" absolute REGEX "[\";]/[A-Za-z]")
      if(absolute)
        message(FATAL_ERROR "${f} holds an absolute path: ${absolute}")
      endif()
    endif()
    foreach(path IN LISTS paths)
      string(FIND "${text}" "${path}" at)
      if(NOT at EQUAL -1)
        message(FATAL_ERROR "${f} names the absolute path ${path}")
      endif()
    endforeach()
  endforeach()
  # what the exported target passes to its consumers' link: for a static
  # library libm as $<LINK_ONLY:m> and the threads library as
  # $<LINK_ONLY:Threads::Threads> (xpbdConfig.cmake finds Threads), no
  # OpenMP and no path; for a shared one nothing
  file(GLOB target_files "${pkgdir}/xpbdTargets*.cmake")
  set(links)
  foreach(f IN LISTS target_files)
    file(READ "${f}" text)
    # the values' own ';' kept apart from the list's while matching
    string(REPLACE ";" "<semicolon>" text "${text}")
    string(REGEX MATCHALL "INTERFACE_LINK_LIBRARIES \"[^\"]*\"" found "${text}")
    foreach(value IN LISTS found)
      string(REGEX REPLACE "^INTERFACE_LINK_LIBRARIES \"(.*)\"$" "\\1" value "${value}")
      string(REPLACE "\\" "" value "${value}") # \$<...> in the file
      string(REPLACE "<semicolon>" ";" value "${value}")
      list(APPEND links ${value})
    endforeach()
  endforeach()
  set(link_names)
  foreach(item IN LISTS links)
    string(REGEX REPLACE "^[$]<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    list(APPEND link_names "${item}")
  endforeach()
  foreach(item IN LISTS link_names)
    if(item MATCHES "OpenMP|omp|/")
      message(FATAL_ERROR "the exported target links ${item} (all: ${links})")
    endif()
  endforeach()
  if(SHARED AND "m" IN_LIST link_names)
    message(FATAL_ERROR "a shared libxpbd's target passes libm on: ${links}")
  endif()
  if(NOT SHARED AND LIBM AND NOT "$<LINK_ONLY:m>" IN_LIST links)
    message(FATAL_ERROR "a static libxpbd's target lacks $<LINK_ONLY:m>: '${links}'")
  endif()
  if(NOT SHARED AND NOT "$<LINK_ONLY:Threads::Threads>" IN_LIST links)
    message(FATAL_ERROR "a static libxpbd's target lacks $<LINK_ONLY:Threads::Threads>: '${links}'")
  endif()
  if(SHARED AND "Threads::Threads" IN_LIST link_names)
    message(FATAL_ERROR "a shared libxpbd's target passes Threads on: ${links}")
  endif()
  message(STATUS "installed to ${prefix}; exported link libraries: '${links}'")
  find_program(PKG_CONFIG_EXE NAMES pkg-config pkgconf)
  if(PKG_CONFIG_EXE)
    run("pkg-config --modversion xpbd" ${CMAKE_COMMAND} -E env
        "PKG_CONFIG_LIBDIR=${prefix}/${LIBDIR}/pkgconfig" "${PKG_CONFIG_EXE}" --modversion xpbd)
    string(STRIP "${run_output}" pc_version)
    if(NOT pc_version STREQUAL VERSION)
      message(FATAL_ERROR "pkg-config --modversion xpbd: '${pc_version}', want '${VERSION}'")
    endif()
    message(STATUS "pkg-config --modversion xpbd: ${pc_version}")
  endif()
elseif(STEP STREQUAL "c")
  consumer(c "${SOURCE_DIR}/tests/consumers/c" "${WORK_DIR}/c" "${prefix}" xpbd-consumer
           "-DXPBD_EXPECT_VERSION=${VERSION}")
elseif(STEP STREQUAL "cxx")
  consumer(cxx "${SOURCE_DIR}/tests/consumers/cxx" "${WORK_DIR}/cxx" "${prefix}"
           xpbd-consumer-cxx)
elseif(STEP STREQUAL "pkg_config")
  pkg_config_consumer("${prefix}")
elseif(STEP STREQUAL "relocated")
  set(first "${WORK_DIR}/relocated/prefix")
  set(moved "${WORK_DIR}/relocated/moved")
  install_to("${first}")
  file(REMOVE_RECURSE "${moved}")
  file(RENAME "${first}" "${moved}")
  if(EXISTS "${first}")
    message(FATAL_ERROR "relocated: ${first} still exists")
  endif()
  # a mixed project where there is a C++ compiler: C and CXX enabled
  set(programs xpbd-consumer)
  set(mixed OFF)
  if(CXX_COMPILER)
    set(mixed ON)
    list(APPEND programs xpbd-consumer-cxx)
  endif()
  consumer(relocated "${SOURCE_DIR}/tests/consumers/c" "${WORK_DIR}/relocated/build" "${moved}"
           "${programs}" "-DXPBD_EXPECT_VERSION=${VERSION}" "-DXPBD_CONSUMER_MIXED=${mixed}")
  pkg_config_consumer("${moved}")
elseif(STEP STREQUAL "subdir" OR STEP STREQUAL "fetchcontent")
  # subdir: built in Debug, whose sources compile in a quarter of the time,
  # and without the sanitizers (it builds a library of its own: what is
  # checked is the integration, not the optimiser or the installed
  # library); fetchcontent: configured with no build type, which the
  # subproject must leave empty
  set(flags "")
  set(mode subdirectory)
  set(exe xpbd-consumer-cxx)
  set(build_type Debug)
  if(STEP STREQUAL "fetchcontent")
    set(mode fetchcontent)
    set(exe "")
    set(build_type "")
  endif()
  consumer(${STEP} "${SOURCE_DIR}/tests/consumers/subdir" "${WORK_DIR}/${STEP}" "" "${exe}"
           "-DXPBD_SOURCE_DIR=${SOURCE_DIR}" "-DXPBD_CONSUMER_MODE=${mode}"
           "-DCMAKE_BUILD_TYPE=${build_type}")
elseif(STEP STREQUAL "example")
  if(NOT EXAMPLE)
    message(FATAL_ERROR "install_consumer.cmake: STEP example needs -DEXAMPLE=name")
  endif()
  set(bin "${WORK_DIR}/examples/${EXAMPLE}")
  set(out "${bin}-out")
  set(run_args)
  if(EXAMPLE STREQUAL "mesh_record_export")
    file(REMOVE_RECURSE "${out}")
    set(run_args "${SOURCE_DIR}/tests/data/gmsh/cube_v41.msh" --pin top --out "${out}")
  endif()
  consumer(${EXAMPLE} "${SOURCE_DIR}/examples/${EXAMPLE}" "${bin}" "${prefix}" ${EXAMPLE})
  if(EXAMPLE STREQUAL "mesh_record_export")
    # the series: 60 frames in the index, each file there
    file(STRINGS "${out}/mesh.pvd" datasets REGEX "<DataSet ")
    list(LENGTH datasets count)
    if(NOT count EQUAL 60)
      message(FATAL_ERROR "${out}/mesh.pvd lists ${count} frames, want 60")
    endif()
    foreach(line IN LISTS datasets)
      if(NOT line MATCHES "file=\"([^\"]+)\"" OR NOT EXISTS "${out}/${CMAKE_MATCH_1}")
        message(FATAL_ERROR "${out}/mesh.pvd: no file for '${line}'")
      endif()
    endforeach()
    message(STATUS "${EXAMPLE}: ${out}/mesh.pvd lists ${count} frames, every .vtu there")
    # the recording, checked by the installed tool on every path
    if(REPLAY_TOOL)
      run("xpbd-replay --check" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${prefix}/${LIBDIR}"
          ${emulator} "${prefix}/bin/xpbd-replay" --check "${out}/mesh.xrp")
      message(STATUS "xpbd-replay --check ${out}/mesh.xrp:\n${run_output}")
    else()
      message(STATUS "${EXAMPLE}: no xpbd-replay in this build (XPBD_BUILD_REPORT=OFF): "
                     "its --check of ${out}/mesh.xrp not run")
    endif()
    # a malformed file: exit 1, its line and what is wrong
    file(WRITE "${out}/bad.msh" "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 x\n")
    find_program(exe_path ${EXAMPLE} PATHS "${bin}" "${bin}/${BUILD_TYPE}" NO_DEFAULT_PATH
                 NO_CACHE)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${prefix}/${LIBDIR}"
                            ${emulator} "${exe_path}" "${out}/bad.msh"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE bad_out ERROR_VARIABLE bad_err)
    if(NOT rc EQUAL 1 OR NOT bad_err MATCHES "bad[.]msh:5: ")
      message(FATAL_ERROR "${EXAMPLE} on a malformed file: exit ${rc}, '${bad_err}' "
                          "(want 1 and the file's line 5)")
    endif()
    message(STATUS "${EXAMPLE} on a malformed file: exit 1, ${bad_err}")
  endif()
else()
  message(FATAL_ERROR "install_consumer.cmake: unknown STEP '${STEP}'")
endif()
