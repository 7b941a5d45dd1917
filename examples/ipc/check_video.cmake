# Checks an example program's --video flag. CTest runs it as
#
#   cmake -DIPC_SIM=/path/to/ipc_sim -DWORK_DIR=/scratch/folder [-DNAME=ipc_sim]
#         [-DSCENE=hanging_cloth] -P check_video.cmake
#
# Without ffmpeg on PATH the flag fails at once (exit 1, a message that names
# ffmpeg and the package, nothing simulated): checked with a PATH that holds
# no ffmpeg, so it runs everywhere. With ffmpeg and ffprobe on PATH, a run of
# three steps writes a video that ffprobe reads as H.264, yuv420p, 800 x 600,
# with four frames (the start and one per step); without them that part is
# skipped with a message (CTest reports the test as skipped).
cmake_minimum_required(VERSION 3.16)

if(NOT NAME)
  set(NAME ipc_sim)
endif()
if(NOT SCENE)
  set(SCENE hanging_cloth)
endif()
foreach(_var IN ITEMS IPC_SIM WORK_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_video.cmake: pass -D${_var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/empty_path")

set(_failures 0)
set(_report "")
macro(_fail text)
  math(EXPR _failures "${_failures} + 1")
  string(APPEND _report "FAILED: ${text}\n")
endmacro()

# No ffmpeg: PATH names only an empty folder.
set(_none "${WORK_DIR}/no_ffmpeg")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "PATH=${WORK_DIR}/empty_path"
          "${IPC_SIM}" --scene ${SCENE} --frames 1 --threads 1 --out "${_none}" --video "${_none}/run.mp4"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc EQUAL 1)
  _fail("--video without ffmpeg: exit ${rc}, expected 1\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
foreach(_part IN ITEMS "${NAME}: " "--video needs the ffmpeg program" "apt-get install ffmpeg")
  string(FIND "${err}" "${_part}" _at)
  if(_at EQUAL -1)
    _fail("--video without ffmpeg: '${_part}' not in stderr:\n${err}")
  endif()
endforeach()
if(NOT out STREQUAL "" OR EXISTS "${_none}/frame_0000.obj")
  _fail("--video without ffmpeg simulated something:\n${out}")
endif()

find_program(_ffmpeg ffmpeg)
find_program(_ffprobe ffprobe)
if(NOT _ffmpeg OR NOT _ffprobe)
  if(_failures GREATER 0)
    message(FATAL_ERROR "${_failures} ${NAME} --video check(s) failed:\n${_report}")
  endif()
  message(STATUS "${NAME} --video: SKIPPED the video file checks, ffmpeg or ffprobe is not on PATH "
                 "(apt-get install ffmpeg)")
  return()
endif()

# Three steps: four frames (the start and one per step).
set(_run "${WORK_DIR}/run")
set(_video "${_run}/run.mp4")
execute_process(
  COMMAND "${IPC_SIM}" --scene ${SCENE} --frames 3 --threads 1 --out "${_run}" --video "${_video}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc EQUAL 0)
  _fail("${NAME} --video: exit ${rc}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
foreach(_part IN ITEMS "video ${_video} (" "video      ${_video} (4 frames)")
  string(FIND "${out}" "${_part}" _at)
  if(_at EQUAL -1)
    _fail("${NAME} --video: '${_part}' not in stdout:\n${out}")
  endif()
endforeach()
if(NOT EXISTS "${_video}")
  _fail("${NAME} --video did not write ${_video}")
else()
  execute_process(
    COMMAND "${_ffprobe}" -v error -count_frames -select_streams v:0
            -show_entries stream=codec_name,pix_fmt,width,height,nb_read_frames -of default=noprint_wrappers=1
            "${_video}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE probe ERROR_VARIABLE probe_err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    _fail("ffprobe cannot read ${_video} (exit ${rc}):\n${probe_err}")
  endif()
  foreach(_entry IN ITEMS codec_name=h264 pix_fmt=yuv420p width=800 height=600 nb_read_frames=4)
    string(FIND "${probe}" "${_entry}" _at)
    if(_at EQUAL -1)
      _fail("ffprobe on ${_video}: expected ${_entry} in:\n${probe}")
    endif()
  endforeach()
endif()

if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} ${NAME} --video check(s) failed:\n${_report}")
endif()
message(STATUS "${NAME} --video: all checks passed")
