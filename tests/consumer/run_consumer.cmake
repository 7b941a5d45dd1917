# Builds and runs the consumer project in CONSUMER_DIR against ipc, adopted
# either through find_package (after installing SOURCE_DIR into a prefix) or
# through add_subdirectory(SOURCE_DIR).
file(REMOVE_RECURSE "${WORK_DIR}")
# No optimisation: the test checks how the package is adopted (targets,
# include paths, link), and an unoptimised build of it takes a third of the time.
set(_common -G "Unix Makefiles" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "command failed (${_rc}): ${ARGN}\n${_out}")
  endif()
endfunction()

if(MODE STREQUAL "find_package")
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/ipc-build ${_common}
      -DIPC_BUILD_TESTS=OFF -DIPC_BUILD_BENCHMARKS=OFF -DIPC_BUILD_EXAMPLES=OFF
      -DIPC_INSTALL=ON -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/ipc-build)
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build ${_common}
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DIPC_CONSUMER_MODE=find_package)
else()
  run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build ${_common}
      -DIPC_CONSUMER_MODE=add_subdirectory -DIPC_SOURCE_DIR=${SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
message(STATUS "consumer (${MODE}) built and ran")
