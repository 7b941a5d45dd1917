# Checks ipc_sim's command-line behaviour. CTest runs it as
#
#   cmake -DIPC_SIM=/path/to/ipc_sim -DWORK_DIR=/scratch/folder -P check_cli.cmake
#
# Exit codes: 0 for --help and --list-scenes, 2 for no arguments and every
# usage error, 1 for an output that cannot be written (with nothing
# simulated), 0 for a one-step run that writes its frames, picture and JSON.
cmake_minimum_required(VERSION 3.16)

# NAME (default ipc_sim) and HINT_SCENE (default all_in) let the same checks
# run on every example program with ipc_sim's command line (al_sim too).
if(NOT NAME)
  set(NAME ipc_sim)
endif()
if(NOT HINT_SCENE)
  set(HINT_SCENE all_in)
endif()
foreach(_var IN ITEMS IPC_SIM WORK_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_cli.cmake: pass -D${_var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(_failures 0)
set(_report "")
macro(_fail text)
  math(EXPR _failures "${_failures} + 1")
  string(APPEND _report "FAILED: ${text}\n")
endmacro()

# Runs ipc_sim with the arguments and checks its exit code; leaves the
# outputs in rc, out, err.
macro(expect_exit code)
  execute_process(COMMAND "${IPC_SIM}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
  string(REPLACE ";" " " _args "${ARGN}")
  set(_last "${NAME} ${_args}")
  if(NOT "${rc}" STREQUAL "${code}")
    _fail("${_last}: exit ${rc}, expected ${code}\n--- stdout:\n${out}\n--- stderr:\n${err}")
  endif()
endmacro()

# Checks that the variable named var holds part.
macro(expect_in var part)
  string(FIND "${${var}}" "${part}" _at)
  if(_at EQUAL -1)
    _fail("${_last}: '${part}' not in ${var}:\n${${var}}")
  endif()
endmacro()

# Checks that files a and b both exist and hold the same text; what says
# what a difference would mean.
macro(expect_same_file a b what)
  if(EXISTS "${a}" AND EXISTS "${b}")
    file(READ "${a}" _a)
    file(READ "${b}" _b)
    if(NOT _a STREQUAL _b)
      _fail("${what} (${a} and ${b} differ)")
    endif()
  else()
    _fail("${what}: ${a} or ${b} was not written")
  endif()
endmacro()

# Checks that the variable named var is empty.
macro(expect_empty var)
  if(NOT "${${var}}" STREQUAL "")
    _fail("${_last}: expected no ${var}, got:\n${${var}}")
  endif()
endmacro()

# --help: usage on stdout, exit 0.
expect_exit(0 --help)
foreach(_flag IN ITEMS --scene --size --frames --dt --out --json --video --threads --list-scenes --scene-file --dump-scene)
  expect_in(out "${_flag}")
endforeach()
expect_empty(err)

# --list-scenes: one scene a line, name first, then a description.
# Which scenes each program lists is checked against the scene table of
# examples/README.md (check_scene_table.cmake).
expect_exit(0 --list-scenes)
string(REGEX REPLACE "\n$" "" _listed "${out}")
string(REPLACE "\n" ";" _listed "${_listed}")
if(NOT _listed)
  _fail("--list-scenes printed no scene")
endif()
foreach(_line IN LISTS _listed)
  if(NOT _line MATCHES "^[a-z0-9_]+  +[a-z][^\n]+$")
    _fail("--list-scenes: not a scene name and a description: '${_line}'")
  endif()
endforeach()

# No arguments: usage and a hint, exit 2.
expect_exit(2)
expect_in(err "try: ${NAME} --scene ${HINT_SCENE}")
expect_in(err "--list-scenes")

# Unknown flags and bad values: a message, exit 2, nothing on stdout.
foreach(_bad IN ITEMS
    "--bogus"
    "--scene;nope"
    "--scene;hanging_cloth;--frames;0"
    "--scene;hanging_cloth;--frames;x"
    "--scene;hanging_cloth;--size;huge"
    "--scene;hanging_cloth;--dt;-1"
    "--scene;hanging_cloth;--dt;nan"
    "--scene;hanging_cloth;--threads;0"
    "--scene;hanging_cloth;stray"
    "--scene"
    "--frames;1")
  expect_exit(2 ${_bad})
  expect_in(err "${NAME}: ")
  expect_empty(out)
endforeach()

# Outputs that cannot be written: a message naming them, exit 1, and no
# simulation (nothing on stdout, no frame written).
expect_exit(1 --scene hanging_cloth --frames 1 --threads 1 --out /proc/nope)
expect_in(err "/proc/nope")
expect_empty(out)
expect_exit(1 --scene hanging_cloth --frames 1 --threads 1 --out "${WORK_DIR}/blocked"
  --json /proc/nope/stats.json)
expect_in(err "/proc/nope/stats.json")
expect_empty(out)
if(EXISTS "${WORK_DIR}/blocked/frame_0000.obj")
  _fail("a frame was written although --json cannot be")
endif()

# One step of the smallest scene: frames, picture and statistics, with the
# locations printed at the start and at the end.
set(_run "${WORK_DIR}/run")
expect_exit(0 --scene hanging_cloth --frames 1 --threads 1 --out "${_run}" --json "${_run}/stats.json")
expect_in(out "writing 2 frames to ${_run}/frame_NNNN.obj, picture ${_run}/last_frame.png, statistics ${_run}/stats.json")
expect_in(out "picture    ${_run}/last_frame.png")
expect_in(out "statistics ${_run}/stats.json")
foreach(_file IN ITEMS frame_0000.obj frame_0001.obj last_frame.png stats.json)
  if(NOT EXISTS "${_run}/${_file}")
    _fail("the run did not write ${_run}/${_file}")
  endif()
endforeach()
if(EXISTS "${_run}/last_frame.png")
  file(READ "${_run}/last_frame.png" _signature LIMIT 8 HEX)
  if(NOT _signature STREQUAL "89504e470d0a1a0a")
    _fail("${_run}/last_frame.png does not start with the PNG signature (${_signature})")
  endif()
endif()
if(EXISTS "${_run}/stats.json" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
  file(READ "${_run}/stats.json" _json)
  string(JSON _scene ERROR_VARIABLE _json_error GET "${_json}" scene)
  string(JSON _steps ERROR_VARIABLE _json_error2 LENGTH "${_json}" steps)
  if(_json_error OR _json_error2 OR NOT _scene STREQUAL "hanging_cloth" OR NOT _steps EQUAL 1)
    _fail("stats.json: scene '${_scene}', ${_steps} steps (${_json_error}${_json_error2})")
  endif()
  # The two Newton solvers write the same shape: the linear solver in the
  # header, and these totals (AL adds its own beside them).
  if(NAME STREQUAL "ipc_sim" OR NAME STREQUAL "al_sim")
    string(JSON _solver ERROR_VARIABLE _e GET "${_json}" linear_solver)
    if(_e OR _solver STREQUAL "")
      _fail("stats.json: no linear_solver (${_e})")
    endif()
    foreach(_key IN ITEMS seconds_per_step newton_iterations_per_step max_contacts min_gap min_distance toi_mean
                          steps_not_converged seconds_assembly seconds_linear_solve seconds_ccd seconds_line_search)
      string(JSON _type ERROR_VARIABLE _e TYPE "${_json}" totals ${_key})
      if(_e)
        _fail("stats.json: totals has no ${_key} (${_e})")
      endif()
    endforeach()
  endif()
endif()

# repulsion_sim's hard phase: the solver asked for is the one its JSON
# header names, and an unknown one is a bad command line.
if(NAME STREQUAL "repulsion_sim")
  expect_exit(2 --scene hanging_cloth --frames 1 --hard-solver bogus)
  expect_in(err "--hard-solver")
  set(_run_hard "${WORK_DIR}/run_hard")
  expect_exit(0 --scene hanging_cloth --frames 1 --threads 1 --hard-solver gradient --out "${_run_hard}"
    --json "${_run_hard}/stats.json")
  expect_in(out "hard phase gradient")
  if(EXISTS "${_run_hard}/stats.json" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
    file(READ "${_run_hard}/stats.json" _json)
    string(JSON _hard ERROR_VARIABLE _e GET "${_json}" parameters hard_solver)
    if(_e OR NOT _hard STREQUAL "gradient")
      _fail("stats.json: parameters.hard_solver is '${_hard}', not gradient (${_e})")
    endif()
  endif()
endif()

# A 2D scene (ipc_sim only): listed with its description, and one step
# writes its OBJ (vertices at z = 0, triangles as faces, rope and box as
# lines), picture and statistics; --dump-scene (3D scene files) refuses it.
if(NAME STREQUAL "ipc_sim")
  expect_exit(0 --list-scenes)
  if(NOT "\n${out}" MATCHES "\nboxes_2d  +[a-z][^\n]+\n")
    _fail("--list-scenes: no line for boxes_2d with a description in:\n${out}")
  endif()
  set(_run2d "${WORK_DIR}/run_2d")
  expect_exit(0 --scene boxes_2d --frames 1 --threads 1 --out "${_run2d}" --json "${_run2d}/stats.json")
  expect_in(out "writing 2 frames to ${_run2d}/frame_NNNN.obj, picture ${_run2d}/last_frame.png")
  foreach(_file IN ITEMS frame_0000.obj frame_0001.obj last_frame.png stats.json)
    if(NOT EXISTS "${_run2d}/${_file}")
      _fail("the 2D run did not write ${_run2d}/${_file}")
    endif()
  endforeach()
  if(EXISTS "${_run2d}/frame_0001.obj")
    file(READ "${_run2d}/frame_0001.obj" _obj)
    if(NOT _obj MATCHES "\nf [0-9]+ [0-9]+ [0-9]+\n" OR NOT _obj MATCHES "\nl [0-9]+ [0-9]+\n"
        OR _obj MATCHES "\nv [^ \n]+ [^ \n]+ ([^0\n][^\n]*|0[^\n]+)\n")
      _fail("${_run2d}/frame_0001.obj lacks faces or lines, or has a vertex off z = 0")
    endif()
  endif()
  if(EXISTS "${_run2d}/last_frame.png")
    file(READ "${_run2d}/last_frame.png" _signature LIMIT 8 HEX)
    if(NOT _signature STREQUAL "89504e470d0a1a0a")
      _fail("${_run2d}/last_frame.png does not start with the PNG signature (${_signature})")
    endif()
  endif()
  if(EXISTS "${_run2d}/stats.json" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
    file(READ "${_run2d}/stats.json" _json)
    string(JSON _scene ERROR_VARIABLE _e1 GET "${_json}" scene)
    string(JSON _steps ERROR_VARIABLE _e2 LENGTH "${_json}" steps)
    string(JSON _gap ERROR_VARIABLE _e3 GET "${_json}" totals min_distance)
    if(_e1 OR _e2 OR _e3 OR NOT _scene STREQUAL "boxes_2d" OR NOT _steps EQUAL 1)
      _fail("2D stats.json: scene '${_scene}', ${_steps} steps (${_e1}${_e2}${_e3})")
    endif()
  endif()
  expect_exit(1 --scene boxes_2d --dump-scene "${WORK_DIR}/dump_2d.json")
  expect_in(err "2D scene")
endif()

# --save-state and --resume (ipc_sim only): 2 steps saved, resumed to step 3,
# end on the frame a 3-step run ends on, numbered on from the saved step; a
# state of another scene, or one past --frames, is a failed run that says so.
if(NAME STREQUAL "ipc_sim")
  set(_whole "${WORK_DIR}/whole")
  set(_part "${WORK_DIR}/part")
  expect_exit(0 --scene hanging_cloth --frames 3 --threads 1 --out "${_whole}")
  expect_exit(0 --scene hanging_cloth --frames 2 --threads 1 --out "${_part}" --save-state "${_part}/state.json")
  expect_in(out "state after every step: ${_part}/state.json")
  expect_exit(0 --scene hanging_cloth --frames 3 --threads 1 --out "${_part}" --resume "${_part}/state.json"
    --json "${_part}/stats.json")
  expect_in(out "the state after step 2")
  expect_in(out "frame_0002 to frame_0003")
  expect_same_file("${_whole}/frame_0003.obj" "${_part}/frame_0003.obj"
    "the resumed run does not step like the uninterrupted one")
  if(EXISTS "${_part}/stats.json" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
    file(READ "${_part}/stats.json" _json)
    string(JSON _first ERROR_VARIABLE _e1 GET "${_json}" first_step)
    string(JSON _steps ERROR_VARIABLE _e2 LENGTH "${_json}" steps)
    if(_e1 OR _e2 OR NOT _first EQUAL 3 OR NOT _steps EQUAL 1)
      _fail("resumed stats.json: first_step '${_first}', ${_steps} steps (${_e1}${_e2})")
    endif()
  endif()
  expect_exit(1 --scene hanging_cloth --frames 2 --threads 1 --out "${_part}" --resume "${_part}/state.json")
  expect_in(err "leaves nothing to run")
  expect_exit(1 --scene press --frames 3 --threads 1 --out "${_part}" --resume "${_part}/state.json")
  expect_in(err "scene 'hanging_cloth'")
  expect_exit(1 --scene boxes_2d --frames 1 --threads 1 --out "${_part}" --resume "${_part}/state.json")
  expect_in(err "3D scenes")
endif()

# Scene files: --dump-scene writes the scene and runs nothing; running the
# file gives the same frames as running the scene by name; a file that
# cannot be read is a failed run (exit 1) whose message names it; --scene
# and --scene-file together are a usage error.
set(_dump "${WORK_DIR}/dump/hanging_cloth.json")
expect_exit(0 --scene hanging_cloth --dump-scene "${_dump}")
expect_in(out "${_dump}")
if(NOT EXISTS "${_dump}")
  _fail("--dump-scene did not write ${_dump}")
endif()
if(EXISTS "${WORK_DIR}/dump/frame_0000.obj" OR EXISTS "out/hanging_cloth/frame_0000.obj")
  _fail("--dump-scene ran the simulation")
endif()
set(_from_file "${WORK_DIR}/from_file")
expect_exit(0 --scene-file "${_dump}" --frames 1 --threads 1 --out "${_from_file}")
expect_same_file("${_from_file}/frame_0001.obj" "${_run}/frame_0001.obj"
  "the dumped hanging_cloth does not step like the built-in scene")
expect_exit(1 --scene-file "${WORK_DIR}/missing.json" --frames 1 --out "${WORK_DIR}/missing")
expect_in(err "missing.json")
expect_exit(2 --scene hanging_cloth --scene-file "${_dump}")
expect_in(err "${NAME}: ")

# An IPC 2020 scene script (ipc_sim only, when the paper scenes are at hand):
# the run, and its conversion to a scene file, step alike; a script that does
# not exist is a failed run that names it.
if(NAME STREQUAL "ipc_sim" AND DEFINED ENV{IPC_PAPER_SCENES})
  set(_script "$ENV{IPC_PAPER_SCENES}/input/paperExamples/10_tetTet.txt")
  expect_exit(0 --ipc-script "${_script}" --frames 3 --threads 1 --check --out "${WORK_DIR}/script")
  expect_in(err "warning: ")
  expect_exit(0 --ipc-script "${_script}" --dump-scene "${WORK_DIR}/script.json")
  expect_exit(0 --scene-file "${WORK_DIR}/script.json" --frames 3 --threads 1 --out "${WORK_DIR}/script_json")
  expect_same_file("${WORK_DIR}/script/frame_0003.obj" "${WORK_DIR}/script_json/frame_0003.obj"
    "the converted 10_tetTet does not step like the script")
  expect_exit(1 --ipc-script "${WORK_DIR}/no_such_script.txt" --frames 1 --out "${WORK_DIR}/none")
  expect_in(err "no_such_script.txt")
endif()

if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} ${NAME} command-line check(s) failed:\n${_report}")
endif()
message(STATUS "${NAME} command line: all checks passed")
