# SPDX-License-Identifier: MIT
# xpbd-replay refuses a file of another protocol or format: exit 2 and a
# message that names what differs (run with -DREPLAY=<tool> -DWORK=<dir>
# -DHEADER=<xpbd/replay.h>, which gives the format this build reads, and
# -DOLD=<a replay recorded by a build of protocol 1>, refused naming both
# protocols).
file(MAKE_DIRECTORY ${WORK})
file(STRINGS ${HEADER} line REGEX "^#define XPBD_REPLAY_FORMAT [0-9]+$")
string(REGEX REPLACE "^#define XPBD_REPLAY_FORMAT " "" format "${line}")
if(NOT format MATCHES "^[0-9]+$")
  message(FATAL_ERROR "no '#define XPBD_REPLAY_FORMAT <n>' in ${HEADER}")
endif()
foreach(kind format protocol)
  if(kind STREQUAL "format")
    set(text "xpbd-replay 999\nprotocol 1\n")
  else()
    set(text "xpbd-replay ${format}\nprotocol 999\n")
  endif()
  file(WRITE ${WORK}/${kind}.xrp "${text}")
  execute_process(COMMAND ${REPLAY} ${WORK}/${kind}.xrp RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "wrong ${kind}: exit ${rc}, want 2\n${out}${err}")
  endif()
  if(NOT err MATCHES "refused" OR NOT err MATCHES "${kind}")
    message(FATAL_ERROR "wrong ${kind}: the message does not say it was refused and why: ${err}")
  endif()
endforeach()
file(STRINGS ${PROJECT_HEADER} line REGEX "^#define XPBD_PROTOCOL_VERSION [0-9]+u$")
string(REGEX REPLACE "^#define XPBD_PROTOCOL_VERSION ([0-9]+)u$" "\\1" protocol "${line}")
execute_process(COMMAND ${REPLAY} ${OLD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "step protocol 1, but this build of xpbd speaks protocol ${protocol}"
   OR NOT err MATCHES "refused")
  message(FATAL_ERROR "the protocol-1 replay ${OLD}: exit ${rc}, want 2 and a message naming "
                      "protocols 1 and ${protocol}\n${out}${err}")
endif()
message(STATUS "xpbd-replay refused a wrong format, a wrong protocol and a protocol-1 recording "
               "with exit 2")
