# SPDX-License-Identifier: MIT
# xpbd-replay --check on two recordings (run with -DREPLAY=<xpbd-replay>
# -DRECORD=<replay_record> -DWORK=<dir>): a cloth coloured in runs (f32) and
# a tet box that tears and sleeps (f64) pass on every path, one line a path
# saying "= scalar", the scalar one-thread path first; a recording whose end
# hash is not what its replay gives exits 1 saying so; bad usage and a
# missing file exit 2; --export writes a .vtu a frame, run.pvd, rest.obj and
# run.pc2 (header: the particles, a sample a frame); with -DREPORT=<xpbd-report>, the README's sweep of
# both recordings over ISAs and threads finds them 0 from the reference.
# (Where a path's run first differs is tested on replay_check itself with a
# perturbed run: softbody.replay_check.)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(scene cloth tet_box)
  set(file ${WORK}/${scene}.xrp)
  execute_process(COMMAND ${RECORD} ${scene} ${file} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "replay_record ${scene}: exit ${rc}\n${out}${err}")
  endif()
  execute_process(COMMAND ${REPLAY} --check ${file} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "xpbd-replay --check ${scene}.xrp:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "xpbd-replay --check ${scene}.xrp: exit ${rc}, want 0")
  endif()
  string(REGEX MATCHALL "\n[a-z0-9]+ [0-9]+ [0-9a-f]+ = scalar" same "\n${out}")
  list(LENGTH same paths)
  if(paths LESS 2 OR NOT out MATCHES "\nscalar 1 [0-9a-f]+ = scalar\n"
     OR NOT out MATCHES "\nrecording [0-9a-f]+ = scalar\n" OR out MATCHES "differs")
    message(FATAL_ERROR "xpbd-replay --check ${scene}.xrp: want a line '<isa> <threads> "
                        "<hash> = scalar' a path (scalar 1 first) and the recording reproduced")
  endif()
  string(REGEX MATCH "\n[a-z0-9]+ [0-9]+ [0-9a-f]+ " head "${out}")
  if(NOT head MATCHES "^\nscalar 1 ")
    message(FATAL_ERROR "xpbd-replay --check ${scene}.xrp: the first path is not scalar 1")
  endif()
endforeach()

# the README's sweep of a recording over ISAs and threads against the scalar
# one-thread run (when built with xpbd-report, -DREPORT=<xpbd-report>): every
# point ok and 0 from the reference, the tearing tet box included
if(REPORT)
  foreach(scene cloth tet_box)
    execute_process(COMMAND ${REPORT} sweep --scene replay:${WORK}/${scene}.xrp
                    --vary isa=scalar,auto --vary threads=1,3 --metric error_vs_reference
                    --reference isa=scalar threads=1 --out ${WORK}/sweep-${scene}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT (rc EQUAL 0 OR rc EQUAL 3)) # 3: the data written, gnuplot missing
      message(FATAL_ERROR "xpbd-report sweep --scene replay:${scene}.xrp: exit ${rc}\n${out}${err}")
    endif()
    file(STRINGS ${WORK}/sweep-${scene}/data/sweep.tsv rows)
    list(LENGTH rows count)
    list(FILTER rows INCLUDE REGEX "\tok\t0$")
    list(LENGTH rows zero)
    if(NOT count EQUAL 5 OR NOT zero EQUAL 4)
      message(FATAL_ERROR "sweep of ${scene}.xrp: want 4 points ok at 0 from the reference")
    endif()
  endforeach()
endif()

# --export DIR: a .vtu a frame, run.pvd listing them, rest.obj, and run.pc2
# whose header says the recording's particles and one sample a frame
foreach(scene cloth tet_box)
  file(READ ${WORK}/${scene}.xrp text LIMIT 65536)
  string(REGEX MATCH "\nparticles ([0-9]+) " m "${text}")
  set(points ${CMAKE_MATCH_1})
  file(STRINGS ${WORK}/${scene}.xrp endline REGEX "^end [0-9]+ ")
  string(REGEX REPLACE "^end ([0-9]+) .*" "\\1" frames "${endline}")
  set(out ${WORK}/export-${scene})
  file(MAKE_DIRECTORY ${out})
  execute_process(COMMAND ${REPLAY} --export ${out} ${WORK}/${scene}.xrp RESULT_VARIABLE rc
                  OUTPUT_VARIABLE sout ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT sout MATCHES "reproduced bit for bit")
    message(FATAL_ERROR "xpbd-replay --export ${scene}.xrp: exit ${rc}, want 0\n${sout}${err}")
  endif()
  file(GLOB vtus ${out}/frame_*.vtu)
  list(LENGTH vtus count)
  file(GLOB parts ${out}/*.part)
  file(STRINGS ${out}/run.pvd datasets REGEX "<DataSet ")
  list(LENGTH datasets listed)
  if(NOT count EQUAL frames OR NOT listed EQUAL frames OR parts OR NOT EXISTS ${out}/rest.obj
     OR NOT EXISTS ${out}/frame_0000.vtu)
    message(FATAL_ERROR "xpbd-replay --export ${scene}.xrp: ${count} .vtu files and ${listed} "
                        "run.pvd entries, want ${frames}; rest.obj; no .part file")
  endif()
  # the PC2 header: "POINTCACHE2\0", version 1, points, start, rate, samples
  file(READ ${out}/run.pc2 head LIMIT 32 HEX)
  math(EXPR words_bytes "32 + ${points} * ${frames} * 12")
  file(SIZE ${out}/run.pc2 size)
  set(hex "")
  foreach(v ${points})
    math(EXPR v "${v}" OUTPUT_FORMAT HEXADECIMAL)
    string(SUBSTRING "${v}" 2 -1 v)
    string(LENGTH "${v}" len)
    while(len LESS 8)
      set(v "0${v}")
      string(LENGTH "${v}" len)
    endwhile()
    string(REGEX REPLACE "(..)(..)(..)(..)" "\\4\\3\\2\\1" v "${v}")
    string(APPEND hex "${v}")
  endforeach()
  math(EXPR s "${frames}" OUTPUT_FORMAT HEXADECIMAL)
  string(SUBSTRING "${s}" 2 -1 s)
  string(LENGTH "${s}" len)
  while(len LESS 8)
    set(s "0${s}")
    string(LENGTH "${s}" len)
  endwhile()
  string(REGEX REPLACE "(..)(..)(..)(..)" "\\4\\3\\2\\1" s "${s}")
  string(TOLOWER "${hex}" hex)
  string(TOLOWER "${s}" s)
  string(SUBSTRING "${head}" 0 40 magic)
  string(SUBSTRING "${head}" 56 8 samples)
  if(NOT magic STREQUAL "504f494e544341434845320001000000${hex}" OR NOT samples STREQUAL s
     OR NOT size EQUAL words_bytes)
    message(FATAL_ERROR "run.pc2 of ${scene}.xrp: header ${head}, ${size} bytes; want "
                        "${points} points, ${frames} samples, ${words_bytes} bytes")
  endif()
  message(STATUS "xpbd-replay --export ${scene}.xrp: ${frames} frames, ${points} points")
endforeach()
# an output directory that does not exist: exit 2
execute_process(COMMAND ${REPLAY} --export ${WORK}/no_such_dir ${WORK}/cloth.xrp
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR EXISTS ${WORK}/no_such_dir)
  message(FATAL_ERROR "xpbd-replay --export into a missing directory: exit ${rc}, want 2")
endif()

# a recording whose end hash is not its replay's: exit 1, the recording named
file(READ ${WORK}/tet_box.xrp text)
string(REGEX REPLACE "\nend ([0-9]+) [0-9a-f]+" "\nend \\1 0123456789abcdef" text "${text}")
file(WRITE ${WORK}/wrong_end.xrp "${text}")
execute_process(COMMAND ${REPLAY} --check ${WORK}/wrong_end.xrp RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "recording 0123456789abcdef differs")
  message(FATAL_ERROR "a wrong end hash: exit ${rc}, want 1 and the recording named\n${out}${err}")
endif()

# usage and file errors: exit 2
foreach(args "--check" "--check;${WORK}/no_such.xrp" "--check;--threads;0;${WORK}/cloth.xrp"
             "--threads;3;${WORK}/cloth.xrp" "--check;--bogus;${WORK}/cloth.xrp")
  execute_process(COMMAND ${REPLAY} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "xpbd-replay ${args}: exit ${rc}, want 2\n${out}${err}")
  endif()
endforeach()
message(STATUS "xpbd-replay --check: both recordings equal on every path")
