# Install + find_package consumer test, run as `cmake -P` by CTest:
#
#   1. cmake --install BUILD_DIR --prefix WORK_DIR/prefix
#   2. configure, build and run tests/consumer against that prefix
#      (find_package(xpbd REQUIRED), xpbd::xpbd, the first S0 number)
#   3. pkg-config --cflags --libs xpbd against the prefix, compile and run the
#      same main.c exactly as `cc main.c $(pkg-config --cflags --libs xpbd)`
#      (no --static: the Libs line alone must link a static install; skipped
#      if pkg-config is missing)
#
# Inputs (-D): BUILD_DIR, WORK_DIR, SOURCE_DIR, LIBDIR, GENERATOR,
# C_COMPILER, BUILD_TYPE, SANITIZE (may be empty), SHARED (ON/OFF).
cmake_minimum_required(VERSION 3.25)

foreach(var BUILD_DIR WORK_DIR SOURCE_DIR LIBDIR GENERATOR C_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# The consumer links a sanitized library: it needs the same runtime.
set(flags "")
if(SANITIZE)
  set(flags "-fsanitize=${SANITIZE} -fno-sanitize-recover=all")
endif()
set(config_args)
if(BUILD_TYPE)
  set(config_args --config ${BUILD_TYPE})
endif()

# 1. install
run("cmake --install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})
foreach(f include/xpbd/xpbd.h include/xpbd/base.h include/xpbd/soa.h include/xpbd/kernels.h
          include/xpbd/step.h ${LIBDIR}/cmake/xpbd/xpbdConfig.cmake
          ${LIBDIR}/cmake/xpbd/xpbdConfigVersion.cmake ${LIBDIR}/cmake/xpbd/xpbdTargets.cmake
          ${LIBDIR}/pkgconfig/xpbd.pc)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
# exactly the public headers are installed: every one, nothing internal
file(GLOB public_headers RELATIVE "${SOURCE_DIR}/kernels/include/xpbd"
     "${SOURCE_DIR}/kernels/include/xpbd/*")
list(APPEND public_headers version.h)   # generated from project(VERSION)
file(GLOB installed_headers RELATIVE "${prefix}/include/xpbd" "${prefix}/include/xpbd/*")
list(SORT public_headers)
list(SORT installed_headers)
if(NOT public_headers STREQUAL installed_headers)
  message(FATAL_ERROR "install: headers ${installed_headers}, want ${public_headers}")
endif()

# 2. find_package consumer
run("consumer configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${consumer_build}"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
    "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DCMAKE_C_FLAGS=${flags}"
    "-DCMAKE_EXE_LINKER_FLAGS=${flags}")
run("consumer build" ${CMAKE_COMMAND} --build "${consumer_build}" ${config_args})
find_program(consumer_exe xpbd-consumer PATHS "${consumer_build}" "${consumer_build}/${BUILD_TYPE}"
             NO_DEFAULT_PATH)
if(NOT consumer_exe)
  message(FATAL_ERROR "consumer build produced no xpbd-consumer")
endif()
run("consumer run" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${prefix}/${LIBDIR}" "${consumer_exe}")
message(STATUS "find_package: ${run_output}")
# it really used the installed package, not the build tree
file(STRINGS "${consumer_build}/CMakeCache.txt" xpbd_dir_line REGEX "^xpbd_DIR:")
string(FIND "${xpbd_dir_line}" "${prefix}/${LIBDIR}/cmake/xpbd" at)
if(at EQUAL -1)
  message(FATAL_ERROR "find_package used '${xpbd_dir_line}', not the installed prefix")
endif()

# 3. pkg-config
find_program(PKG_CONFIG_EXE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXE)
  message(STATUS "pkg-config not found: pkg-config part skipped")
  return()
endif()
set(pc_env "PKG_CONFIG_PATH=${prefix}/${LIBDIR}/pkgconfig" "PKG_CONFIG_LIBDIR=${prefix}/${LIBDIR}/pkgconfig")
run("pkg-config --cflags --libs xpbd" ${CMAKE_COMMAND} -E env ${pc_env}
    "${PKG_CONFIG_EXE}" --cflags --libs xpbd)
string(STRIP "${run_output}" pc_flags)
message(STATUS "pkg-config --cflags --libs xpbd: ${pc_flags}")
# the -I and -L directories resolve into the prefix (the .pc file is
# relocatable: its prefix is relative to its own directory)
separate_arguments(pc_tokens UNIX_COMMAND "${pc_flags}")
get_filename_component(want_inc "${prefix}/include" REALPATH)
get_filename_component(want_lib "${prefix}/${LIBDIR}" REALPATH)
set(found_inc OFF)
set(found_lib OFF)
set(found_l OFF)
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
  endif()
endforeach()
if(NOT found_inc OR NOT found_lib OR NOT found_l)
  message(FATAL_ERROR "pkg-config does not point into the install prefix ${prefix}: ${pc_flags}")
endif()
# a consumer links exactly as a user would type it, with no --static:
#   cc main.c $(pkg-config --cflags --libs xpbd)
# (a static-only install must name libm and the OpenMP runtime in Libs)
find_program(SH_EXE sh)
if(NOT SH_EXE)
  message(FATAL_ERROR "install_consumer.cmake: no sh for the pkg-config command line")
endif()
set(pc_command "\"${C_COMPILER}\" ${flags} \"${SOURCE_DIR}/tests/consumer/main.c\" \
$(\"${PKG_CONFIG_EXE}\" --cflags --libs xpbd) -o \"${WORK_DIR}/xpbd-consumer-pc\"")
message(STATUS "pkg-config consumer: ${pc_command}")
run("cc main.c $(pkg-config --cflags --libs xpbd)" ${CMAKE_COMMAND} -E env ${pc_env}
    "${SH_EXE}" -c "${pc_command}")
run("pkg-config consumer run" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${prefix}/${LIBDIR}"
    "${WORK_DIR}/xpbd-consumer-pc")
message(STATUS "pkg-config: ${run_output}")
