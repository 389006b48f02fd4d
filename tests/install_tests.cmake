# SPDX-License-Identifier: MIT
# The package as its consumers see it (included from tests.cmake): CTest
# tests labelled "install", each one step of install_consumer.cmake (see
# there for what each checks). install.prefix installs the build into one
# prefix that install.c, install.cxx, install.pkg_config and the
# install.example.* tests use (fixture xpbd_prefix); install.relocated
# installs and moves a prefix of its own; install.subdir and
# install.fetchcontent take the source tree itself. docs.readme_snippets:
# every ```c block of README.md is an excerpt of examples/.
# the C++ consumers, the C++-only parent and examples/cpp_host need C++
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
else()
  message(STATUS "xpbd tests: no C++ compiler, the C++ consumers and examples are skipped")
endif()
set(xpbd_shared OFF)
if(BUILD_SHARED_LIBS)
  set(xpbd_shared ON)
endif()
# a cross build's consumers use its toolchain and run under its emulator
# ('|' for the list separator: the test's command line splits on ';')
string(REPLACE ";" "|" xpbd_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
set(xpbd_install_args
  -DBUILD_DIR=${PROJECT_BINARY_DIR}
  -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/install-work
  -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
  -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
  -DGENERATOR=${CMAKE_GENERATOR}
  -DC_COMPILER=${CMAKE_C_COMPILER}
  -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
  -DBUILD_TYPE=$<CONFIG>
  -DSANITIZE=${XPBD_SANITIZE}
  -DSHARED=${xpbd_shared}
  -DOPENMP=${XPBD_OPENMP}
  -DLIBM=${XPBD_LIBM}
  -DVERSION=${PROJECT_VERSION}
  -DTOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}
  "-DEMULATOR=${xpbd_emulator}"
  -DREPLAY_TOOL=$<TARGET_EXISTS:xpbd-replay>)
set(xpbd_install_script ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer.cmake)

add_test(NAME install.prefix
  COMMAND ${CMAKE_COMMAND} ${xpbd_install_args} -DSTEP=prefix -P ${xpbd_install_script})
set_tests_properties(install.prefix PROPERTIES FIXTURES_SETUP xpbd_prefix)
set(xpbd_install_tests install.prefix)
set(xpbd_steps c pkg_config relocated)
if(CMAKE_CXX_COMPILER)
  list(APPEND xpbd_steps cxx subdir fetchcontent)
endif()
foreach(step IN LISTS xpbd_steps)
  add_test(NAME install.${step}
    COMMAND ${CMAKE_COMMAND} ${xpbd_install_args} -DSTEP=${step} -P ${xpbd_install_script})
  list(APPEND xpbd_install_tests install.${step})
  if(step MATCHES "^(c|cxx|pkg_config)$")
    set_tests_properties(install.${step} PROPERTIES FIXTURES_REQUIRED xpbd_prefix)
  endif()
endforeach()

# examples/: each its own project, built against the installed package
file(GLOB xpbd_examples LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/examples
     CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*)
foreach(example IN LISTS xpbd_examples)
  set(xpbd_example_dir ${PROJECT_SOURCE_DIR}/examples/${example})
  file(GLOB xpbd_example_cxx ${xpbd_example_dir}/*.cpp)
  if(EXISTS ${xpbd_example_dir}/CMakeLists.txt AND (CMAKE_CXX_COMPILER OR NOT xpbd_example_cxx))
    add_test(NAME install.example.${example}
      COMMAND ${CMAKE_COMMAND} ${xpbd_install_args} -DSTEP=example -DEXAMPLE=${example}
              -P ${xpbd_install_script})
    set_tests_properties(install.example.${example} PROPERTIES FIXTURES_REQUIRED xpbd_prefix)
    list(APPEND xpbd_install_tests install.example.${example})
  endif()
endforeach()
set_tests_properties(${xpbd_install_tests} PROPERTIES TIMEOUT 300 LABELS "install")

add_test(NAME docs.readme_snippets
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/readme_snippets.sh ${PROJECT_SOURCE_DIR}/README.md
          ${PROJECT_SOURCE_DIR}/examples)
set_tests_properties(docs.readme_snippets PROPERTIES LABELS "unit")
