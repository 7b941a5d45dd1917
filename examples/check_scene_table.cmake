# Checks the scene table of examples/README.md against the programs. CTest
# runs it as
#
#   cmake -DREADME=examples/README.md -DPROGRAMS=ipc_sim,al_sim
#         -Dipc_sim=/path/to/ipc_sim -Dal_sim=/path/to/al_sim -P check_scene_table.cmake
#
# Each program prints its scenes with --list-scenes, one a line, name first.
# The table (the rows of the README's "## Scenes" section whose first cell is
# a `name`) gives, per scene, the programs that run it in its last cell.
# The check fails when a program prints a scene the table lacks, when a row
# names a program that does not print that scene or leaves out one that
# does, and when a row holds a scene no program prints.
cmake_minimum_required(VERSION 3.16)

foreach(_var IN ITEMS README PROGRAMS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_scene_table.cmake: pass -D${_var}=...")
  endif()
endforeach()
string(REPLACE "," ";" _programs "${PROGRAMS}")

set(_failures 0)
set(_report "")
macro(_fail text)
  math(EXPR _failures "${_failures} + 1")
  string(APPEND _report "FAILED: ${text}\n")
endmacro()

# The table: the "## Scenes" section, up to the next "## " heading.
file(STRINGS "${README}" _lines ENCODING UTF-8)
set(_in_section FALSE)
set(_table_scenes "")
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^## ")
    if(_line MATCHES "^## Scenes *$")
      set(_in_section TRUE)
    else()
      set(_in_section FALSE)
    endif()
  elseif(_in_section AND _line MATCHES "^\\| *`([a-z0-9_]+)` *\\|.*\\|([^|]*)\\| *$")
    set(_scene "${CMAKE_MATCH_1}")
    set(_cell "${CMAKE_MATCH_2}")
    if(_scene IN_LIST _table_scenes)
      _fail("the table lists ${_scene} twice")
    endif()
    list(APPEND _table_scenes "${_scene}")
    string(REPLACE "`" "" _cell "${_cell}")
    string(REPLACE "," ";" _cell "${_cell}")
    set(_runs_${_scene} "")
    foreach(_p IN LISTS _cell)
      string(STRIP "${_p}" _p)
      if(NOT _p STREQUAL "")
        list(APPEND _runs_${_scene} "${_p}")
      endif()
    endforeach()
  endif()
endforeach()
if(NOT _table_scenes)
  message(FATAL_ERROR "check_scene_table.cmake: no scene table (rows of `name` under '## Scenes') in ${README}")
endif()

# What each program prints.
set(_printed_any "")
foreach(_program IN LISTS _programs)
  if(NOT DEFINED ${_program})
    message(FATAL_ERROR "check_scene_table.cmake: pass -D${_program}=/path/to/${_program}")
  endif()
  execute_process(COMMAND "${${_program}}" --list-scenes
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    _fail("${_program} --list-scenes: exit ${rc}\n${err}")
    continue()
  endif()
  string(REPLACE "\n" ";" _listed "${out}")
  set(_printed_${_program} "")
  foreach(_line IN LISTS _listed)
    if(_line MATCHES "^([^ ]+)")
      list(APPEND _printed_${_program} "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  foreach(_scene IN LISTS _printed_${_program})
    list(APPEND _printed_any "${_scene}")
    if(NOT _scene IN_LIST _table_scenes)
      _fail("${_program} --list-scenes prints ${_scene}, which the table in ${README} does not list")
    elseif(NOT _program IN_LIST _runs_${_scene})
      _fail("${_program} runs ${_scene}, but the table's row for ${_scene} does not name ${_program}")
    endif()
  endforeach()
endforeach()

foreach(_scene IN LISTS _table_scenes)
  if(NOT _scene IN_LIST _printed_any)
    _fail("the table lists ${_scene}, which no program prints with --list-scenes")
  endif()
  foreach(_program IN LISTS _runs_${_scene})
    if(NOT _program IN_LIST _programs)
      _fail("the table's row for ${_scene} names ${_program}, which is not one of ${PROGRAMS}")
    elseif(NOT _scene IN_LIST _printed_${_program})
      _fail("the table says ${_program} runs ${_scene}, but ${_program} --list-scenes does not print it")
    endif()
  endforeach()
endforeach()

if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} scene table check(s) failed:\n${_report}")
endif()
list(LENGTH _table_scenes _count)
message(STATUS "scene table: ${_count} scenes, as ${PROGRAMS} print them")
